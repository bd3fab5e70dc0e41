"""Write a parsed file into an IMPORTING group: guests, invite, expenses, settlements, nets.

The group is unreadable until the worker flips it ACTIVE, so nothing here races a reader or
a writer: rows go in BatchWriteItem calls of 25 (no per-row transaction, no condition), and
BALANCE#v1 is written once, from the same numbers, at the end. Every expense is built by
expense_input.build, the one definition of an expense body (ExpenseBody), exactly as a
POST /groups/{groupId}/expenses would build it."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Dict, List, Optional

from pynamodb.expressions.operand import Path

from app import names
from app.services.core.clock import new_id
from app.services.groups.codes import new_invite_code
from app.services.imports.model import EXPENSE, Parsed, Row
from app.services.imports.parse import expense_body
from app.services.ledger import expense_input
from models.groups import Balance, Expense, GroupItem, Invite, Participant, Settlement

MAX_NAME = 100
MAX_NOTE = 500
GUEST_ROLE = "MEMBER"


@dataclass
class Written:
    """What the writer put in the partition."""

    participant_ids: Dict[str, str]  # member key -> participantId
    main_currency: str
    nets: Dict[str, int] = field(default_factory=dict)  # participantId -> net, main currency
    # Kept rows: currency -> participantId -> net (counted in that currency's balances).
    other_nets: Dict[str, Dict[str, int]] = field(default_factory=dict)
    expenses: int = 0
    settlements: int = 0


def display_name(name: str) -> str:
    """A member's name as a participant's DisplayName (NFC, refused characters dropped)."""
    cleaned = (names.clean(name) or "").strip()[:MAX_NAME]
    return cleaned or "Member"


def _stamps(count: int) -> List[str]:
    """Creation times one millisecond apart, so rows of one date keep the file's order."""
    start = datetime.now(timezone.utc)
    return [(start + timedelta(milliseconds=i)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
            for i in range(count)]


def write(group_id: str, parsed: Parsed, *, importer: str, owner_key: Optional[str],
          owner_participant_id: str) -> Written:
    """Every row of ``parsed`` but the owner's participant (the flip writes that one)."""
    ids = {key: (owner_participant_id if key == owner_key else new_id())
           for key in parsed.members}
    written = Written(ids, parsed.currency)
    stamps = _stamps(len(parsed.rows) + 1)
    with GroupItem.batch_write() as batch:
        now = stamps[-1]
        batch.save(Invite(*Invite.key(group_id), Enabled=True, Code=new_invite_code(),
                          DefaultRole="MEMBER", CreatedAt=now, UpdatedAt=now))
        for key, name in parsed.members.items():
            if key != owner_key:
                batch.save(Participant(group_id, Participant.sort_key(ids[key]),
                                       ParticipantId=ids[key], Type="GUEST",
                                       DisplayName=display_name(name), Role=GUEST_ROLE,
                                       CreatedAt=now, UpdatedAt=now))
        for row, stamp in zip(parsed.rows, stamps, strict=False):
            batch.save(_expense(group_id, row, ids, stamp, importer, written)
                       if row.kind == EXPENSE else
                       _settlement(group_id, row, ids, stamp, importer, written))
    _write_balance(group_id, written, now)
    return written


def _add(written: Written, currency: str, nets: Dict[str, int]) -> None:
    into = written.nets if currency == written.main_currency else \
        written.other_nets.setdefault(currency, {})
    for pid, value in nets.items():
        into[pid] = into.get(pid, 0) + value


def _expense(group_id: str, row: Row, ids: Dict[str, str], stamp: str, importer: str,
             written: Written) -> Expense:
    draft = expense_input.build(expense_body(row, ids))
    expense_id = new_id()
    written.expenses += 1
    _add(written, row.currency, draft.nets)
    return Expense(group_id, Expense.sort_key(expense_id), ExpenseId=expense_id,
                   ExpenseSortKey=Expense.expense_sort_key(draft.date, stamp, expense_id),
                   Date=draft.date, Currency=row.currency, **draft.body.to_row_attributes(),
                   Version=1, CreatedBy=importer, UpdatedBy=importer, CreatedAt=stamp,
                   UpdatedAt=stamp)


def _settlement(group_id: str, row: Row, ids: Dict[str, str], stamp: str, importer: str,
                written: Written) -> Settlement:
    settlement_id = new_id()
    written.settlements += 1
    payer, payee = ids[row.payer], ids[row.payee]
    _add(written, row.currency, {payer: row.amount, payee: -row.amount})
    return Settlement(group_id, Settlement.sort_key(stamp, settlement_id),
                      SettlementId=settlement_id, PayerId=payer, PayeeId=payee,
                      Amount=row.amount, Date=row.date,
                      Note=(row.note or None) and row.note[:MAX_NOTE], Version=1,
                      CreatedBy=importer, CreatedAt=stamp, UpdatedAt=stamp)


def _write_balance(group_id: str, written: Written, now: str) -> None:
    """BALANCE#v1 from the writer's own sums, in one UpdateItem (it creates the row)."""
    actions = [Path(Balance.net_attribute(pid)).set(value)
               for pid, value in sorted(written.nets.items()) if value]
    actions += [Balance.BalanceRevision.set(0), Balance.Initialized.set(True),
                Balance.ExpenseCount.set(written.expenses),
                Balance.SettlementCount.set(written.settlements),
                Balance.CreatedAt.set(now), Path("EntityType").set("BALANCE")]
    Balance(*Balance.key(group_id)).update(actions=actions, add_version_condition=False)
