"""The maintenance sweep that expires direct invitations past their deadline."""
from __future__ import annotations

from typing import Optional

from app.core.clock import now_iso
from app.core.conditional import delete_if
from app.core.transactions import Transaction
from app.people.invitation_rows import clear_reservation, commit_or_skip, load_invitation
from models.people import GroupInvitation
from models.users import SentInvitation

# Each maintenance run expires at most this many invitations per shard of the due index.
EXPIRY_BATCH = 50


def _expire(row: GroupInvitation, now: str) -> bool:
    tx = Transaction()
    tx.delete(GroupInvitation(row.PK, row.SK),
              condition=(GroupInvitation.CreatedAt == row.CreatedAt)
              & (GroupInvitation.ExpiresAt <= now))
    clear_reservation(tx, row)
    return commit_or_skip(tx)


def expire_invitations(now: Optional[str] = None) -> dict:
    """Maintenance: delete expired invitations and their guests' stale deadlines (history
    and link stay), found through the inviters' SentInvitation pointers, which
    ScanRecoveryIndex files by expiry: a bounded Query per shard, never a Scan of People.
    Each invitation is its own conditional transaction; its pointer goes after it (unless
    a newer invitation renewed it), so a crash repeats at most that one."""
    now, swept = now or now_iso(), 0
    for shard in SentInvitation.shards():
        for inviter_id, sort_key in SentInvitation.due(shard, now, EXPIRY_BATCH):
            group_id, invitee_id = SentInvitation.parse_sort_key(sort_key)
            row = load_invitation(invitee_id, group_id)
            if row is not None and row.ExpiresAt <= now:
                swept += _expire(row, now)
            delete_if(SentInvitation(inviter_id, sort_key), SentInvitation.RecoveryDueAt <= now)
    return {"invitationsExpired": swept}
