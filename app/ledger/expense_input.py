"""The ledger's one expense input: the type every door produces, and the rules of its shape.

:class:`ExpenseInput` is what every door hands the ledger to record or edit an expense: the
REST schemas load straight into it (app.ledger.schemas, camelCase only there, through
``data_key``), and so do the MCP tools (after their decimals became minor units), import rows
(app.imports.model.Row.expense_input), recurring templates (their schema's expense part),
and chat and receipt drafts (stored as the API-shaped body, :meth:`ExpenseInput.to_draft`,
and read back once with :meth:`ExpenseInput.from_draft`). It is immutable, snake_case, in integer
minor units of its ``currency`` (``group_amount`` in the group's), and holds either ``items``
or the one-item shorthand (``amount`` + ``split_mode`` + ``splits``) exactly as sent; ``sent``
names the fields a body carried, so a partial edit can tell "cleared" (sent as null) from
"not sent". ``rate_source``/``rate_date`` only ever come from a stored body that an edit
keeps (the request schemas refuse them).

This module is a leaf (it imports no use case), so the request schemas may load into it;
``app.ledger.expense_build.build`` judges an input's money and makes the stored body."""
from __future__ import annotations

from typing import Any, Collection, FrozenSet, Mapping, NamedTuple, Optional, Tuple

from app.errors import Invalid
from app.dates import is_calendar_date


class PaymentInput(NamedTuple):
    participant_id: Any
    amount: Any


class SplitInput(NamedTuple):
    participant_id: Any
    value: Any = None  # ignored for EQUAL; minor units (EXACT), basis points, a weight


class ItemInput(NamedTuple):
    name: Optional[str]
    amount: Any
    split_mode: Any
    splits: Tuple[SplitInput, ...]


class ExtraInput(NamedTuple):
    name: Any  # tax, tip, service, discount, or the caller's own words
    amount: Any  # signed minor units: a discount is negative


class ExpenseInput(NamedTuple):
    """One expense's body as a door received it, typed; see the module docstring."""

    description: Optional[str] = None
    category: Optional[str] = None
    date: Optional[str] = None
    notes: Optional[str] = None
    payments: Optional[Tuple[PaymentInput, ...]] = None
    items: Optional[Tuple[ItemInput, ...]] = None
    amount: Any = None  # the shorthand's total; with items, a check of their sum
    split_mode: Any = None  # the shorthand's
    splits: Optional[Tuple[SplitInput, ...]] = None  # the shorthand's
    currency: Optional[str] = None
    exchange_rate: Optional[str] = None
    group_amount: Any = None
    rate_source: Optional[str] = None
    rate_date: Optional[str] = None
    kind: Optional[str] = None  # EXPENSE (None: not sent) or INCOME
    # Tax, tip, service, discount: shared in proportion to the item subtotals
    # (app.money.extras); with them, ``amount`` is the total, items plus extras.
    extras: Optional[Tuple[ExtraInput, ...]] = None
    sent: FrozenSet[str] = frozenset()

    @classmethod
    def of(cls, **fields: Any) -> "ExpenseInput":
        """An input of exactly the fields given (each counted as sent)."""
        return cls(**fields, sent=frozenset(fields))

    def with_(self, **changes: Any) -> "ExpenseInput":
        """The same input with some fields replaced (and counted as sent)."""
        return self._replace(**changes, sent=self.sent | set(changes))

    # --- the draft body (chat and receipt drafts store an input as it; see below) ------
    @classmethod
    def from_draft(cls, body: Mapping[str, Any]) -> "ExpenseInput":
        """A stored or proposed draft body (API-shaped, minor units) as the input it holds.

        Takes the fields of ``WIRE_NAMES`` (others are ignored: a caller that must refuse
        unknown fields checks them first) and checks only the shapes (lists of objects);
        ``build`` judges every value."""
        return _from_draft(body)

    def to_draft(self) -> dict:
        """The draft body (API-shaped, minor units) :meth:`from_draft` reads back as this
        input: what a chat or receipt draft stores and its reply shows."""
        return _to_draft(self)

    @property
    def participant_ids(self) -> set:
        """Everyone the input names (payers and split members, either form)."""
        ids = {p.participant_id for p in self.payments or ()}
        for item in self.items or ():
            ids.update(s.participant_id for s in item.splits)
        ids.update(s.participant_id for s in self.splits or ())
        return ids


# The fields a request body may send (a template's expense part too): the recorded rate's
# source and day are the ledger's, and the date is the expense's own (a template's schedule).
REQUEST_FIELDS = tuple(name for name in ExpenseInput._fields
                       if name not in ("date", "rate_source", "rate_date", "sent"))
# Each text field's most characters, declared here beside the field (description and item
# names must also be non-blank): the REST schemas' Length validators (app.ledger.schemas)
# and a chat draft's check (app.chat.proposals) both read them, and an import cuts its texts
# to them.
TEXT_MAX = {"description": 200, "category": 50, "notes": 500}
ITEM_NAME_MAX = 200


# ---------------------------------------------------------------- the draft body
# Chat and receipt drafts are stored as the API-shaped body (minor units): rows already in
# the tables hold that JSON, and the draft replies show it as is. ExpenseInput.to_draft and
# ExpenseInput.from_draft are its one writer and one reader, so the names are said once
# here; a service reads a draft once, at its edge, and works on the typed input after. The
# REST routes load straight into ExpenseInput (app.ledger.schemas).

# ExpenseInput field -> its API name (the order of ExpenseInput.to_draft).
WIRE_NAMES = {"description": "description", "category": "category", "date": "date",
              "notes": "notes", "payments": "payments", "items": "items", "amount": "amount",
              "split_mode": "splitMode", "splits": "splits", "currency": "currency",
              "exchange_rate": "exchangeRate", "group_amount": "groupAmount",
              "rate_source": "rateSource", "rate_date": "rateDate", "kind": "kind",
              "extras": "extras"}


def _to_draft(expense: ExpenseInput) -> dict:
    body: dict = {}
    for name, api in WIRE_NAMES.items():
        value = getattr(expense, name)
        if name not in expense.sent and value is None:
            continue
        if name == "payments" and value is not None:
            value = [{"participantId": p.participant_id, "amount": p.amount} for p in value]
        elif name == "items" and value is not None:
            value = [{**({"name": i.name} if i.name is not None else {}),
                      "amount": i.amount, "splitMode": i.split_mode,
                      "splits": [_split_wire(s) for s in i.splits]} for i in value]
        elif name == "splits" and value is not None:
            value = [_split_wire(s) for s in value]
        elif name == "extras" and value is not None:
            value = [{"name": e.name, "amount": e.amount} for e in value]
        body[api] = value
    return body


def _split_wire(split: SplitInput) -> dict:
    return ({"participantId": split.participant_id} if split.value is None
            else {"participantId": split.participant_id, "value": split.value})


def _entries(value: Any, name: str) -> list:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, Mapping) for v in value):
        raise Invalid(f"{name} must be a list of objects.",
                      details={name: ["Must be a list of objects."]})
    return list(value)


def _splits(value: Any, name: str) -> Tuple[SplitInput, ...]:
    return tuple(SplitInput(s.get("participantId"), s.get("value")) for s in _entries(value, name))


def _from_draft(body: Mapping[str, Any]) -> ExpenseInput:
    if not isinstance(body, Mapping):
        raise Invalid("An expense body must be an object.")
    values = {name: body[api] for name, api in WIRE_NAMES.items() if api in body}
    if values.get("payments") is not None:
        values["payments"] = tuple(PaymentInput(p.get("participantId"), p.get("amount"))
                                   for p in _entries(values["payments"], "payments"))
    if values.get("items") is not None:
        values["items"] = tuple(
            ItemInput(i.get("name"), i.get("amount"), i.get("splitMode"),
                      _splits(i.get("splits") or [], f"items[{n}].splits"))
            for n, i in enumerate(_entries(values["items"], "items")))
    if values.get("splits") is not None:
        values["splits"] = _splits(values["splits"], "splits")
    if values.get("extras") is not None:
        values["extras"] = tuple(ExtraInput(e.get("name"), e.get("amount"))
                                 for e in _entries(values["extras"], "extras"))
    return ExpenseInput.of(**values)


# ---------------------------------------------------------------- the two forms
# An expense says who owes what either as ``items`` (each with its amount, split mode and
# splits) or as the shorthand amount + split mode + splits for a single item, never both.
# This is that rule, once: the request schemas' validators, their JSON Schema (the OpenAPI
# document, the MCP tool's inputSchema) and build all read it. A body is judged by the
# fields it sends (ExpenseInput's names); the messages and the JSON Schema say them as the
# API spells them.

ITEMS = "items"
SHORTHAND = ("amount", "split_mode", "splits")
SHORTHAND_API = ("amount", "splitMode", "splits")  # the same fields, as the API spells them
# Never sent with items. ``amount`` may be: it must then equal the items' sum.
NOT_WITH_ITEMS = SHORTHAND[1:]
NOT_WITH_ITEMS_API = SHORTHAND_API[1:]

BOTH = f"Send either items or {' + '.join(NOT_WITH_ITEMS_API)}, not both."
BOTH_DETAIL = f"Not allowed together with {'/'.join(NOT_WITH_ITEMS_API)}."
NEITHER = f"An expense needs items, or {' + '.join(SHORTHAND_API)}."
NEITHER_DETAIL = f"Missing items or {' + '.join(SHORTHAND_API)}."
REQUIRED_DETAIL = "Required unless items are sent."
# The rule in words, for schemas that cannot state it (an MCP tool's flat inputSchema).
EITHER_FORM = (f"send {ITEMS} (each with its amount, splitMode and splits) or the one-item "
               f"shorthand {' + '.join(SHORTHAND_API)}, never {ITEMS} with "
               f"{' or '.join(NOT_WITH_ITEMS_API)}.")


def mixed(sent: Collection[str]) -> bool:
    """Items together with a shorthand-only field: refused by every create and edit."""
    return ITEMS in sent and any(name in sent for name in NOT_WITH_ITEMS)


def missing(sent: Collection[str]) -> Tuple[str, ...]:
    """The API names of the shorthand fields a whole body without items lacks (none when
    items are sent)."""
    if ITEMS in sent:
        return ()
    return tuple(api for name, api in zip(SHORTHAND, SHORTHAND_API, strict=True)
                 if name not in sent)


# A whole body may also send the amount alone (no split mode, no splits): the group's
# defaultSplit shares it (app.ledger.default_split).
DEFAULTED = SHORTHAND[1:]
DEFAULTED_API = SHORTHAND_API[1:]


def defaulted(sent: Collection[str]) -> bool:
    """An amount with neither items nor any of the shorthand's split fields."""
    return "amount" in sent and ITEMS not in sent and not any(name in sent for name in DEFAULTED)


# The same rule as JSON Schema: a whole body is one of the forms (anyOf ONE_FORM) ...
ONE_FORM = [{"required": [ITEMS]}, {"required": list(SHORTHAND_API)},
            {"required": ["amount"],
             "not": {"anyOf": [{"required": [name]} for name in DEFAULTED_API]}}]
# ... and no body, whole or a patch, is both (not NOT_BOTH_FORMS).
NOT_BOTH_FORMS = {"required": [ITEMS],
                  "anyOf": [{"required": [name]} for name in NOT_WITH_ITEMS_API]}


def check_date(value: Any) -> str:
    """A calendar date ``YYYY-MM-DD`` or Invalid."""
    if is_calendar_date(value):
        return value
    raise Invalid("date must be a calendar date YYYY-MM-DD.",
                  details={"date": ["Must be a calendar date YYYY-MM-DD."]})
