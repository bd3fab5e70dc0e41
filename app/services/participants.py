"""Participants: the roster, guests, roles and removal."""
from __future__ import annotations

from app.services.access import Access, group_not_found
from app.services.clock import new_id, now_iso
from app.services.transactions import Transaction
from models.groups import Group, Participant


def participant_view(row: Participant) -> dict:
    view = {"participantId": row.ParticipantId, "type": row.Type,
            "displayName": row.DisplayName, "role": row.Role}
    if row.UserId:
        view["userId"] = row.UserId
    if row.ClaimedAt:
        view["claimedAt"] = row.ClaimedAt
    return view


def roster(group_id: str) -> list:
    """Every participant of a group (consistent read: the roster guards money writes)."""
    return list(Participant.roster(group_id, consistent_read=True))


def list_participants(access: Access) -> list:
    return [participant_view(p) for p in roster(access.group_id)]


def add_guest(access: Access, *, display_name: str, role: str = "MEMBER") -> dict:
    """A GUEST participant; its Role is what it will hold once claimed (never OWNER)."""
    participant_id, now = new_id(), now_iso()
    guest = Participant(access.group_id, Participant.sort_key(participant_id),
                        ParticipantId=participant_id, Type="GUEST", DisplayName=display_name,
                        Role=role, CreatedAt=now, UpdatedAt=now)
    tx = Transaction()
    tx.check(Group, *Group.key(access.group_id), condition=Group.Status == "ACTIVE",
             on_fail=group_not_found())
    tx.put(guest, condition=Participant.SK.does_not_exist())
    tx.commit()
    return participant_view(guest)
