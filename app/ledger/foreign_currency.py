"""A foreign-currency row: converted at a recorded rate, or kept in its own currency.

A body in the group's currency records no rate. A body in another currency that sends
``exchangeRate`` (a decimal string, or ``"auto"``: the ECB reference rate of its date) or
``groupAmount`` (what was really charged; the rate is derived) is converted: its
``groupAmount`` is ``round_half_even(amount * rate)`` unless given, and its payments and
owed shares are each apportioned from it (app.money.fx), so both sum to it. A body with
neither is kept: it counts in its own currency's balances."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, List, Mapping, NamedTuple, Optional, Protocol

from app.errors import Invalid
from app.money import fx
from app.money.currencies import CODES
from app.money.refusals import MoneyInvalid, Quoted
from models.groups import RATE_CLIENT as CLIENT
from models.groups import RATE_DERIVED as DERIVED
from models.groups import RATE_ECB as ECB
from app.money.extras import apportion_signed, participant_order
from models.groups import ExtraMap, ItemMap, PaymentMap, SplitMap


class Conversion(NamedTuple):
    currency: str
    exchange_rate: Optional[str] = None
    rate_source: Optional[str] = None
    rate_date: Optional[str] = None
    group_amount: Optional[int] = None


class SentRate(Protocol):
    """The rate fields a body sent (an ExpenseInput; a Conversion for a settlement)."""

    currency: Optional[str]
    exchange_rate: Optional[str]
    group_amount: Any
    rate_source: Optional[str]
    rate_date: Optional[str]


def currency_of(code: Optional[str], group_currency: str) -> str:
    """The code sent (else the group's), or Invalid."""
    currency = code or group_currency
    if currency not in CODES:
        raise Invalid("currency must be an ISO 4217 currency code such as EUR.",
                      details={"currency": ["Must be an ISO 4217 currency code such as EUR."]})
    return currency


def _auto_rate(currency: str, group_currency: str, day: str):
    from app.currencies.rates import reference_rate

    return reference_rate(currency, group_currency, day)


def convert(sent: SentRate, amount: int, group_currency: Optional[str], day: str, *,
               defer_auto: bool = False) -> Conversion:
    """The rate fields of a body of ``amount`` minor units dated ``day``.

    ``sent`` carries ``rate_source``/``rate_date`` only when a merge passes a recorded
    rate on (the request schemas refuse them). ``defer_auto`` (a recurring template)
    records ``"auto"`` itself: each occurrence converts at its own date."""
    if group_currency is None and not sent.currency:
        return Conversion(None)  # a body judged on its own (tests, drafts): no conversion
    currency = currency_of(sent.currency, group_currency)
    sent_rate, sent_total = sent.exchange_rate, sent.group_amount
    if currency == group_currency:
        if sent_rate is not None or sent_total is not None:
            raise Invalid("exchangeRate and groupAmount are for a currency other than the "
                          "group's.", details={"exchangeRate": ["Not for the group currency."]})
        return Conversion(currency)
    if sent_rate is None and sent_total is None:
        return Conversion(currency)  # kept
    if sent_total is not None:
        sent_total = fx.check_group_amount(sent_total)
    if sent_rate == fx.AUTO:
        if defer_auto:
            if sent_total is not None:
                raise Invalid("A template converting at each occurrence's rate cannot fix "
                              "groupAmount.", details={"groupAmount": ["Not with \"auto\"."]})
            return Conversion(currency, fx.AUTO)
        rate, used = _auto_rate(currency, group_currency, day)
        source, rate_date = ECB, used
    elif sent_rate is not None:
        rate = fx.parse_rate(sent_rate)
        source = sent.rate_source or CLIENT
        rate_date = sent.rate_date if sent.rate_source else None
    else:
        rate = fx.derive_rate(amount, sent_total, currency, group_currency)
        return Conversion(currency, fx.rate_text(rate), DERIVED, None, sent_total)
    total = fx.converted_total(amount, rate, currency, group_currency)
    if sent_total is not None and sent_total != total and not sent.rate_source:
        raise MoneyInvalid(f"groupAmount {{sent}} disagrees with exchangeRate "
                           f"{fx.rate_text(rate)}: {{amount}} converts to {{total}}.",
                           {"sent": Quoted(sent_total, True), "amount": Quoted(amount),
                            "total": Quoted(total, True)},
                           detail_templates={"groupAmount": ["At this rate it is {total}."]},
                           currency=currency, group_currency=group_currency)
    return Conversion(currency, fx.rate_text(rate), source, rate_date,
                      sent_total if sent_total is not None else total)


def apportioned(payments: List[PaymentMap], items: List[ItemMap],
                group_amount: Optional[int], extras: Optional[List[ExtraMap]] = None) -> tuple:
    """(payments, items, extras) with each share's GroupAmount (an extra's GroupShares), or
    without any (group_amount None)."""
    if group_amount is None:
        return payments, items, extras
    paid = fx.apportion_amounts(group_amount, [int(p.Amount) for p in payments])
    new_payments = [PaymentMap(ParticipantId=p.ParticipantId, Amount=int(p.Amount),
                               GroupAmount=g) for p, g in zip(payments, paid, strict=True)]
    shares = [s for item in items for s in item.Splits]
    if extras:
        owed_list, extra_groups = _owed_with_extras(group_amount, items, extras)
    else:
        owed_list, extra_groups = fx.apportion_amounts(
            group_amount, [int(s.Amount) for s in shares]), None
    owed = iter(owed_list)
    new_items = [ItemMap(Name=i.Name, Amount=int(i.Amount), SplitMode=i.SplitMode,
                         Splits=[SplitMap(ParticipantId=s.ParticipantId, Value=int(s.Value),
                                          Amount=int(s.Amount), GroupAmount=next(owed))
                                 for s in i.Splits]) for i in items]
    new_extras = None if not extras else [
        ExtraMap(Name=e.Name, Amount=int(e.Amount), Shares=[int(v) for v in e.Shares],
                 GroupShares=groups) for e, groups in zip(extras, extra_groups, strict=True)]
    return new_payments, new_items, new_extras


def _owed_with_extras(group_amount: int, items: List[ItemMap],
                      extras: List[ExtraMap]) -> tuple:
    """Item and extra shares apportioned together from ``group_amount``: (each item split's
    group share in item order, each extra's group shares in participant order).

    The entries are laid out participant by participant (each one's item shares, then their
    extra shares), so signed cumulative rounding gives every participant a group total that
    is never below 0 when their own total is not (app.money.extras.apportion_signed)."""
    order = participant_order([(s.ParticipantId, 0) for s in item.Splits] for item in items)
    # (kind, position, amount) per entry: ("item", (i, j)) or ("extra", (e, k)).
    entries = []
    for k, pid in enumerate(order):
        for i, item in enumerate(items):
            for j, split in enumerate(item.Splits):
                if split.ParticipantId == pid:
                    entries.append((("item", i, j), int(split.Amount)))
        for e, extra in enumerate(extras):
            entries.append((("extra", e, k), int(extra.Shares[k])))
    parts = apportion_signed(group_amount, [amount for _, amount in entries])
    placed = {where: part for (where, _), part in zip(entries, parts, strict=True)}
    owed = [placed[("item", i, j)] for i, item in enumerate(items)
            for j in range(len(item.Splits))]
    groups = [[placed[("extra", e, k)] for k in range(len(order))] for e in range(len(extras))]
    return owed, groups


def conversion(body: Mapping[str, Any], amount: int, group_currency: Optional[str],
               day: str) -> Conversion:
    """A settlement's rate fields, from its API-named body: the same rules as an expense's
    (:func:`convert`). Settlements still hand over a dict; expenses hand their input."""
    return convert(Conversion(body.get("currency"), body.get("exchangeRate"),
                              body.get("rateSource"), body.get("rateDate"),
                              body.get("groupAmount")), amount, group_currency, day)


def settlement_conversion(body: Mapping[str, Any], amount: int, group_currency: str,
                          day: str) -> Conversion:
    """A settlement's rate fields: the same rules as an expense's."""
    return conversion(body, amount, group_currency, day)


def rate_of(text: str) -> Decimal:
    return fx.parse_rate(text)
