"""Expense bodies: the shorthand and itemised forms, partial edits, exact split resolution.

Bodies use the API's field names (``payments``, ``items``, ``splitMode`` ...). Every form
becomes one :class:`Draft` with each split's owed amount resolved by ``app.money.splits``,
so the stored row, the reply and the balance deltas all come from the same numbers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from app.errors import Invalid
from app.rules import is_calendar_date
from app.money import expense_forms
from app.money.expense_forms import ITEMS, SHORTHAND
from app.money.splits import net_effects, resolve_item
from models.groups import Expense

MONEY_FIELDS = ("payments", "items") + SHORTHAND


@dataclass
class Draft:
    """A validated expense body with every owed amount resolved."""

    description: str
    date: str
    category: Optional[str]
    payments: List[tuple]                      # (participantId, amount)
    items: List[dict]                          # {name, amount, splitMode, splits: [(pid, value, owed)]}
    amount: int
    nets: Dict[str, int] = field(default_factory=dict)

    @property
    def participant_ids(self) -> set:
        ids = {pid for pid, _ in self.payments}
        for item in self.items:
            ids.update(pid for pid, _, _ in item["splits"])
        return ids


def _invalid(error: Invalid, shorthand: bool) -> Invalid:
    """Re-shape a money error as field errors (``details = {field: [message]}``)."""
    name = str(error.details.get("field") or "_")
    if shorthand and name.startswith("items[0]."):
        name = name[len("items[0]."):]  # the caller sent the top-level form
    return Invalid(error.message, details={name: [error.message]})


def check_date(value: Any) -> str:
    """A calendar date ``YYYY-MM-DD`` or Invalid."""
    if is_calendar_date(value):
        return value
    raise Invalid("date must be a calendar date YYYY-MM-DD.",
                  details={"date": ["Must be a calendar date YYYY-MM-DD."]})


def _raw_items(body: Mapping[str, Any]) -> tuple:
    """(items, used_shorthand) from either form (app.money.expense_forms); both or neither
    is Invalid."""
    sent = {name for name in (ITEMS, *SHORTHAND) if body.get(name) is not None}
    if expense_forms.mixed(sent):
        raise Invalid(expense_forms.BOTH, details={ITEMS: [expense_forms.BOTH_DETAIL]})
    if ITEMS in sent:
        return list(body[ITEMS]), False
    if expense_forms.missing(sent):
        raise Invalid(expense_forms.NEITHER, details={ITEMS: [expense_forms.NEITHER_DETAIL]})
    return [{"name": body.get("description") or "Item", "amount": body["amount"],
             "splitMode": body.get("splitMode"), "splits": body.get("splits") or []}], True


def build(body: Mapping[str, Any]) -> Draft:
    """Validate a full expense body and resolve every split exactly."""
    raw_items, shorthand = _raw_items(body)
    payments = [(p.get("participantId"), p.get("amount")) for p in body.get("payments") or []]
    items = []
    try:
        parsed = [(item.get("amount"), item.get("splitMode"),
                   [(s.get("participantId"), s.get("value")) for s in item.get("splits") or []])
                  for item in raw_items]
        nets = net_effects(payments, parsed)
        for item, (amount, mode, splits) in zip(raw_items, parsed):
            owed = resolve_item(amount, mode, splits)
            items.append({"name": item.get("name") or body.get("description") or "Item",
                          "amount": amount, "splitMode": mode,
                          "splits": [(pid, value if value is not None else 0, share)
                                     for (pid, value), share in zip(splits, owed)]})
    except Invalid as error:
        raise _invalid(error, shorthand) from None
    total = sum(item["amount"] for item in items)
    if body.get("amount") is not None and not shorthand and body["amount"] != total:
        raise Invalid(f"amount is {body['amount']} but the items sum to {total}.",
                      details={"amount": ["Must equal the sum of the item amounts."]})
    description = body.get("description")
    if not isinstance(description, str) or not description.strip():
        raise Invalid("description is required.", details={"description": ["Required."]})
    return Draft(description=description, date=check_date(body.get("date")),
                 category=body.get("category"), payments=payments, items=items, amount=total,
                 nets={pid: v for pid, v in nets.items()})


def body_of(expense: Expense) -> dict:
    """A stored expense as an itemised body (what a partial edit is merged over)."""
    return {"description": expense.Description, "date": expense.Date,
            "category": expense.Category,
            "payments": [{"participantId": p.ParticipantId, "amount": int(p.Amount)}
                         for p in expense.Payments],
            "items": [{"name": i.Name, "amount": int(i.Amount), "splitMode": i.SplitMode,
                       "splits": [{"participantId": s.ParticipantId, "value": int(s.Value)}
                                  for s in i.Splits]} for i in expense.Items]}


def merge(expense: Expense, patch: Mapping[str, Any]) -> dict:
    """The full body after a partial edit: fields sent replace, the rest stay as stored.

    The top-level shorthand in a patch replaces a single-item expense's only item (fields
    not sent are taken from that item); a multi-item expense needs ``items``."""
    body = body_of(expense)
    for name in ("description", "date", "category", "payments"):
        if name in patch:
            body[name] = patch[name]
    if patch.get("items") is not None:
        body["items"] = patch["items"]
        # Whatever else the patch says about money is judged exactly as on create: an
        # amount must equal the items' sum, and the shorthand cannot ride along.
        body.update({name: patch[name] for name in SHORTHAND if patch.get(name) is not None})
    elif any(patch.get(name) is not None for name in SHORTHAND):
        if len(body["items"]) != 1:
            raise Invalid("This expense has several items: send items to change them.",
                          details={"items": ["Required to edit a multi-item expense."]})
        only = body.pop("items")[0]
        body["amount"] = patch.get("amount", only["amount"])
        body["splitMode"] = patch.get("splitMode") or only["splitMode"]
        body["splits"] = patch.get("splits") or only["splits"]
    return body
