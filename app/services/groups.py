"""Groups: create, read, rename, and the caller's home screen."""
from __future__ import annotations

import secrets

from app.errors import Conflict
from app.services.access import Access
from app.services.clock import new_id, now_iso
from app.services.transactions import Transaction
from models.groups import Balance, Group, Invite, Participant, UserMember
from models.users import Profile

INVITE_CODE_BYTES = 18


def new_invite_code() -> str:
    """An unguessable, URL-safe invite code."""
    return secrets.token_urlsafe(INVITE_CODE_BYTES)


def group_view(group: Group, access: Access | None = None) -> dict:
    view = {"groupId": group.GroupId, "name": group.Name, "currency": group.Currency,
            "createdBy": group.CreatedBy, "createdAt": group.CreatedAt,
            "updatedAt": group.UpdatedAt, "ownerCount": int(group.OwnerCount or 0)}
    if access is not None:
        view.update(myRole=access.role, myParticipantId=access.participant_id)
    return view


def create_group(user_id: str, *, name: str, currency: str) -> dict:
    """One TransactWrite: head (OwnerCount 1), invite, the creator as OWNER, guard, balance."""
    group_id, participant_id, now = new_id(), new_id(), now_iso()
    profile = Profile.get(*Profile.key(user_id))
    head = Group(*Group.key(group_id), Name=name, Currency=currency, CreatedBy=user_id,
                 OwnerCount=1, Status="ACTIVE", CreatedAt=now, UpdatedAt=now)
    invite = Invite(*Invite.key(group_id), Enabled=True, Code=new_invite_code(),
                    DefaultRole="MEMBER", CreatedAt=now, UpdatedAt=now)
    owner = Participant(group_id, Participant.sort_key(participant_id),
                        ParticipantId=participant_id, Type="USER", UserId=user_id,
                        DisplayName=profile.DisplayName, Role="OWNER", ClaimedAt=now,
                        CreatedAt=now, UpdatedAt=now)
    guard = UserMember(group_id, UserMember.sort_key(user_id), ParticipantId=participant_id,
                       Role="OWNER", CreatedAt=now)
    balance = Balance(*Balance.key(group_id), BalanceRevision=0, Initialized=True,
                      ExpenseCount=0, SettlementCount=0, CreatedAt=now)
    collision = Conflict("Id collision; try again.", code="CONCURRENT_UPDATE")
    tx = Transaction()
    for row in (head, invite, owner, guard, balance):
        tx.put(row, condition=type(row).SK.does_not_exist(), on_fail=collision)
    tx.commit()
    return group_view(head, Access(group=head, user_id=user_id, participant_id=participant_id,
                                   role="OWNER"))
