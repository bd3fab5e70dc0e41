"""The caller's live groups with their BALANCE#v1 rows, for the cross-group reads
(/users/me/people, /users/me/expenses):
- one UserParticipantsIndex Query per 1 MB page of memberships;
- one BatchGetItem per 100 groups of their balance rows (one key each), the first also
  reading the caller's profile strongly consistent: the request's liveness check
  (app.core.live.read_live_with), no call of its own.

No head is read: the balance row carries the head's name and currency, and DELETING once
the group is tombstoned (Balance.Name), and its ``Users`` map tells which participants are
accounts without reading any roster. A balance row older than that copy (or absent) has
its head read as before, in one more BatchGetItem per 100 such groups."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

from app.core.access import UNREADABLE, is_live
from app.core.live import read_live_with
from models.groups import Balance, Group, GroupItem, Participant


@dataclass(frozen=True)
class SharedGroup:
    group_id: str
    name: str
    currency: str  # the main one
    participant_id: str  # the caller's
    balance_raw: Optional[dict]

    @property
    def users(self) -> Dict[str, str]:
        """USER participantId -> userId (guests are not in it)."""
        return Balance.users_of(self.balance_raw)

    def participant_of(self, user_id: str) -> Optional[str]:
        return next((pid for pid, uid in self.users.items() if uid == user_id), None)


def shared_groups(user_id: str) -> List[SharedGroup]:
    memberships = list(Participant.memberships(user_id))
    balances = read_live_with(user_id, GroupItem,
                              [Balance.key(m.GroupId) for m in memberships])
    copies = {m.GroupId: Balance.head_copy_of(balances.get(Balance.key(m.GroupId)))
              for m in memberships}
    heads = GroupItem.raw_batch_get([Group.key(gid) for gid, copy in copies.items()
                                     if copy is None])
    out = []
    for membership in memberships:
        group_id = membership.GroupId
        copy = copies[group_id]
        if copy is None:  # no copy yet: the head says
            head = Group.from_raw(heads.get(Group.key(group_id)))
            copy = (head.Name, head.Currency, head.Status) if is_live(head) else None
        if copy is not None and copy[2] not in UNREADABLE:
            out.append(SharedGroup(group_id, copy[0], copy[1], membership.ParticipantId,
                                   balances.get(Balance.key(group_id))))
    return out
