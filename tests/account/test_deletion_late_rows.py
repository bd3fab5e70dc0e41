"""Rows that slip in while a deletion runs are swept too: every step reads what it removes
when it runs (not from the profile read before the mark), and the late sweep reads it all
again just before the tombstone, so a row an index showed late is not left behind."""
from __future__ import annotations

import pytest

from app.account import deletion
from app.core.clock import iso_in, now_iso
from models.developer_tokens import AccessToken, IdempotencyRecord
from models.groups import JoinLock, JoinRequest
from models.notifications import Device, DeviceToken, Notification
from models.people import DirectoryEntry, Friendship, HandleClaim
from models.users import JoinRequestPointer, Profile
from tests.account.conftest import rows_naming

LATE_HANDLE = "dora_late"


def _slip_in(world, tag: str) -> None:
    """What requests that passed their guards just before the mark would have written:
    a new handle (claim, profile, directory row), a friendship, a token with an idempotency
    record, a device with its token claim, a history row, and a pending join request."""
    user = world.dora
    handle = f"{LATE_HANDLE}{tag}"
    old = Profile.get(*Profile.key(user)).Handle
    HandleClaim(*HandleClaim.key(handle), UserId=user).save()  # a handle change: the old
    HandleClaim(*HandleClaim.key(old)).delete()  # claim is released with it
    Profile(*Profile.key(user)).update(actions=[Profile.Handle.set(handle)])
    DirectoryEntry.build(user, "HANDLE", handle, display_name="Dora", handle=handle).save()
    Friendship(*Friendship.key(user, world.olive), FriendUserId=world.olive,
               Status="OUTGOING").save()
    Friendship(*Friendship.key(world.olive, user), FriendUserId=user, Status="INCOMING").save()
    AccessToken(*AccessToken.key(f"late-token-{tag}"), UserId=user, CreatedAt=now_iso(),
                Name="late", SecretHash="x", Scopes={"groups:read"},
                ExpiresAt=iso_in(3600)).save()
    IdempotencyRecord(f"late-token-{tag}", "IDEMPOTENCY#k", RequestHash="h",
                      Status="COMPLETED", ExpiresAt=2_000_000_000).save()
    Device(*Device.key(user, f"late-device-{tag}"), DeviceId=f"late-device-{tag}",
           Platform="ANDROID", Token=f"late-push-{tag}").save()
    DeviceToken(*DeviceToken.key(f"late-push-{tag}"), UserId=user,
                DeviceId=f"late-device-{tag}").save()
    Notification(*Notification.key(user, now_iso(), f"late-{tag}"), NotificationId="n",
                 Type="EXPENSE_ADDED", Title="t", Body="b", CreatedAt=now_iso()).save()
    request = JoinRequest(world.invited, JoinRequest.sort_key(f"late-req-{tag}"),
                          RequestId=f"late-req-{tag}", ApplicantUserId=user,
                          ApplicantDisplayName="Dora", Mode="NEW", Status="PENDING",
                          Message="hi, it's Dora", CreatedAt=now_iso()).mark_pending()
    request.save()
    JoinLock(world.invited, JoinLock.sort_key(user), LockType="PENDING",
             RequestId=f"late-req-{tag}").save()
    JoinRequestPointer.build(user, world.invited, f"late-req-{tag}").save()


@pytest.mark.parametrize("after", ["mark", "identities"])
def test_rows_written_during_the_deletion_are_swept(make_world, directory, after):
    world = make_world(after[:2])

    def hook(name):
        if name == after:
            _slip_in(world, after[:2])

    assert deletion.delete_account(world.dora, after_step=hook).done
    assert rows_naming(world.dora, world.email, f"{LATE_HANDLE}{after[:2]}") == []
    assert HandleClaim.raw_get(*HandleClaim.key(f"{LATE_HANDLE}{after[:2]}")) is None
    assert DeviceToken.raw_get(*DeviceToken.key(f"late-push-{after[:2]}")) is None
