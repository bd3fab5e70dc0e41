"""The trash: a deleted expense or settlement kept 30 days, listed and restorable.

Deleting moves the row into a ``TRASH#<id>`` row (models.groups.Trashed: its image as
it was) in the delete's own TransactWrite, which also takes its balance effect away; a
restore puts the row back with a greater version and re-applies its effect in one
TransactWrite (exact: the same nets the delete removed), conditioned like a create on
every participant it names (the roster's version, app.ledger.guards). The table's TTL
purges a trash row (ExpiresAt, unix seconds); every read here treats it as gone from
ExpiresAt on, since TTL deletes late (days on AWS, never in local mode).

An expense's comments stay where they are (under its sort-key prefix, unread while its
head is gone) and come back with it; once the trash row is purged the orphan sweep
(app.ledger.orphan_comments) deletes them."""
from __future__ import annotations

import json
from typing import Iterable, Optional, Union

from app.errors import DomainError, ParticipantUnavailable, not_found
from app.core import cascades, changelog, paging
from app.core.sweeps import scan_pages
from app.core.access import Access
from app.core.clock import epoch, now_iso
from app.core.transactions import Transaction
from app.ledger import balances, guards as money_guards, rounding
from app.ledger.errors import participant_gone
from app.ledger.expense_body import ExpenseBody
from app.limits import TRASH_KEEP_SECONDS
from models.groups import (COMMENT_SEGMENT, EXPENSE_PREFIX, TRASH_PREFIX, ChangeKind, Comment,
                           Expense, GroupItem, Participant, Settlement, Trashed)

TRASHED_WHAT = "Trashed item"
# A restore's transaction holds the guards, the trash row, the row, the balance, the head's
# revision and the change rows: the first comments of a thread are logged in it (each a
# CHANGE row), within DynamoDB's 100 items.
COMMENTS_IN_RESTORE = 80


def put_in_trash(tx: Transaction, access: Access, row: Union[Expense, Settlement]) -> Trashed:
    """Add to ``tx`` the trash row of ``row``, which ``tx`` deletes (with its balance effect)."""
    expense = isinstance(row, Expense)
    now = now_iso()
    trashed = Trashed(access.group_id, Trashed.sort_key(_id_of(row)),
                      Kind=ChangeKind.EXPENSE if expense else ChangeKind.SETTLEMENT,
                      ResourceId=_id_of(row),
                      Description=row.Description if expense else row.Note,
                      Amount=int(row.Amount), Currency=row.Currency, DeletedAt=now,
                      DeletedBy=access.participant_id,
                      ExpiresAt=epoch() + TRASH_KEEP_SECONDS,
                      Snapshot=json.dumps(row.serialize(), separators=(",", ":")),
                      CreatedAt=now)
    # Unconditional: a row is in the trash at most once (a restore deletes its trash row).
    tx.put(trashed)
    return trashed


def _id_of(row) -> str:
    return row.ExpenseId if isinstance(row, Expense) else row.SettlementId


def _live(row: Optional[Trashed]) -> bool:
    return row is not None and int(row.ExpiresAt) > epoch()


def list_trash(access: Access, *, limit: Optional[int], cursor: Optional[str],
               scope: str) -> paging.Page:
    """The group's trash, newest deletion first. The rows are read whole (one Query per
    1 MB: 30 days of deletions) and ordered here, as their keys name the resource, which a
    restore looks up; the cursor holds the last (deletedAt, id) served."""
    after = paging.decode(cursor, scope)
    rows = sorted((row for row in Trashed.query(access.group_id,
                                                Trashed.SK.startswith(TRASH_PREFIX),
                                                consistent_read=True) if _live(row)),
                  key=lambda row: (row.DeletedAt, row.ResourceId), reverse=True)
    if after:
        rows = [row for row in rows if (row.DeletedAt, row.ResourceId) < (after["d"], after["i"])]
    size = paging.clamp_limit(limit)
    page, more = rows[:size], len(rows) > size
    last = page[-1] if more else None
    return paging.Page(items=page, next_cursor=paging.encode(
        {"d": last.DeletedAt, "i": last.ResourceId} if last else None, scope))


def _named(row: Union[Expense, Settlement]) -> Iterable[str]:
    if isinstance(row, Expense):
        return ExpenseBody.from_row(row).participant_ids
    return (row.PayerId, row.PayeeId)


def _checked(tx: Transaction, access: Access, participant_ids: tuple) -> None:
    """A create's money guards (app.ledger.guards: the roster read once, its version
    checked at commit); a participant absent from the roster is 409 PARTICIPANT_GONE: a
    trashed row is no reference, so its participants may have been removed meanwhile."""
    try:
        money_guards.check_money_write(tx, access, participant_ids)
    except ParticipantUnavailable as error:
        missing = error.details.get("participantId")
        if missing and GroupItem.raw_get(access.group_id,
                                         Participant.sort_key(missing)) is None:
            raise participant_gone(missing) from None
        raise  # present but held by a transfer: PARTICIPANT_UNAVAILABLE, as for a create


def restore(access: Access, resource_id: str) -> Union[Expense, Settlement]:
    """Put a trashed expense or settlement back (its version one greater than at its
    deletion) with its balance effect, in one TransactWrite; 404 when it is not in the trash
    (never was, restored, or past its 30 days), 409 PARTICIPANT_GONE."""
    trashed = Trashed.from_raw(GroupItem.raw_get(access.group_id, Trashed.sort_key(resource_id)))
    if not _live(trashed):
        raise not_found(TRASHED_WHAT)
    row = GroupItem.from_raw_data(json.loads(trashed.Snapshot))
    row.Version, row.UpdatedAt = int(row.Version) + 1, now_iso()
    tx = Transaction()
    _checked(tx, access, tuple(_named(row)))
    # A second restore (or the purge) got there first: it is no longer in the trash.
    tx.delete(Trashed(access.group_id, trashed.SK),
              condition=Trashed.DeletedAt == trashed.DeletedAt, on_fail=not_found(TRASHED_WHAT))
    tx.put(row, condition=GroupItem.SK.does_not_exist(), on_fail=not_found(TRASHED_WHAT))
    currency = access.group.Currency
    if isinstance(row, Expense):
        row.UpdatedBy = access.user_id
        # Its nets, its pairwise debts and (a FAIR group) its rounding come back together,
        # the rounding conditioned on the balance revision it was read at.
        fair = rounding.read_state(access.group)
        fair_update = balances.against(access) if fair is None else fair.update(
            rounding.combined(fair.stored,
                              rounding.body_rounding(ExpenseBody.from_row(row), currency),
                              signs=(1, 1)))
        balances.add_to_balance(tx, access.group_id,
                                balances.deltas({}, balances.expense_nets(row, currency)),
                                expenses=1,
                                pairs=balances.deltas({}, balances.expense_pairs(row, currency)),
                                **fair_update)
    else:
        balances.add_to_balance(tx, access.group_id,
                                balances.stored_settlement_nets(row, currency), settlements=1,
                                pairs=balances.stored_settlement_pairs(row, currency),
                                **balances.against(access))
    changelog.record(tx, access.group, row, changelog.RESTORE, actor=access.participant_id)
    thread = _thread(row)
    for comment in thread[:COMMENTS_IN_RESTORE]:
        changelog.record(tx, access.group, comment, changelog.RESTORE, actor=access.participant_id)
    money_guards.commit(tx, access.group)
    for chunk in paging.chunked(thread[COMMENTS_IN_RESTORE:], COMMENTS_IN_RESTORE):
        _announce(access, chunk)
    return row


def _thread(row) -> list:
    """An expense's comments, which come back with it: /changes must say so, since a
    replica dropped them with the expense's DELETE (a settlement has none)."""
    if not isinstance(row, Expense):
        return []
    return list(Comment.query(row.GroupId, Comment.SK.startswith(
        f"{EXPENSE_PREFIX}{row.ExpenseId}{COMMENT_SEGMENT}"), consistent_read=True))


def _announce(access: Access, comments: list) -> None:
    """The comments past the restore's own transaction, logged in transactions of their
    own right after it (a thread longer than COMMENTS_IN_RESTORE only)."""
    tx = Transaction()
    for comment in comments:
        changelog.record(tx, access.group_id, comment, changelog.RESTORE,
                         actor=access.participant_id)
    tx.commit()


PURGE_SWEEP = "trash-purge"


def purge_expired(*, max_pages: int = 5, page_size: int = 500) -> dict:
    """Maintenance: trash rows past ExpiresAt go for good, ahead of (or instead of, in
    local mode) the table's TTL, and an expense's receipt with them: its row in the purge's
    transaction, its objects after (app.core.cascades, as a delete for good did). Its
    comments are then orphans, for the orphan sweep. A row a restore took meanwhile is
    skipped (the delete is conditioned on it still being there, unchanged)."""
    purged = 0
    now = epoch()
    for items in scan_pages(GroupItem, PURGE_SWEEP, page_size=page_size, max_pages=max_pages,
                            filter_condition=(GroupItem.EntityType == Trashed)
                            & (Trashed.ExpiresAt <= now)):
        for raw in items:
            purged += _purge(Trashed.from_raw(raw), now)
    return {"trashPurged": purged}


def _purge(trashed: Trashed, now: int) -> int:
    row = GroupItem.from_raw_data(json.loads(trashed.Snapshot))
    tx = Transaction().delete(Trashed(trashed.GroupId, trashed.SK),
                              condition=(Trashed.DeletedAt == trashed.DeletedAt)
                              & (Trashed.ExpiresAt <= now))
    if isinstance(row, Expense):
        cascades.expense_deleting(tx, row)
    try:
        tx.commit()
    except DomainError:
        return 0  # restored (or purged) meanwhile
    if isinstance(row, Expense):
        cascades.expense_deleted(row)
    return 1
