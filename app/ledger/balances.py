"""Materialised group nets (``BALANCE#v1``): deltas inside money writes, and reads.

A net is paid - owed (+ settlements); positive means the participant is owed money. Every
expense and settlement create, edit and delete adds its old-to-new deltas, its activity
count and one BalanceRevision to the balance row in the same TransactWrite as the change,
so reading balances is one GetItem however many expenses the group has.

Nets are keyed by *ledger key*: the participantId for the group's main currency (converted
rows count there at their GroupAmounts), ``<CUR>#<participantId>`` for a kept row's own
currency. The balance row stores each as ``Net_<ledger key>``, so every currency's nets are
on the same row and still come back from one read.

The pairwise view (``?view=pairwise``) is materialised the same way: every money write also
adds its rows' netted pairwise debts (app.money.pairwise) as ``Pair_<pair key>`` numbers,
``<low>#<high>`` in the main currency and ``<CUR>#<low>#<high>`` in a kept one, the value
being what the lower id owes the higher. A conversion clears its currency's pairs (it
records them, ``KeptPairs``, so an undo restores them) and adds the plan of its converted
nets in the main currency: converting is already a settling step, and each converted pair
would not round to the apportioned nets."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

from pynamodb.expressions.operand import Path

from app.money import pairwise
from app.money.households import Household, Member, unit_plan
from app.money.households import households as household_rows
from app.money.settle import settle_up
from app.money.splits import kind_sign
from app.core import changelog, request_reads
from app.core.access import Access
from app.core.transactions import Rebuilt, Transaction
from app.errors import DomainError, concurrent_update
from app.ledger import households
from app.ledger.expense_body import ExpenseBody
from app.money.extras import extra_shares
from models.groups import (BALANCE, CONVERSION_PREFIX, EXPENSE_PREFIX, Balance, Conversion,
                           Expense, Group, Participant, Settlement, balance_row)

Nets = Dict[str, int]
Pairs = Dict[str, int]  # pair key -> what the pair's lower id owes the higher
FORMER_PARTICIPANT = "Former participant"
BALANCES_PREFETCH = (BALANCE,)
KEPT_SEPARATOR = "#"


def ledger_key(participant_id: str, kept_currency: Optional[str] = None) -> str:
    """A participant's key in the main currency's nets, or in a kept currency's."""
    return f"{kept_currency}{KEPT_SEPARATOR}{participant_id}" if kept_currency else participant_id


def split_nets(nets: Mapping[str, int]) -> Tuple[Nets, Dict[str, Nets]]:
    """(main nets, {currency: nets}) from ledger-keyed nets."""
    main: Nets = {}
    other: Dict[str, Nets] = {}
    for key, value in nets.items():
        currency, _, pid = key.rpartition(KEPT_SEPARATOR)
        (other.setdefault(currency, {}) if currency else main)[pid] = value
    return main, other


def body_nets(body: ExpenseBody, main_currency: str) -> Nets:
    """paid - owed per ledger key of an expense body, from its resolved split amounts:
    GroupAmounts for a converted body, its own amounts otherwise; an INCOME's negated
    (its payers received, its shares own)."""
    converted = body.converted
    sign = kind_sign(body.kind)
    kept = None if converted or body.currency in (None, main_currency) else body.currency
    nets: Nets = {}

    def add(pid: str, value) -> None:
        key = ledger_key(pid, kept)
        nets[key] = nets.get(key, 0) + sign * int(value)

    for payment in body.payments:
        add(payment.ParticipantId, payment.GroupAmount if converted else payment.Amount)
    for item in body.items:
        for split in item.Splits:
            add(split.ParticipantId, -int(split.GroupAmount if converted else split.Amount))
    for _, shares in extra_shares(body):
        for share in shares:
            add(share.participant_id, -(share.group_amount if converted else share.amount))
    return nets


def expense_nets(expense: Any, main_currency: str) -> Nets:
    """paid - owed per ledger key of a stored expense (or a body's ``as_row()``)."""
    return body_nets(ExpenseBody.from_row(expense), main_currency)


def expense_participants(expense: Expense) -> set:
    """Every participant a stored expense names (payers and split members)."""
    ids = {payment.ParticipantId for payment in expense.Payments or []}
    for item in expense.Items or []:
        ids.update(split.ParticipantId for split in item.Splits or [])
    return ids


def settlement_nets(payer_id: str, payee_id: str, amount: int,
                    kept_currency: Optional[str] = None) -> Nets:
    """Paying someone back raises the payer's net and lowers the payee's by the same amount."""
    return {ledger_key(payer_id, kept_currency): int(amount),
            ledger_key(payee_id, kept_currency): -int(amount)}


def stored_settlement_nets(row: Any, main_currency: str, *, payer_id: Optional[str] = None,
                           payee_id: Optional[str] = None) -> Nets:
    """A stored settlement's nets (optionally between other participants): its GroupAmount
    in the main currency when converted, its Amount in its own currency when kept."""
    payer, payee = payer_id or row.PayerId, payee_id or row.PayeeId
    if getattr(row, "GroupAmount", None) is not None:
        return settlement_nets(payer, payee, int(row.GroupAmount))
    currency = getattr(row, "Currency", None)
    kept = currency if currency and currency != main_currency else None
    return settlement_nets(payer, payee, int(row.Amount), kept)


def conversion_nets(row: Any) -> Nets:
    """A CONVERSION row moves every kept net of its currency into the main one."""
    nets = {ledger_key(pid, row.Currency): -int(v) for pid, v in row.KeptNets.as_dict().items()}
    for pid, value in row.GroupNets.as_dict().items():
        nets[pid] = nets.get(pid, 0) + int(value)
    return {key: value for key, value in nets.items() if value}


def pair_key(low: str, high: str, kept_currency: Optional[str] = None) -> str:
    """The balance-row key of a canonical pair (low < high), in a currency section."""
    return ledger_key(f"{low}{KEPT_SEPARATOR}{high}", kept_currency)


def split_pairs(pairs: Mapping[str, int]) -> Tuple[Dict[tuple, int], Dict[str, Dict[tuple, int]]]:
    """({(low, high): owed} of the main currency, {currency: {(low, high): owed}})."""
    main: Dict[tuple, int] = {}
    other: Dict[str, Dict[tuple, int]] = {}
    for key, value in pairs.items():
        parts = key.split(KEPT_SEPARATOR)
        section = main if len(parts) == 2 else other.setdefault(parts[0], {})
        section[(parts[-2], parts[-1])] = value
    return main, other


def _keyed(netted: Mapping[tuple, int], kept_currency: Optional[str]) -> Pairs:
    return {pair_key(low, high, kept_currency): value for (low, high), value in netted.items()}


def row_kind(row: Any) -> str:
    # An INCOME row (app.ledger.expense_body's ``kind``) reverses every debt.
    return getattr(row, "kind", None) or getattr(row, "Kind", None) or pairwise.EXPENSE


def body_pairs(body: ExpenseBody, main_currency: str) -> Pairs:
    """An expense body's netted pairwise debts by pair key, from the same amounts as
    :func:`body_nets` (GroupAmounts for a converted body)."""
    converted = body.converted
    kept = None if converted or body.currency in (None, main_currency) else body.currency
    payments = [(p.ParticipantId, int(p.GroupAmount if converted else p.Amount))
                for p in body.payments]
    owed = [(s.ParticipantId, int(s.GroupAmount if converted else s.Amount))
            for item in body.items for s in item.Splits]
    # A share's owed includes its extra shares (tax, tip, a discount's negative share):
    # row_debts sums each participant's entries first.
    owed += [(share.participant_id, int(share.group_amount if converted else share.amount))
             for _, shares in extra_shares(body) for share in shares]
    return _keyed(pairwise.net_pairs(pairwise.row_debts(payments, owed, row_kind(body))), kept)


def expense_pairs(expense: Any, main_currency: str) -> Pairs:
    """A stored expense's (or a body's ``as_row()``) netted pairwise debts by pair key."""
    return body_pairs(ExpenseBody.from_row(expense), main_currency)


def stored_settlement_pairs(row: Any, main_currency: str, *, payer_id: Optional[str] = None,
                            payee_id: Optional[str] = None) -> Pairs:
    """A stored settlement's pairwise debt (the payee owes the payer), in the section its
    nets go to (:func:`stored_settlement_nets`)."""
    payer, payee = payer_id or row.PayerId, payee_id or row.PayeeId
    if getattr(row, "GroupAmount", None) is not None:
        amount, kept = int(row.GroupAmount), None
    else:
        currency = getattr(row, "Currency", None)
        amount = int(row.Amount)
        kept = currency if currency and currency != main_currency else None
    return _keyed(pairwise.net_pairs(pairwise.settlement_debts(payer, payee, amount)), kept)


def kept_pairs_record(pairs: Mapping[str, int], currency: str) -> Dict[str, int]:
    """A conversion's ``KeptPairs``: the currency's pairs, keyed ``<low>#<high>``."""
    return {f"{low}{KEPT_SEPARATOR}{high}": value
            for (low, high), value in split_pairs(pairs)[1].get(currency, {}).items() if value}


def conversion_pairs(row: Any) -> Pairs:
    """A conversion clears its currency's recorded pairs and adds its converted nets' plan."""
    recorded = getattr(row, "KeptPairs", None)
    if recorded is not None:
        cleared = {tuple(key.split(KEPT_SEPARATOR)): int(value)
                   for key, value in recorded.as_dict().items()}
    else:  # no record: the kept nets as a plan
        kept = {pid: int(v) for pid, v in row.KeptNets.as_dict().items()}
        cleared = pairwise.net_pairs({(a, b): x for a, b, x in settle_up(kept)})
    group = {pid: int(v) for pid, v in row.GroupNets.as_dict().items()}
    added = pairwise.net_pairs({(a, b): x for a, b, x in settle_up(group)})
    out = {key: -value for key, value in _keyed(cleared, row.Currency).items()}
    out.update(_keyed(added, None))
    return {key: value for key, value in out.items() if value}


def conversion_participants(row: Any) -> set:
    """Every participant a CONVERSION row names (its kept and converted nets)."""
    return set(row.KeptNets.as_dict()) | set(row.GroupNets.as_dict())


def deltas(old: Mapping[str, int], new: Mapping[str, int]) -> Nets:
    """new - old per participant, zeros dropped."""
    change = {pid: new.get(pid, 0) - old.get(pid, 0) for pid in set(old) | set(new)}
    return {pid: value for pid, value in sorted(change.items()) if value}


def row_of(access: Access) -> Optional[dict]:
    """The balance row as this request's money writes know it (``Access.written``): as the
    last committed one left it, else as the access check read it (``BALANCES_PREFETCH``, no
    call), else one GetItem. A money write encodes its change against it
    (models.groups.balance_row); a stale one only costs a resend, never a wrong sum."""
    if BALANCE not in access.written:
        access.written[BALANCE] = (access.prefetched[BALANCE] if BALANCE in access.prefetched
                                   else Balance.fetch_raw(access.group_id))
    return access.written[BALANCE]


def against(access: Access) -> dict:
    """add_to_balance's ``row`` and ``held`` for a write by ``access``: a transfer's next
    batch or a request's second write encodes against the seats the first left, unread."""
    return {"row": row_of(access), "held": access.written}


def add_to_balance(tx: Transaction, group_id: str, delta: Mapping[str, int], *,
                   row: Optional[dict], expenses: int = 0, settlements: int = 0,
                   revision: Optional[int] = None, on_fail=None,
                   pairs: Optional[Mapping[str, int]] = None,
                   rounding: Optional[Mapping[str, Optional[str]]] = None,
                   held: Optional[dict] = None) -> None:
    """Add net deltas (by ledger key), pairwise deltas (by pair key), activity counts and one
    revision to the balance row inside ``tx``, and set a FAIR group's rounding (ledger key ->
    exact fraction text, None: gone), encoded against ``row`` (the balance row as read:
    :func:`row_of`). ``revision``: the row must still be at the revision read (a FAIR
    write's rounding, a conversion), else ``on_fail``. Seating a new participant, or moving
    an old row's attributes, is conditioned on the row read; if it moved, the update is
    encoded again from the row as it is and resent (app.core.transactions.Rebuilt).
    ``held``: where the writer keeps the row it knows (``{BALANCE: raw}``); once committed it
    holds the seats this write left, or nothing (read again) after an old row's move."""
    change = {"nets": dict(delta), "pairs": dict(pairs or {}), "rounding": dict(rounding or {})}
    counts = [Balance.BalanceRevision.add(1), Path("EntityType").set(Path("EntityType") | "BALANCE")]
    if expenses:
        counts.append(Balance.ExpenseCount.add(expenses))
    if settlements:
        counts.append(Balance.SettlementCount.add(settlements))
    item = Balance(*Balance.key(group_id))
    last: list = []

    def encoded(current: Optional[dict]) -> tuple:
        written = balance_row.encode(current, **change)
        last[:] = [written]
        condition = written.condition
        if revision is not None:
            pinned = Balance.BalanceRevision == revision
            condition = pinned if condition is None else condition & pinned
        return written.actions + counts, condition

    def judged(old: Optional[dict]):
        if revision is not None and Balance.revision_of(old) != revision:
            if on_fail is None:
                return concurrent_update()
            return on_fail if isinstance(on_fail, DomainError) else on_fail(old)
        def rebuild(again: Transaction) -> None:
            actions, condition = encoded(old)
            again.rework(item, actions, condition=condition)
        return Rebuilt(rebuild)

    def keep() -> None:
        if last[0].after is None:
            held.pop(BALANCE, None)
        else:
            held[BALANCE] = last[0].after

    actions, condition = encoded(row)
    tx.update(item, actions, condition=condition, on_fail=judged)
    if held is not None:
        tx.after_commit(keep)


@dataclass(frozen=True)
class Recount:
    """Nets, pairwise debts and counts recomputed from every expense and settlement row of a
    group."""

    nets: Nets
    expense_count: int
    settlement_count: int
    pairs: Pairs = field(default_factory=dict)


def recompute(group_id: str, main_currency: Optional[str] = None,
              page_size: Optional[int] = None) -> Recount:
    """Fold every expense head, settlement and conversion of the group (consistent reads).

    ``page_size`` bounds each Query page (an import's check of 20,000 rows keeps every call
    short on the embedded engine, whose cost per page grows with the page). Conversions
    fold after the rest: each clears its currency's pairs as they stood when it was made."""
    if main_currency is None:
        main_currency = Group.get(*Group.key(group_id), consistent_read=True).Currency
    nets: Nets = {}
    pairs: Pairs = {}
    expense_count = settlement_count = 0

    def fold(total: Dict[str, int], delta: Mapping[str, int]) -> None:
        for key, value in delta.items():
            total[key] = total.get(key, 0) + value

    # The subclass query filters on EntityType, so comment rows are read but not returned.
    for expense in Expense.query(group_id, Expense.SK.startswith(EXPENSE_PREFIX),
                                 consistent_read=True, page_size=page_size):
        expense_count += 1
        fold(nets, expense_nets(expense, main_currency))
        fold(pairs, expense_pairs(expense, main_currency))
    for settlement in Settlement.newest_first(group_id, consistent_read=True,
                                              page_size=page_size):
        settlement_count += 1
        fold(nets, stored_settlement_nets(settlement, main_currency))
        fold(pairs, stored_settlement_pairs(settlement, main_currency))
    for row in Conversion.query(group_id, Conversion.SK.startswith(CONVERSION_PREFIX),
                                consistent_read=True, page_size=page_size):
        fold(nets, conversion_nets(row))
        fold(pairs, conversion_pairs(row))
    return Recount({key: v for key, v in sorted(nets.items()) if v}, expense_count,
                   settlement_count, {key: v for key, v in sorted(pairs.items()) if v})


def served_nets(raw: Optional[dict]) -> Tuple[Nets, int]:
    """(non-zero ledger-keyed nets, revision) from a fetched balance row.

    Every group is created with its initialised balance row (groups.create writes it in the
    same transaction), and the service was never deployed with rows lacking one, so there
    is nothing to backfill: an absent row (a group being deleted) has no nets."""
    if not raw:
        return {}, 0
    return ({key: v for key, v in Balance.nets_of(raw).items() if v},
            Balance.revision_of(raw) or 0)


def served_pairs(raw: Optional[dict]) -> Pairs:
    """Non-zero pairwise debts by pair key from a fetched balance row."""
    return {key: v for key, v in Balance.pairs_of(raw or {}).items() if v}


def group_nets(group_id: str) -> Tuple[Nets, int]:
    """(non-zero ledger-keyed nets, revision) of a group: one GetItem."""
    return served_nets(Balance.fetch_raw(group_id))


def net_of(group_id: str, participant_id: str) -> int:
    """One participant's net in the main currency, folded exactly as the balances route."""
    return group_nets(group_id)[0].get(participant_id, 0)


@dataclass(frozen=True)
class BalanceRow:
    participant_id: str
    display_name: str
    net: int


@dataclass(frozen=True)
class Transfer:
    from_id: str
    to_id: str
    amount: int
    pay_to: tuple = ()  # the payee's pay links (app.ledger.pay_links)
    # With households: the paying and receiving units' labels (None: a person on their own).
    from_household: Optional[str] = None
    to_household: Optional[str] = None


@dataclass(frozen=True)
class CurrencyBalances:
    """One kept currency's nets (summing to 0) and its own minimal settle-up plan."""

    currency: str
    rows: List[BalanceRow]
    transfers: List[Transfer]
    rounding: Optional[List[dict]] = None  # FAIR groups: [{participantId, cumulative}]


@dataclass(frozen=True)
class Balances:
    """A group's nets over its roster and the settle-up plan that clears them.

    ``revision`` is the group's (as in ETags, /changes and home); ``balance_revision`` the
    balance row's money-write counter."""

    currency: str
    revision: int
    rows: List[BalanceRow]
    transfers: List[Transfer]
    other_currencies: List[CurrencyBalances] = field(default_factory=list)
    display: Optional[Any] = None
    user_ids: Dict[str, str] = field(default_factory=dict)  # USER participantId -> userId
    balance_revision: int = 0
    # When any participant has a household: every household's members and summed net, and
    # the members the plans settled as units (app.money.households), for the display section.
    households: Optional[List[Household]] = None
    members: Optional[List[Member]] = None
    view: str = "simplified"
    rounding: Optional[List[dict]] = None  # FAIR groups (app.ledger.rounding.with_rounding)


SIMPLIFIED, PAIRWISE, VIEWS = pairwise.SIMPLIFIED, pairwise.PAIRWISE, pairwise.VIEWS


def plan(nets: Mapping[str, int], members: Optional[List[Member]] = None) -> List[Transfer]:
    """The settle-up plan: per person, or between units when ``members`` has households."""
    if members is None:
        return [Transfer(a, b, amount) for a, b, amount in settle_up(dict(nets))]
    return [Transfer(t.from_id, t.to_id, t.amount, from_household=t.from_household,
                     to_household=t.to_household) for t in unit_plan(members, nets)]


def pairwise_transfers(pairs: Mapping[tuple, int]) -> List[Transfer]:
    """Netted pairwise debts as transfers (no simplification)."""
    return [Transfer(a, b, amount) for a, b, amount in pairwise.transfers(pairs)]


def view_of_group(simplify_debts: Optional[bool]) -> str:
    """The view a group shows when none is asked (Group.SimplifyDebts, absent: true)."""
    return PAIRWISE if simplify_debts is False else SIMPLIFIED


def section_transfers(nets: Mapping[str, int], pairs: Mapping[tuple, int], view: str,
                      members: Optional[List[Member]] = None) -> List[Transfer]:
    """One currency section's transfers in a view: the plan (between units when ``members``
    has households), or the netted pairs (always person to person)."""
    return pairwise_transfers(pairs) if view == PAIRWISE else plan(nets, members)


def sections(main_currency: str, raw: Optional[dict],
             view: Optional[str] = None) -> List[Tuple[str, List[Transfer]]]:
    """[(currency, transfers)] of one group's balance row, the main currency first, then each
    kept one; ``view`` None: the group's default (its SimplifyDebts copy on the row)."""
    view = view or view_of_group(Balance.simplifies(raw))
    main, kept = split_nets(served_nets(raw)[0])
    main_pairs, kept_pairs = split_pairs(served_pairs(raw))
    currencies = set(kept) | ({c for c, p in kept_pairs.items() if p} if view == PAIRWISE
                              else set())
    return [(main_currency, section_transfers(main, main_pairs, view))] + [
        (currency, section_transfers(kept.get(currency, {}), kept_pairs.get(currency, {}),
                                     view)) for currency in sorted(currencies)]


def read_roster(group_id: str) -> List[Participant]:
    """The roster (one consistent Query), kept for this request's :func:`group_balances`:
    GET balances reads it before the access check, so the BatchGetItem that checks access
    can also read the roster's payment methods (app.ledger.pay_links.prefetch)."""
    roster = list(Participant.roster(group_id, consistent_read=True))
    request_reads.hold(("roster", group_id), roster)
    return roster


def _roster(group_id: str, all_nets: Mapping[str, int]) -> List[Participant]:
    """The roster :func:`read_roster` kept, or a fresh read. Kept, it was read before the
    balance row: if a net names a participant it lacks (added in between), read it again."""
    roster = request_reads.take(("roster", group_id))
    if roster is not None:
        known = {p.ParticipantId for p in roster}
        if all(key.rpartition(KEPT_SEPARATOR)[2] in known
               for key, net in all_nets.items() if net):
            return roster
    return list(Participant.roster(group_id, consistent_read=True))


def group_balances(access: Access, view: Optional[str] = None, *,
                   units: bool = True) -> Balances:
    """Every roster participant's net (0 if absent) and, per currency, a minimal settle-up
    plan (``view`` simplified: between units when someone has a household, unless ``units``
    is False, as a reminder from one person to another reads the per-person plan) or the
    netted pairwise debts (pairwise, person to person); no view: the group's default
    (Group.SimplifyDebts).

    Authorize with ``prefetch=BALANCES_PREFETCH`` and the balance row comes with it: two
    DynamoDB calls in all (the roster, see :func:`read_roster`, and that BatchGetItem),
    whichever the view: the pairs are on that row."""
    view = view or view_of_group(access.group.SimplifyDebts)
    raw = (access.prefetched[BALANCE] if BALANCE in access.prefetched
           else Balance.fetch_raw(access.group_id))
    all_nets, revision = served_nets(raw)
    main_pairs, kept_pairs = split_pairs(served_pairs(raw))
    nets, kept = split_nets(all_nets)
    roster = _roster(access.group_id, all_nets)
    rows = [BalanceRow(p.ParticipantId, p.DisplayName, nets.get(p.ParticipantId, 0))
            for p in roster]
    known = {p.ParticipantId for p in roster}
    # A removed participant can't hold a non-zero net (removal is refused while referenced);
    # if one ever does, show it rather than serve nets that no longer sum to zero.
    rows += [BalanceRow(pid, FORMER_PARTICIPANT, net)
             for pid, net in nets.items() if pid not in known]
    names = {p.ParticipantId: p.DisplayName for p in roster}
    members = households.members(roster) if units else None
    if view == PAIRWISE:  # a section whose nets are 0 may still hold a cycle of debts
        kept = {**{currency: {} for currency, pairs in kept_pairs.items() if pairs}, **kept}
    other = [CurrencyBalances(currency, [BalanceRow(pid, names.get(pid, FORMER_PARTICIPANT), net)
                                         for pid, net in sorted(kept[currency].items())],
                              section_transfers(kept[currency], kept_pairs.get(currency, {}),
                                                view, members))
             for currency in sorted(kept)]
    main = {r.participant_id: r.net for r in rows}
    return Balances(access.group.Currency, changelog.revision_of(access.group), rows,
                    section_transfers(main, main_pairs, view, members), other,
                    user_ids={p.ParticipantId: p.UserId for p in roster
                              if p.Type == "USER" and p.UserId},
                    balance_revision=revision, view=view, members=members,
                    households=None if members is None else household_rows(members, main))
