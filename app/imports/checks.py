"""What must hold before an import's group turns ACTIVE, and the one write that turns it.

- BALANCE#v1 as written equals a recomputation from exactly the expense and settlement rows
  the run wrote, read back by their keys with strongly consistent BatchGetItem calls (100
  keys a call, UnprocessedKeys resent: models.base.RawAccess.raw_batch_get), and the
  writer's own sums: a row missing or different, or anything else, fails the import;
- what the source says the balances are (Splitwise's Total balance rows) is compared with
  the imported nets: a difference is a warning naming that row's line;
- the flip: head ACTIVE, the caller's OWNER participant and guard, the import DONE, in one
  TransactWrite conditioned on the head still IMPORTING and the caller's account live."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from app.imports.errors import import_gone
from app.money.currencies import format_minor
from app.core.clock import now_iso
from app.core import changelog
from app.core.transactions import Transaction
from app.imports.model import ImportFileError, Parsed
from app.imports.writer import Written, display_name
from app.ledger import balances
from models.groups import (Balance, DefaultShareMap, DefaultSplitMap, Expense, Group, GroupItem,
                           GroupStatus, ImportJob, Participant, Settlement, UserMember)
from models.groups.imports import DONE, RUNNING, ImportWarning

IMPORTING, ACTIVE = GroupStatus.IMPORTING, GroupStatus.ACTIVE
MAX_WARNINGS = 200
# What an ended import no longer keeps: who ran it and the options naming them.
ENDED = [ImportJob.ImporterUserId.remove(), ImportJob.Options.remove(),
         ImportJob.RunToken.remove(), ImportJob.LeaseUntil.remove(),
         ImportJob.DueBucket.remove(), ImportJob.NextRunAt.remove()]
MISMATCH = ("The imported balances do not equal a recomputation from the imported rows; "
            "nothing was kept.")


def read_back(group_id: str, written: Written) -> Tuple[Dict[str, int], Dict[str, int], int, int]:
    """(BALANCE#v1's nets, the nets recomputed from the rows read back, expenses and
    settlements found) from one consistent read of exactly the keys the run wrote: no
    Query over the group, so the check costs the rows written, whatever else is there."""
    balance_key = Balance.key(group_id)
    found = GroupItem.raw_batch_get([balance_key] + written.keys, consistent_read=True)
    stored = {pid: v for pid, v in Balance.nets_of(found.pop(balance_key, {})).items() if v}
    nets: Dict[str, int] = {}
    expenses = settlements = 0
    for key in written.keys:
        raw = found.get(key)
        row = GroupItem.from_raw_data(raw) if raw else None
        if isinstance(row, Expense):
            expenses += 1
            delta = balances.expense_nets(row, written.main_currency)
        elif isinstance(row, Settlement):
            settlements += 1
            delta = balances.stored_settlement_nets(row, written.main_currency)
        else:
            continue  # missing: the counts below cannot match
        for ledger_key, value in delta.items():
            nets[ledger_key] = nets.get(ledger_key, 0) + value
    return stored, {k: v for k, v in nets.items() if v}, expenses, settlements


def balances_match(group_id: str, written: Written) -> None:
    stored, recount, expenses, settlements = read_back(group_id, written)
    ours = {pid: v for pid, v in written.nets.items() if v}
    counts_ok = (expenses, settlements) == (written.expenses, written.settlements)
    if not (stored == recount == ours and counts_ok):
        raise ImportFileError(None, MISMATCH)


def source_totals(parsed: Parsed, written: Written) -> None:
    """Warn (with the line) for each member whose imported net differs from the source's."""
    by_key = {key: pid for key, pid in written.participant_ids.items()}
    for currency, (line, expected) in sorted(parsed.totals.items()):
        nets = written.nets_in(currency)
        for key, value in expected.items():
            got = nets.get(by_key.get(key, ""), 0)
            if got != value:
                parsed.warn(line, f"{parsed.members.get(key, key)}: the source's balance "
                                  f"is {format_minor(value, currency)} {currency}, the "
                                  f"imported rows give {format_minor(got, currency)}.")


def _warnings(parsed: Parsed) -> Tuple[List[ImportWarning], int]:
    shown = [ImportWarning(Line=line, Message=message[:500])
             for line, message in parsed.warnings[:MAX_WARNINGS]]
    return shown, len(parsed.warnings)


def counts_of(parsed: Parsed, written: Written) -> Dict[str, int]:
    return {"participants": len(written.participant_ids),
            "expenses": written.expenses, "settlements": written.settlements,
            "skipped": parsed.skipped}


def _default_split(parsed: Parsed, written: Written) -> list:
    """The head action keeping the file's default split, its members now participants."""
    if parsed.default_split is None:
        return []
    mode, entries = parsed.default_split
    return [Group.DefaultSplit.set(DefaultSplitMap(SplitMode=mode, Splits=[
        DefaultShareMap(ParticipantId=written.participant_ids[key], Value=value)
        for key, value in entries]))]


def flip(group_id: str, job: ImportJob, parsed: Parsed, written: Written, *, token: str,
         owner_key: Optional[str], owner_id: str, owner_name: str) -> None:
    """One TransactWrite: the group ACTIVE with its owner, the import DONE (while this run,
    ``token``, still holds it)."""
    now = now_iso()
    user_id = job.ImporterUserId
    name = display_name(parsed.members[owner_key]) if owner_key else display_name(owner_name)
    counts = counts_of(parsed, written)
    if owner_key is None:
        counts["participants"] += 1
    shown, total = _warnings(parsed)
    gone = import_gone()
    tx = Transaction().require_live_account(user_id)
    tx.update(Group(*Group.key(group_id)), [Group.Status.set(ACTIVE), Group.UpdatedAt.set(now)]
              + _default_split(parsed, written), condition=Group.Status == IMPORTING,
              on_fail=gone)
    owner = Participant(group_id, Participant.sort_key(owner_id), ParticipantId=owner_id,
                        Type="USER", UserId=user_id, DisplayName=name, Role="OWNER",
                        ClaimedAt=now, CreatedAt=now, UpdatedAt=now)
    tx.put(owner, condition=Participant.SK.does_not_exist(), on_fail=gone)
    # The imported roster is guests only: the owner is the group's one account. The head
    # copy (Balance.Name) is written as the group becomes readable; the head is read for it
    # (the worker holds no head, and nothing renames an IMPORTING group).
    pair = Balance.user_pair(owner_id, user_id)
    head = Group.from_raw(GroupItem.raw_get(*Group.key(group_id), consistent_read=True))
    if head is None:
        raise gone
    tx.update(Balance(*Balance.key(group_id)),
              [Balance.Users.set({pair}), *Balance.copy_head(head.Name, head.Currency)])
    # The group's first logged changes: it appears (ACTIVE), with its owner. The rows the
    # worker wrote before are older than the log, so /changes from 0 answers reset (refetch).
    # Its subject names the source ("importedFrom": the job's format), so /activity reads
    # "Ana imported the group from Splitwise", not "Ana changed the group".
    changelog.record(tx, group_id, Group(*Group.key(group_id)), changelog.UPDATE, actor=owner_id,
                     subject={"importedFrom": job.Format})
    changelog.record(tx, group_id, owner, changelog.CREATE, actor=owner_id)
    tx.put(UserMember(group_id, UserMember.sort_key(user_id), ParticipantId=owner_id,
                      Role="OWNER", CreatedAt=now),
           condition=UserMember.SK.does_not_exist(), on_fail=gone)
    tx.update(ImportJob(*ImportJob.key(group_id)),
              [ImportJob.Status.set(DONE), ImportJob.Counts.set(counts),
               ImportJob.Warnings.set(shown), ImportJob.WarningCount.set(total),
               ImportJob.FinishedAt.set(now)] + ENDED,
              condition=(ImportJob.Status == RUNNING) & (ImportJob.RunToken == token),
              on_fail=gone)
    tx.commit()
