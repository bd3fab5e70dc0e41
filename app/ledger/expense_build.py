"""The ledger's door: an ExpenseInput becomes a Draft, or a refusal.

Every door hands over an :class:`~app.ledger.expense_input.ExpenseInput`. :func:`build` is
the only judge of the money rules and the one place an input's fields become the stored
body's: either form (items, or the one-item shorthand) becomes one :class:`Draft`, an
:class:`~app.ledger.expense_body.ExpenseBody` (the one definition of what is stored) with each
split's owed amount resolved by ``app.money.splits``, so the stored row, the reply and the
balance deltas all come from the same numbers. A money refusal is an
``app.money.refusals.MoneyInvalid``: its amounts and currency are kept as numbers, so each
door says them in its own units. Edits merge typed values (:func:`merge`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence

from app.errors import Invalid
from app.money import extras as extra_money
from app.money import fx
from app.money.refusals import MoneyInvalid, Quoted
from app.money.splits import INCOME, item_rounding, net_effects, resolve_item
from app.ledger import foreign_currency
from app.ledger.expense_body import AS_SENT, ExpenseBody
from app.ledger.expense_input import (BOTH, BOTH_DETAIL, ITEMS, NEITHER, NEITHER_DETAIL,
                                      SHORTHAND, ExpenseInput, ExtraInput, ItemInput,
                                      PaymentInput,
                                      SplitInput, check_date, missing, mixed)
from models.groups import ExtraMap, ItemMap, PaymentMap, SplitMap




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
    if isinstance(error, MoneyInvalid):
        return error.reshaped(name)
    return Invalid(error.message, details={name: [error.message]})


def _forms(expense: ExpenseInput, extra_total: int) -> tuple:
    """(items, used_shorthand) from either form; both or neither is Invalid. The
    shorthand's ``amount`` is the total: its one item is the amount less the extras."""
    sent = {name for name in (ITEMS, *SHORTHAND) if getattr(expense, name) is not None}
    if mixed(sent):
        raise Invalid(BOTH, details={ITEMS: [BOTH_DETAIL]})
    if ITEMS in sent:
        return list(expense.items), False
    if missing(sent):
        raise Invalid(NEITHER, details={ITEMS: [NEITHER_DETAIL]})
    amount = expense.amount
    if extra_total and isinstance(amount, int) and not isinstance(amount, bool):
        if amount - extra_total < 1:
            raise MoneyInvalid("amount {amount} leaves nothing for the item once the extras "
                               "({extras}) are taken off.",
                               {"amount": Quoted(amount), "extras": Quoted(extra_total)},
                               detail_templates={"amount": ["Must exceed the extras' sum."]})
        amount -= extra_total
    return [ItemInput(expense.description or "Item", amount, expense.split_mode,
                      expense.splits or ())], True


def _extras(items: list, sent: list) -> Optional[list]:
    """The stored extras: each one's shares of the item subtotals (app.money.extras),
    aligned with the participants' first appearance; None when there are none."""
    if not sent:
        return None
    item_shares = [[(s.ParticipantId, int(s.Amount)) for s in item.Splits] for item in items]
    order = extra_money.participant_order(item_shares)
    subtotals = extra_money.item_subtotals(item_shares, order)
    shares = extra_money.share_extras(subtotals, [amount for _, amount in sent])
    for pid, owed in extra_money.below_zero(order, subtotals, shares):
        raise MoneyInvalid(f"With the extras participant {pid} would owe {{owed}}: a "
                           "participant's item shares plus extra shares must not be below 0.",
                           {"owed": Quoted(owed)}, field="extras",
                           extra={"participantId": pid})
    return [ExtraMap(Name=name, Amount=amount, Shares=list(part))
            for (name, amount), part in zip(sent, shares, strict=True)]


def build(expense: ExpenseInput, group_currency: Optional[str] = None,
          *, defer_auto: bool = False, fair: Optional[Mapping[str, Fraction]] = None,
          keep: Sequence[Any] = ()) -> Draft:
    """Validate a whole expense and resolve every split exactly; a foreign-currency body
    converted at its rate gets every share's GroupAmount (app.ledger.foreign_currency).

    ``nets`` are what the body adds to its balances: group minor units for a converted or
    group-currency body, its own currency's for a kept one (balances.ledger_key).

    ``fair`` (a FAIR group: participantId -> cumulative rounding r in the body's currency,
    app.ledger.rounding) hands each item's leftover units out by r, item after item; ``keep``
    (an edit's stored items) keeps the owed amounts of an item sent again unchanged, so an
    edit of a FAIR group's description does not move a unit because r moved since."""
    try:
        return _build(expense, group_currency, defer_auto, fair, keep)
    except MoneyInvalid as error:
        raise error.priced(expense.currency or group_currency, group_currency) from None


def _kept_owed(keep: Sequence[Any], amount: int, mode: str,
               splits: list) -> Optional[List[int]]:
    """The stored owed amounts of an item sent again exactly as stored, else None."""
    for item in keep:
        if (int(item.Amount), item.SplitMode,
                [(s.ParticipantId, int(s.Value or 0)) for s in item.Splits]) == \
                (amount, mode, [(pid, value if value is not None else 0)
                                for pid, value in splits]):
            return [int(s.Amount) for s in item.Splits]
    return None


def _build(expense: ExpenseInput, group_currency: Optional[str], defer_auto: bool,
           fair: Optional[Mapping[str, Fraction]] = None, keep: Sequence[Any] = ()) -> Draft:
    try:
        sent_extras = extra_money.check_extras([(e.name, e.amount)
                                                for e in expense.extras or ()])
    except Invalid as error:
        raise _invalid(error, False) from None
    extra_total = sum(amount for _, amount in sent_extras)
    raw_items, shorthand = _forms(expense, extra_total)
    payments = [(p.participant_id, p.amount) for p in expense.payments or ()]
    items = []
    running = None if fair is None else dict(fair)
    try:
        parsed = [(item.amount, item.split_mode,
                   [(s.participant_id, s.value) for s in item.splits]) for item in raw_items]
        # Validates every item, the payments against the items plus the extras, the kind.
        net_effects(payments, parsed, extra_total, expense.kind)
        for item, (amount, mode, splits) in zip(raw_items, parsed, strict=True):
            owed = None if running is None else _kept_owed(keep, amount, mode, splits)
            if owed is None:
                owed = resolve_item(amount, mode, splits, running)
            if running is not None:  # the next item's leftovers see this item's rounding
                for pid, delta in item_rounding(amount, mode, splits, owed).items():
                    running[pid] = running.get(pid, Fraction(0)) + delta
            items.append(ItemMap(
                Name=item.name or expense.description or "Item", Amount=amount,
                SplitMode=mode,
                Splits=[SplitMap(ParticipantId=pid, Value=value if value is not None else 0,
                                 Amount=share) for (pid, value), share in zip(splits, owed, strict=True)]))
        extras = _extras(items, sent_extras)
    except Invalid as error:
        raise _invalid(error, shorthand) from None
    total = sum(item.Amount for item in items) + extra_total
    if expense.amount is not None and not shorthand and expense.amount != total:
        raise MoneyInvalid("amount is {amount} but the items sum to {total}.",
                           {"amount": Quoted(expense.amount), "total": Quoted(total)},
                           detail_templates={"amount": ["Must equal the sum of the item "
                                                        "amounts."]})
    description = expense.description
    if not isinstance(description, str) or not description.strip():
        raise Invalid("description is required.", details={"description": ["Required."]})
    day = check_date(expense.date)
    rate = foreign_currency.convert(expense, total, group_currency, day, defer_auto=defer_auto)
    stored_payments, items, extras = foreign_currency.apportioned(
        [PaymentMap(ParticipantId=pid, Amount=amount) for pid, amount in payments], items,
        rate.group_amount, extras)
    # Keyword construction: a field the ledger computes (expense_body.BUILT) fails here until
    # it is built; every other field (AS_SENT) is the input's, as sent.
    made = ExpenseBody(description=description, amount=total,
                       payments=stored_payments, items=items, currency=rate.currency,
                       exchange_rate=rate.exchange_rate, rate_source=rate.rate_source,
                       rate_date=rate.rate_date, group_amount=rate.group_amount,
                       kind=INCOME if expense.kind == INCOME else None, extras=extras,
                       **{name: getattr(expense, name) for name in AS_SENT})
    from app.ledger.balances import body_nets

    return Draft(body=made, date=day, nets=body_nets(made, group_currency))


def input_of(body: ExpenseBody, date: Optional[str]) -> ExpenseInput:
    """A stored body (dated ``date``) as the input it would be built from, with its recorded
    conversion (what an edit is merged over)."""
    return ExpenseInput(
        description=body.description, date=date, **{name: getattr(body, name) for name in AS_SENT},
        payments=tuple(PaymentInput(p.ParticipantId, int(p.Amount)) for p in body.payments),
        items=tuple(ItemInput(i.Name, int(i.Amount), i.SplitMode,
                              tuple(SplitInput(s.ParticipantId, int(s.Value)) for s in i.Splits))
                    for i in body.items),
        extras=tuple(ExtraInput(e.Name, int(e.Amount)) for e in body.extras) if body.extras
        else None,
        currency=body.currency, exchange_rate=body.exchange_rate, rate_source=body.rate_source,
        rate_date=body.rate_date, group_amount=body.group_amount, kind=body.kind)


# Fields a partial edit replaces as sent; the amount follows from the items, and ``items``
# (with the shorthand) and the rate are merged below.
PLAIN = ("description", *AS_SENT, "payments", "date", "kind")
MONEY = ("payments", "items", "amount", "split_mode", "splits", "extras")
RECORDED = ("exchange_rate", "rate_source", "rate_date", "group_amount")


def merge(stored: ExpenseBody, date: str, patch: ExpenseInput) -> ExpenseInput:
    """The whole input after a partial edit of ``stored`` (dated ``date``): fields sent
    replace, the rest stay as stored.

    The top-level shorthand in a patch replaces a single-item expense's only item (fields
    not sent are taken from that item); a multi-item expense needs ``items``."""
    base = input_of(stored, date)
    changes: Dict[str, Any] = {name: getattr(patch, name) for name in PLAIN
                               if name in patch.sent}
    changes.update(_merged_rate(base, patch))
    if "extras" in patch.sent:
        changes["extras"] = patch.extras  # replaced whole; null or [] clears them
    shorthand = {name: getattr(patch, name) for name in SHORTHAND
                 if getattr(patch, name) is not None}
    if patch.items is not None:
        # Whatever else the patch says about money is judged exactly as on create: an
        # amount must equal the items' sum, and the shorthand cannot ride along.
        changes.update(items=patch.items, **shorthand)
    elif shorthand:
        if len(base.items) != 1:
            raise Invalid("This expense has several items: send items to change them.",
                          details={"items": ["Required to edit a multi-item expense."]})
        only = base.items[0]
        # The shorthand's amount is the total: with no amount sent the item keeps its own,
        # so the total is it plus the extras the edit leaves.
        extras = changes.get("extras", base.extras) or ()
        kept_total = only.amount + sum(e.amount for e in extras
                                       if isinstance(e.amount, int))
        changes.update(items=None, amount=shorthand.get("amount", kept_total),
                       split_mode=shorthand.get("split_mode") or only.split_mode,
                       splits=shorthand.get("splits") or only.splits)
    return base._replace(**changes)


def _merged_rate(base: ExpenseInput, patch: ExpenseInput) -> dict:
    """An edit keeps the recorded rate unless it sends a new one (or another currency).

    The recorded groupAmount stands only while nothing it was computed from changes; a new
    rate, amount or split recomputes it from the (kept or new) rate."""
    changes: Dict[str, Any] = {}
    if "currency" in patch.sent:
        if patch.currency != base.currency:
            changes.update(dict.fromkeys(RECORDED))
        changes["currency"] = patch.currency
    if "exchange_rate" in patch.sent or "group_amount" in patch.sent:
        changes.update(dict.fromkeys(RECORDED))
        changes.update({name: getattr(patch, name) for name in ("exchange_rate", "group_amount")
                        if name in patch.sent})
    elif any(getattr(patch, name) is not None for name in MONEY):
        changes["group_amount"] = None
    return changes


def occurrence_body(template_body: ExpenseBody, group_currency: str, day: str) -> ExpenseBody:
    """What one occurrence of a template records: the template's body, converted at the
    reference rate of ``day`` when the template says ``"auto"`` (RATE_UNAVAILABLE else)."""
    if template_body.exchange_rate != fx.AUTO:
        return template_body
    return build(input_of(template_body, day), group_currency).body
