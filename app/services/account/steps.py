"""The steps of account deletion, in the order :mod:`app.services.account.deletion` runs them.

Every step is idempotent and finds its work again from what is left (a key, an index or a
pointer that is deleted after what it leads to), so rerunning all steps after a crash at
any point finishes the job. Each returns how many things it removed or changed."""
from __future__ import annotations

from typing import List

from app.services.core.clock import iso_in, now_iso
from app.services.core.conditional import delete_if, update_if
from app.services.core.transactions import Transaction
from app.services.groups import departure
from app.services.account.cognito import directory
from models.developer_tokens import (APP_CREDENTIAL_PREFIX, DEV_BUDGET_PREFIX, TOKEN,
                                     AccessToken, DeveloperItem)
from models.groups import Participant
from models.identities import Identity
from models.notifications import USER_PREFIX as NOTIFY_USER, Device, DeviceToken, NotificationItem
from models.people import USER_PREFIX as PEOPLE_USER, Friendship, GroupInvitation, HandleClaim, PeopleItem
from models.users import ACCOUNT_DELETE, DELETING, PROFILE, McpCleanupPointer, Profile, UserItem

# A crashed deletion is resumed by the maintenance sweep once it is this overdue.
RESUME_AFTER_SECONDS = 15 * 60
PAGE_SIZE = 100


def _sweep_partition(model, hash_key: str, keep=()) -> int:
    """Delete every row of one partition but the sort keys in ``keep``; passes repeat until
    one finds nothing, so rows written meanwhile are not left behind."""
    removed = 0
    while True:
        swept = 0
        for keys in model.raw_pages(hash_key, keys_only=True, page_size=PAGE_SIZE):
            rows = [key for key in keys if key[1] not in keep]
            model.raw_batch_delete(rows)
            swept += len(rows)
        removed += swept
        if not swept:
            return removed


# --- 1. mark -------------------------------------------------------------------------------

def mark(profile: Profile) -> int:
    """Profile DELETING (filed for the maintenance sweep) and every identity flagged, in one
    transaction: from here every request of the user is 401 and a crash is resumed."""
    tx = Transaction()
    tx.update(Profile(*Profile.key(profile.UserId)),
              [Profile.Status.set(DELETING), Profile.UpdatedAt.set(now_iso()),
               Profile.RecoveryState.set(ACCOUNT_DELETE),
               Profile.RecoveryDueAt.set(iso_in(RESUME_AFTER_SECONDS))],
              condition=Profile.UserId.exists())
    identities = list(Identity.for_user(profile.UserId))
    for row in identities:
        tx.update(Identity(row.IdentityKey), [Identity.Deleting.set(True)],
                  condition=Identity.UserId == profile.UserId)
    tx.commit()
    return 1 + len(identities)


def unmark(profile: Profile) -> None:
    """Undo :func:`mark` (only when the groups step refuses before anything is removed)."""
    tx = Transaction()
    tx.update(Profile(*Profile.key(profile.UserId)),
              [Profile.Status.remove(), Profile.RecoveryState.remove(),
               Profile.RecoveryDueAt.remove()], condition=Profile.Status == DELETING)
    for row in Identity.for_user(profile.UserId):
        tx.update(Identity(row.IdentityKey), [Identity.Deleting.remove()],
                  condition=Identity.UserId == profile.UserId)
    tx.commit()


# --- 2. developer tokens first, so personal access tokens stop working at once --------------

def developer(profile: Profile) -> int:
    """Each token's idempotency rows, then the token (the GSI row that finds them); the app
    sign-in's idempotency records and the daily budget. Usage rows are in the user
    partition and go with it."""
    user_id, removed = profile.UserId, 0
    for token in list(AccessToken.for_owner(user_id)):
        removed += _sweep_partition(DeveloperItem, token.TokenId, keep=(TOKEN,))
        DeveloperItem.raw_batch_delete([(token.TokenId, TOKEN)])
        removed += 1
    removed += _sweep_partition(DeveloperItem, APP_CREDENTIAL_PREFIX + user_id)
    removed += _sweep_partition(DeveloperItem, DEV_BUDGET_PREFIX + user_id)
    return removed


# --- 3. groups -----------------------------------------------------------------------------

def groups(profile: Profile) -> int:
    """USER participants back to GUESTs (one transaction per group); sole-user groups go."""
    changed = 0
    for group_id in departure.my_group_ids(profile.UserId):
        changed += departure.depart(profile.UserId, group_id) != departure.GONE
    return changed


def join_requests(profile: Profile) -> int:
    return departure.cancel_pending_requests(profile.UserId)


# --- 4. people: reservations before invitations, then friends, handle, directory ----------

def reservations(profile: Profile) -> int:
    """Each invitation's reserved guest loses its deadline and its link to this account (the
    guest, its id and its history stay). The invitation is what finds the guest, so it is
    deleted only in the next step."""
    cleared = 0
    for row in list(GroupInvitation.for_invitee(profile.UserId, consistent_read=True)):
        if row.ParticipantId:
            cleared += update_if(
                Participant(row.GroupId, Participant.sort_key(row.ParticipantId)),
                [Participant.InviteExpiresAt.remove(), Participant.InvitedUserId.remove()],
                Participant.InvitedUserId == profile.UserId)
    return cleared


def invitations(profile: Profile) -> int:
    keys = [(row.PK, row.SK) for row in
            GroupInvitation.for_invitee(profile.UserId, consistent_read=True)]
    PeopleItem.raw_batch_delete(keys)
    return len(keys)


def people(profile: Profile) -> int:
    """Friends' rows about us before our own (ours are how we find theirs); the handle claim;
    then the rest of our People partition (directory rows)."""
    user_id, removed = profile.UserId, 0
    friends = [row.FriendUserId for row in Friendship.of(user_id, consistent_read=True)]
    PeopleItem.raw_batch_delete([Friendship.key(other, user_id) for other in friends])
    removed += len(friends)
    if profile.Handle:
        removed += delete_if(HandleClaim(*HandleClaim.key(profile.Handle)),
                             HandleClaim.UserId == user_id)
    removed += _sweep_partition(PeopleItem, PEOPLE_USER + user_id)
    return removed


# --- 5. notifications ----------------------------------------------------------------------

def notifications(profile: Profile) -> int:
    """Each device's token claim before the device (the device row finds the claim), then the
    partition: preferences and history."""
    user_id, removed = profile.UserId, 0
    for device in list(Device.of_user(user_id, consistent_read=True)):
        removed += delete_if(DeviceToken(*DeviceToken.key(device.Token)),
                             (DeviceToken.UserId == user_id)
                             & (DeviceToken.DeviceId == device.DeviceId))
    removed += _sweep_partition(NotificationItem, NOTIFY_USER + user_id)
    return removed


# --- 6. the Users table: MCP locators, then the partition --------------------------------

def mcp_pointers(profile: Profile) -> int:
    """Per page: the rows the pointers locate in other partitions, then the pointers, so a
    retry still finds every target whose pointer survived."""
    removed = 0
    for page in McpCleanupPointer.pages_of(profile.UserId, PAGE_SIZE):
        UserItem.raw_batch_delete([(row.TargetUserId, row.TargetSK) for row in page])
        UserItem.raw_batch_delete([(row.UserId, row.SK) for row in page])
        removed += 2 * len(page)
    return removed


def user_partition(profile: Profile) -> int:
    """Everything of the user's partition but PROFILE, the tombstone that goes last."""
    return _sweep_partition(UserItem, profile.UserId, keep=(PROFILE,))


# --- 7. sign-in: the directory user, the identities, then the profile ----------------------

def _identities(user_id: str) -> List[Identity]:
    return list(Identity.for_user(user_id))


def sign_in_user(profile: Profile) -> int:
    """The Cognito user (a recorder locally), found through its identity row, so before it."""
    admin = directory()
    subjects = [row.Subject for row in _identities(profile.UserId) if row.Provider == admin.provider]
    for subject in subjects:
        admin.delete_user(subject)
    return len(subjects)


def identities(profile: Profile) -> int:
    """Identities last but the tombstone: a crash here leaves an account that cannot sign in
    (every identity is flagged), never one that signs in to no profile."""
    removed = 0
    for row in _identities(profile.UserId):
        removed += delete_if(Identity(row.IdentityKey), Identity.UserId == profile.UserId)
    return removed


def tombstone(profile: Profile) -> int:
    return int(delete_if(Profile(*Profile.key(profile.UserId)), Profile.Status == DELETING))
