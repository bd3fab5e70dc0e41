"""ExpenseInput: what any door hands the ledger to record or edit an expense.

Every way an expense comes in produces one: the REST schemas' post-load
(app.ledger.schemas), the MCP tools (after their decimals became minor units), import
rows (app.imports.model.Row.expense_input), chat drafts (stored as it, confirmed
from it), recurring templates, and receipt drafts. The ledger's
``app.ledger.expense_input.build`` is the only judge of its money rules; this
module only gives the input its shape.

An input is immutable and in integer minor units of its ``currency`` (``group_amount`` in
the group's). It holds either ``items`` or the one-item shorthand (``amount`` +
``split_mode`` + ``splits``), exactly as sent: build tells the forms apart and refuses a
mix. ``sent`` names the wire fields a body carried, so a partial edit can tell "cleared"
(sent as null) from "not sent". ``rate_source``/``rate_date`` only ever come from a stored
body that an edit keeps (the request schemas refuse them).

Build one with :func:`from_wire` (an API-shaped body of minor units, e.g. ``{"payments":
[{"participantId": ..., "amount": 1230}], "items": [...], "description": ...}``), or with
the constructor and ``PaymentInput``/``ItemInput``/``SplitInput`` directly."""
from __future__ import annotations

from typing import Any, FrozenSet, Mapping, NamedTuple, Optional, Tuple

from app.errors import Invalid


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
    sent: FrozenSet[str] = frozenset()

    def with_(self, **changes: Any) -> "ExpenseInput":
        """The same input with some fields replaced (and counted as sent)."""
        names = {WIRE_NAMES.get(name, name) for name in changes}
        return self._replace(**changes, sent=self.sent | names)

    def to_wire(self) -> dict:
        """The API-shaped body (minor units) this input reads back as with :func:`from_wire`:
        what a chat draft stores and what the draft's reply shows."""
        body: dict = {}
        for name, wire in WIRE_NAMES.items():
            value = getattr(self, name)
            if wire not in self.sent and value is None:
                continue
            if name == "payments" and value is not None:
                value = [{"participantId": p.participant_id, "amount": p.amount} for p in value]
            elif name == "items" and value is not None:
                value = [{**({"name": i.name} if i.name is not None else {}),
                          "amount": i.amount, "splitMode": i.split_mode,
                          "splits": [_split_wire(s) for s in i.splits]} for i in value]
            elif name == "splits" and value is not None:
                value = [_split_wire(s) for s in value]
            body[wire] = value
        return body

    @property
    def participant_ids(self) -> set:
        """Everyone the input names (payers and split members, either form)."""
        ids = {p.participant_id for p in self.payments or ()}
        for item in self.items or ():
            ids.update(s.participant_id for s in item.splits)
        ids.update(s.participant_id for s in self.splits or ())
        return ids


# ExpenseInput field -> its API name (the order of to_wire).
WIRE_NAMES = {"description": "description", "category": "category", "date": "date",
              "notes": "notes", "payments": "payments", "items": "items", "amount": "amount",
              "split_mode": "splitMode", "splits": "splits", "currency": "currency",
              "exchange_rate": "exchangeRate", "group_amount": "groupAmount",
              "rate_source": "rateSource", "rate_date": "rateDate"}
# Each text field's most characters, declared here beside the field (description and item
# names must also be non-blank): the REST schemas' Length validators (app.ledger.schemas)
# and a chat or receipt draft's check (app.chat.proposals) both read them, and an
# import cuts its texts to them.
TEXT_MAX = {"description": 200, "category": 50, "notes": 500}
ITEM_NAME_MAX = 200
# The API names of a request body's expense fields (a template's expense part too).
REQUEST_FIELDS = tuple(wire for wire in WIRE_NAMES.values()
                       if wire not in ("date", "rateSource", "rateDate"))


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


def from_wire(body: Mapping[str, Any]) -> ExpenseInput:
    """An API-shaped expense body (minor units) -> ExpenseInput.

    Takes the fields of ``WIRE_NAMES`` (others are ignored: a caller that must refuse
    unknown fields checks them first) and checks only the shapes (lists of objects);
    ``build`` judges every value. Public for every door: REST, MCP, chat and receipt drafts."""
    if not isinstance(body, Mapping):
        raise Invalid("An expense body must be an object.")
    sent = frozenset(wire for wire in WIRE_NAMES.values() if wire in body)
    values = {name: body.get(wire) for name, wire in WIRE_NAMES.items()}
    if values["payments"] is not None:
        values["payments"] = tuple(PaymentInput(p.get("participantId"), p.get("amount"))
                                   for p in _entries(values["payments"], "payments"))
    if values["items"] is not None:
        values["items"] = tuple(
            ItemInput(i.get("name"), i.get("amount"), i.get("splitMode"),
                      _splits(i.get("splits") or [], f"items[{n}].splits"))
            for n, i in enumerate(_entries(values["items"], "items")))
    if values["splits"] is not None:
        values["splits"] = _splits(values["splits"], "splits")
    return ExpenseInput(**values, sent=sent)
