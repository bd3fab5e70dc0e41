"""Expense bodies: the shorthand and itemised forms, partial edits, exact split resolution.

Bodies use the API's field names (``payments``, ``items``, ``splitMode`` ...). Every form
becomes one :class:`Draft`: an :class:`~app.services.ledger.expense_body.ExpenseBody` (the
one definition of the fields) with each split's owed amount resolved by
``app.money.splits``, so the stored row, the reply and the balance deltas all come from the
same numbers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional

from app.errors import Invalid
from app.dates import is_calendar_date
from app.money import expense_forms
from app.money.expense_forms import ITEMS, SHORTHAND
from app.money import fx
from app.money.splits import net_effects, resolve_item
from app.services.ledger import foreign_currency
from app.services.ledger.expense_body import PLAIN, ExpenseBody
from models.groups import ItemMap, PaymentMap, SplitMap

MONEY_FIELDS = ("payments", "items") + SHORTHAND
# A body's currency and how it converts (app.services.ledger.foreign_currency).
CURRENCY_FIELDS = ("currency", "exchangeRate", "groupAmount")
# Every API field of an expense's body in a request (a template's expense part too).
REQUEST_FIELDS = tuple(dict.fromkeys(PLAIN + MONEY_FIELDS + CURRENCY_FIELDS))


@dataclass
class Draft:
    """A validated expense body with every owed amount resolved, and its date."""

    body: ExpenseBody
    date: str
    nets: Dict[str, int] = field(default_factory=dict)

    @property
    def description(self) -> str:
        return self.body.description

    @property
    def amount(self) -> int:
        return self.body.amount

    @property
    def participant_ids(self) -> set:
        return self.body.participant_ids


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


def build(body: Mapping[str, Any], group_currency: Optional[str] = None, *,
          defer_auto: bool = False) -> Draft:
    """Validate a full expense body and resolve every split exactly; a foreign-currency
    body converted at its rate gets every share's GroupAmount (app.services.ledger.foreign_currency).

    ``nets`` are what the body adds to its balances: group minor units for a converted or
    group-currency body, its own currency's for a kept one (balances.ledger_key)."""
    raw_items, shorthand = _raw_items(body)
    payments = [(p.get("participantId"), p.get("amount")) for p in body.get("payments") or []]
    items = []
    try:
        parsed = [(item.get("amount"), item.get("splitMode"),
                   [(s.get("participantId"), s.get("value")) for s in item.get("splits") or []])
                  for item in raw_items]
        net_effects(payments, parsed)  # validates every item and the payments
        for item, (amount, mode, splits) in zip(raw_items, parsed, strict=True):
            owed = resolve_item(amount, mode, splits)
            items.append(ItemMap(
                Name=item.get("name") or body.get("description") or "Item", Amount=amount,
                SplitMode=mode,
                Splits=[SplitMap(ParticipantId=pid, Value=value if value is not None else 0,
                                 Amount=share) for (pid, value), share in zip(splits, owed, strict=True)]))
    except Invalid as error:
        raise _invalid(error, shorthand) from None
    total = sum(item.Amount for item in items)
    if body.get("amount") is not None and not shorthand and body["amount"] != total:
        raise Invalid(f"amount is {body['amount']} but the items sum to {total}.",
                      details={"amount": ["Must equal the sum of the item amounts."]})
    description = body.get("description")
    if not isinstance(description, str) or not description.strip():
        raise Invalid("description is required.", details={"description": ["Required."]})
    day = check_date(body.get("date"))
    rate = foreign_currency.conversion(body, total, group_currency, day, defer_auto=defer_auto)
    stored_payments, items = foreign_currency.apportioned(
        [PaymentMap(ParticipantId=pid, Amount=amount) for pid, amount in payments], items,
        rate.group_amount)
    # Keyword construction: a field added to ExpenseBody fails here until it is built.
    made = ExpenseBody(description=description, category=body.get("category"), amount=total,
                       payments=stored_payments, items=items, currency=rate.currency,
                       exchange_rate=rate.exchange_rate, rate_source=rate.rate_source,
                       rate_date=rate.rate_date, group_amount=rate.group_amount)
    from app.services.ledger.balances import body_nets

    return Draft(body=made, date=day, nets=body_nets(made, group_currency))


def merge(stored: ExpenseBody, date: str, patch: Mapping[str, Any]) -> dict:
    """The full body after a partial edit of ``stored`` (dated ``date``): fields sent
    replace, the rest stay as stored.

    The top-level shorthand in a patch replaces a single-item expense's only item (fields
    not sent are taken from that item); a multi-item expense needs ``items``."""
    body = {**stored.to_request(), "date": date}
    for name in PLAIN + ("date",):
        if name in patch:
            body[name] = patch[name]
    _merge_rate(body, patch)
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


def _merge_rate(body: dict, patch: Mapping[str, Any]) -> None:
    """An edit keeps the recorded rate unless it sends a new one (or another currency).

    The recorded groupAmount stands only while nothing it was computed from changes; a new
    rate, amount or split recomputes it from the (kept or new) rate."""
    recorded = ("exchangeRate", "rateSource", "rateDate", "groupAmount")
    if "currency" in patch and patch["currency"] != body.get("currency"):
        for name in recorded:
            body.pop(name, None)
    if "currency" in patch:
        body["currency"] = patch["currency"]
    if "exchangeRate" in patch or "groupAmount" in patch:
        for name in recorded:
            body.pop(name, None)
        body.update({name: patch[name] for name in ("exchangeRate", "groupAmount")
                     if name in patch})
    elif any(patch.get(name) is not None for name in ("payments",) + MONEY_FIELDS):
        body.pop("groupAmount", None)


def occurrence_body(template_body: ExpenseBody, group_currency: str, day: str) -> ExpenseBody:
    """What one occurrence of a template records: the template's body, converted at the
    reference rate of ``day`` when the template says ``"auto"`` (RATE_UNAVAILABLE else)."""
    if template_body.exchange_rate != fx.AUTO:
        return template_body
    return build({**template_body.to_request(), "date": day}, group_currency).body
