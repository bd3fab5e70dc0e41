"""The caller's live groups with their heads and BALANCE#v1 rows, for the cross-group reads
(/users/me/people, /users/me/expenses): one UserParticipantsIndex Query per 1 MB page of
memberships, then one BatchGetItem per 50 groups (two keys each). The balance row's
``Users`` map tells which participants are accounts without reading any roster."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

from app.services.core.access import is_live
from models.groups import BALANCE, META, Balance, Group, GroupItem, Participant


@dataclass(frozen=True)
class SharedGroup:
    head: Group
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
    raw = GroupItem.raw_batch_get([key for m in memberships
                                   for key in ((m.GroupId, META), (m.GroupId, BALANCE))])
    out = []
    for membership in memberships:
        head_raw = raw.get((membership.GroupId, META))
        head = GroupItem.from_raw_data(head_raw) if head_raw else None
        if isinstance(head, Group) and is_live(head):
            out.append(SharedGroup(head, membership.ParticipantId,
                                   raw.get((membership.GroupId, BALANCE))))
    return out
