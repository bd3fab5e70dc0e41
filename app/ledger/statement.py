"""A participant's statement: every row that moved their net in one currency section, oldest
first, each with its effect and the running net after it.

Key design: every money row (expense head, settlement, conversion) carries ``ExpenseSortKey``
``<date>#<createdAt>#<id>``, written by the same put or update that writes the row, and
GroupExpensesIndex (GroupId / ExpenseSortKey) orders a group's money rows by date, then
creation (the expense listing reads the same index through the Expense class, skipping the
settlement and conversion rows). A page is one Query of that index; each row's
effect on the participant is computed from the row itself, rows with effect 0 (someone
else's, or another currency's) are left out, so a page may hold fewer items than ``limit``
and still have a ``nextCursor``. The running net so far rides in the signed cursor, so no
page re-reads the rows before it. No per-participant copy is written: a money write stays
the size it was, and an edit (a new date, a new payer) moves its row in the statement with
the update it already makes.

The reply's ``net`` is the section's materialised net (the balance row, read with the
access check); the last page's last ``runningNet`` equals it, the property tests prove."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional

from app.core import paging
from app.core.access import Access
from app.errors import not_found
from app.ledger import balances
from app.ledger.expense_body import ExpenseBody
from app.money.pairwise import INCOME
from models.groups import BALANCE, Conversion, Expense, GroupItem, Participant, Settlement

EXPENSE_KIND, INCOME_KIND, SETTLEMENT_KIND, CONVERSION_KIND = (
    "EXPENSE", "INCOME", "SETTLEMENT", "CONVERSION")


def prefetch(view_args) -> tuple:
    """The access check's BatchGetItem also reads the balance row and the participant."""
    return BALANCE, Participant.sort_key(str(view_args["participant_id"]))


@dataclass(frozen=True)
class Line:
    kind: str
    id: str
    date: str
    description: Optional[str]
    paid: int
    owed: int
    effect: int
    running_net: int


def _expense_line(row: Expense, pid: str, section: Optional[str], main: str) -> Optional[tuple]:
    body = ExpenseBody.from_row(row)
    converted = body.converted
    kept = None if converted or body.currency in (None, main) else body.currency
    if kept != section:
        return None
    paid = sum(int(p.GroupAmount if converted else p.Amount)
               for p in body.payments if p.ParticipantId == pid)
    owed = sum(int(s.GroupAmount if converted else s.Amount)
               for item in body.items for s in item.Splits if s.ParticipantId == pid)
    income = balances.row_kind(row) == INCOME
    if income:  # money received: the receiver's net falls, each share's rises
        paid, owed = -paid, -owed
    return (INCOME_KIND if income else EXPENSE_KIND, row.ExpenseId, row.Date,
            row.Description, paid, owed)


def _settlement_line(row: Settlement, pid: str, section: Optional[str],
                     main: str) -> Optional[tuple]:
    nets = balances.stored_settlement_nets(row, main)
    effect = nets.get(balances.ledger_key(pid, section), 0)
    if not effect:
        return None
    paid, owed = (effect, 0) if effect > 0 else (0, -effect)
    return SETTLEMENT_KIND, row.SettlementId, row.Date, row.Note, paid, owed


def _conversion_line(row: Conversion, pid: str, section: Optional[str]) -> Optional[tuple]:
    effect = balances.conversion_nets(row).get(balances.ledger_key(pid, section), 0)
    if not effect:
        return None
    paid, owed = (effect, 0) if effect > 0 else (0, -effect)
    return (CONVERSION_KIND, row.ConversionId, row.CreatedAt[:10],
            f"{row.Currency} converted at {row.ExchangeRate}", paid, owed)


def _line_of(row: Any, pid: str, section: Optional[str], main: str) -> Optional[tuple]:
    if isinstance(row, Expense):
        return _expense_line(row, pid, section, main)
    if isinstance(row, Settlement):
        return _settlement_line(row, pid, section, main)
    if isinstance(row, Conversion):
        return _conversion_line(row, pid, section)
    return None


def statement(access: Access, participant_id: str, *, currency: Optional[str],
              limit: Optional[int], cursor: Optional[str], scope: str) -> dict:
    """One page of ``participant_id``'s statement in ``currency`` (None: the main one):
    one Query. A participant not in the group is NotFound."""
    if not access.prefetched.get(Participant.sort_key(participant_id)):
        raise not_found("Participant")
    main = access.group.Currency
    section = None if currency in (None, main) else currency
    state = paging.decode(cursor, scope) or {}
    running = int(state.get("runningNet", 0))
    rows = GroupItem.statement_page(access.group_id, limit=paging.clamp_limit(limit),
                                    last_evaluated_key=state.get("key"))
    items: List[Line] = []
    for row in rows:
        line = _line_of(row, participant_id, section, main)
        if line is None or line[4] == line[5]:
            continue  # left out: it did not move this participant's net in this section
        effect = line[4] - line[5]
        running += effect
        items.append(Line(*line, effect=effect, running_net=running))
    nets, _ = balances.served_nets(access.prefetched.get(BALANCE))
    last = rows.last_evaluated_key
    return {"currency": currency or main,
            "net": nets.get(balances.ledger_key(participant_id, section), 0),
            "items": items,
            "nextCursor": paging.encode({"key": last, "runningNet": running}, scope)
            if last else None}
