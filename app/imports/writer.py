"""Write a parsed file into an IMPORTING group: guests, invite, expenses, settlements, nets.

The group is unreadable until the worker flips it ACTIVE, so nothing here races a reader or
a writer: rows go in BatchWriteItem calls of 25 (no per-row transaction, no condition), and
BALANCE#v1 is written once, from the same numbers, at the end. Every expense is built by
expense_build.build, the one definition of an expense body (ExpenseBody), exactly as a
POST /groups/{groupId}/expenses would build it."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Dict, List, Optional, Tuple

from pynamodb.expressions.operand import Path

from app import names
from app.limits import MAX_DISPLAY_NAME, MAX_SETTLEMENT_NOTE
from app.errors import DomainError
from app.money.fx import AUTO
from app.core.clock import new_id
from app.groups.codes import new_invite_code
from app.imports import threads
from app.imports.model import EXPENSE, ImportFileError, Parsed, Row
from app.ledger import balances, expense_build, foreign_currency
from app.ledger.settlements import rate_attributes
from models.groups import (RATE_CLIENT, Balance, balance_row, Expense, GroupItem, Invite, Participant,
                           Settlement)

GUEST_ROLE = "MEMBER"
PAIR_CHUNK = 100


@dataclass
class Written:
    """What the writer put in the partition."""

    participant_ids: Dict[str, str]  # member key -> participantId
    main_currency: str
    # "auto": rows in other currencies convert at their date's ECB rate; None: they are kept.
    convert: Optional[str] = None
    # Ledger-keyed nets (balances.ledger_key): the main currency's and every kept one's.
    nets: Dict[str, int] = field(default_factory=dict)
    # Pair-keyed netted pairwise debts (balances.pair_key), what the pairwise view reads.
    pairs: Dict[str, int] = field(default_factory=dict)
    expenses: int = 0
    settlements: int = 0
    # (GroupId, SK) of every expense and settlement written: what the check reads back.
    keys: List[Tuple[str, str]] = field(default_factory=list)

    def nets_in(self, currency: str) -> Dict[str, int]:
        """participantId -> net in one currency's balances."""
        main, other = balances.split_nets(self.nets)
        return main if currency == self.main_currency else other.get(currency, {})

    def rate_fields(self, row: Row) -> dict:
        """How a row's body converts: at the rate and group amount its source app recorded
        (while the group's currency is the source's), else at "auto" when converting
        foreign rows, else not at all (kept, or in the group's currency)."""
        if row.currency == self.main_currency:
            return {}
        recorded = row.recorded_rate
        if recorded is not None and recorded.currency == self.main_currency:
            fields = {"group_amount": recorded.group_amount}
            if recorded.exchange_rate:  # as recorded, though amount x rate may round apart
                fields.update(exchange_rate=recorded.exchange_rate, rate_source=RATE_CLIENT)
            return fields
        return {"exchange_rate": AUTO} if self.convert == AUTO else {}


def display_name(name: str) -> str:
    """A member's name as a participant's DisplayName (NFC, refused characters dropped)."""
    cleaned = (names.clean(name) or "").strip()[:MAX_DISPLAY_NAME]
    return cleaned or "Member"


def _stamps(count: int) -> List[str]:
    """Creation times one millisecond apart, so rows of one date keep the file's order."""
    start = datetime.now(timezone.utc)
    return [(start + timedelta(milliseconds=i)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
            for i in range(count)]


def write(group_id: str, parsed: Parsed, *, importer: str, owner_key: Optional[str],
          owner_participant_id: str, convert: Optional[str] = None) -> Written:
    """Every row of ``parsed`` but the owner's participant (the flip writes that one).

    A row in another currency than the group's is kept in it (as the source app kept it),
    or with ``convert="auto"`` converted at the ECB rate of its date."""
    ids = {key: (owner_participant_id if key == owner_key else new_id())
           for key in parsed.members}
    written = Written(ids, parsed.currency, convert)
    stamps = _stamps(len(parsed.rows) + 1)
    with GroupItem.batch_write() as batch:
        now = stamps[-1]
        batch.save(Invite(*Invite.key(group_id), Enabled=True, Code=new_invite_code(),
                          DefaultRole="MEMBER", CreatedAt=now, UpdatedAt=now))
        for key, name in parsed.members.items():
            if key != owner_key:
                batch.save(Participant(group_id, Participant.sort_key(ids[key]),
                                       ParticipantId=ids[key], Type="GUEST",
                                       DisplayName=display_name(name),
                                       Role=parsed.roles.get(key, GUEST_ROLE),
                                       Household=parsed.households.get(key),
                                       HouseholdSetAt=now if key in parsed.households else None,
                                       CreatedAt=now, UpdatedAt=now))
        expense_ids: Dict[int, str] = {}
        for index, (row, stamp) in enumerate(zip(parsed.rows, stamps, strict=False)):
            item = (_expense(group_id, row, ids, stamp, importer, written)
                    if row.kind == EXPENSE else
                    _settlement(group_id, row, ids, stamp, importer, written))
            written.keys.append((group_id, item.SK))
            if row.kind == EXPENSE:
                expense_ids[index] = item.ExpenseId
            batch.save(item)
        # Our own export's comments and recurring templates (app.imports.threads).
        for item in threads.comment_rows(group_id, parsed, ids, expense_ids, importer) + \
                threads.template_rows(group_id, parsed, parsed.currency, importer, now,
                                      lambda row: row.expense_input(ids)):
            batch.save(item)
    _write_balance(group_id, written, now)
    return written


def _add(written: Written, nets: Dict[str, int], pairs: Dict[str, int]) -> None:
    for key, value in nets.items():
        written.nets[key] = written.nets.get(key, 0) + value
    for key, value in pairs.items():
        written.pairs[key] = written.pairs.get(key, 0) + value


def _on_its_line(row: Row, build):
    """``build()``, a refusal (no reference rate for the row's day) naming the row's line."""
    try:
        return build()
    except DomainError as error:
        raise ImportFileError(row.line, str(error)) from None


def _expense(group_id: str, row: Row, ids: Dict[str, str], stamp: str, importer: str,
             written: Written) -> Expense:
    body = row.expense_input(ids).with_(**written.rate_fields(row))
    draft = _on_its_line(row, lambda: expense_build.build(body, written.main_currency))
    expense_id = new_id()
    written.expenses += 1
    _add(written, draft.nets, balances.body_pairs(draft.body, written.main_currency))
    return Expense(group_id, Expense.sort_key(expense_id), ExpenseId=expense_id,
                   **Expense.date_keys(draft.date, stamp, expense_id),
                   Date=draft.date, **draft.body.to_row_attributes(),
                   Version=1, CreatedBy=importer, UpdatedBy=importer, CreatedAt=stamp,
                   UpdatedAt=stamp)


def _settlement(group_id: str, row: Row, ids: Dict[str, str], stamp: str, importer: str,
                written: Written) -> Settlement:
    settlement_id = new_id()
    written.settlements += 1
    rate = _on_its_line(row, lambda: foreign_currency.convert(
        foreign_currency.Conversion(row.currency, **written.rate_fields(row)), row.amount,
        written.main_currency, row.date))
    settlement = Settlement(group_id, Settlement.sort_key(stamp, settlement_id),
                            SettlementId=settlement_id, PayerId=ids[row.payer],
                            PayeeId=ids[row.payee], Amount=row.amount, Date=row.date,
                            Note=(row.note or None) and row.note[:MAX_SETTLEMENT_NOTE], Version=1,
                            CreatedBy=importer, CreatedAt=stamp, UpdatedAt=stamp,
                            ExpenseSortKey=Settlement.statement_key(row.date, stamp,
                                                                    settlement_id),
                            **rate_attributes(rate, written.main_currency))
    _add(written, balances.stored_settlement_nets(settlement, written.main_currency),
         balances.stored_settlement_pairs(settlement, written.main_currency))
    return settlement


def _write_balance(group_id: str, written: Written, now: str) -> None:
    """BALANCE#v1 from the writer's own sums, in one UpdateItem (it creates the row)."""
    # The seat list and the nets first, encoded by the row's one codec.
    actions, pairs = balance_row.initial(
        {key: value for key, value in sorted(written.nets.items()) if value},
        {key: value for key, value in sorted(written.pairs.items()) if value})
    actions += [Balance.BalanceRevision.set(0), Balance.Initialized.set(True),
                Balance.ExpenseCount.set(written.expenses),
                Balance.SettlementCount.set(written.settlements),
                Balance.CreatedAt.set(now), Path("EntityType").set("BALANCE")]
    Balance(*Balance.key(group_id)).update(actions=actions, add_version_condition=False)
    # The pairs in further updates of PAIR_CHUNK each: one update expression is capped at
    # 4 KB, and a group of n participants may hold n(n-1)/2 pairs.
    for start in range(0, len(pairs), PAIR_CHUNK):
        Balance(*Balance.key(group_id)).update(actions=pairs[start:start + PAIR_CHUNK],
                                               add_version_condition=False)
