"""The two forms of an expense body: ``items``, or the one-item shorthand.

An expense says who owes what either as ``items`` (each with its amount, splitMode and
splits) or as the shorthand ``amount`` + ``splitMode`` + ``splits`` for a single item, never
both. This module is that rule, once: the request schemas' validators, their JSON Schema
(the OpenAPI document, the MCP tool's inputSchema) and the ledger service all read it.

A body is judged by the names it sends (``sent``): the schemas pass the loaded fields, the
service the fields that are not None."""
from __future__ import annotations

from typing import Collection, Tuple

ITEMS = "items"
SHORTHAND = ("amount", "splitMode", "splits")
# Never sent with items. ``amount`` may be: it must then equal the items' sum.
NOT_WITH_ITEMS = ("splitMode", "splits")

BOTH = f"Send either items or {' + '.join(NOT_WITH_ITEMS)}, not both."
BOTH_DETAIL = f"Not allowed together with {'/'.join(NOT_WITH_ITEMS)}."
NEITHER = f"An expense needs items, or {' + '.join(SHORTHAND)}."
NEITHER_DETAIL = f"Missing items or {' + '.join(SHORTHAND)}."
REQUIRED_DETAIL = "Required unless items are sent."
# The rule in words, for schemas that cannot state it (an MCP tool's flat inputSchema).
EITHER_FORM = (f"send {ITEMS} (each with its amount, splitMode and splits) or the one-item "
               f"shorthand {' + '.join(SHORTHAND)}, never {ITEMS} with "
               f"{' or '.join(NOT_WITH_ITEMS)}.")


def mixed(sent: Collection[str]) -> bool:
    """Items together with a shorthand-only field: refused by every create and edit."""
    return ITEMS in sent and any(name in sent for name in NOT_WITH_ITEMS)


def missing(sent: Collection[str]) -> Tuple[str, ...]:
    """The shorthand fields a whole body without items lacks (none when items are sent)."""
    return () if ITEMS in sent else tuple(name for name in SHORTHAND if name not in sent)


# The same rule as JSON Schema: a whole body is one of the forms (anyOf ONE_FORM) ...
ONE_FORM = [{"required": [ITEMS]}, {"required": list(SHORTHAND)}]
# ... and no body, whole or a patch, is both (not NOT_BOTH_FORMS).
NOT_BOTH_FORMS = {"required": [ITEMS],
                  "anyOf": [{"required": [name]} for name in NOT_WITH_ITEMS]}
