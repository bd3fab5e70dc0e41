"""The steps of account deletion, in the order :mod:`app.account.deletion` runs them.

Every step is idempotent and finds its work again from what is left (a key, an index or a
pointer that is deleted after what it leads to), so rerunning all steps after a crash at
any point finishes the job. Each reads what it removes when it runs, never from the
profile read before the mark, and :func:`late_sweep` reads it all again just before the
tombstone (an index lags its table: a row written just before the mark may show up only
then). Each takes the run's :class:`Budget`, spends it per bounded piece of work, and
returns how many things it removed or changed."""
from __future__ import annotations

from typing import List, Optional

from app.account.budget import Budget, OutOfBudget, unlimited
from app.core.clock import iso_in, now_iso
from app.core.conditional import delete_if, update_if
from app.core.transactions import Transaction
from app.groups import departure
from app.account.cognito import directory
from app.people.invitation_rows import withdraw_sent_by
from app.receipts import cleanup as receipt_cleanup
from models.developer_tokens import (APP_CREDENTIAL_PREFIX, DEV_BUDGET_PREFIX, TOKEN,
                                     AccessToken, DeveloperItem)
from models.groups import GroupItem, JoinLock, JoinRequest, Participant
from models.identities import Identity
from models.notifications import (DIGEST_PERIODS, USER_PREFIX as NOTIFY_USER, Device, DeviceToken,
                                  DigestSubscriber, NotificationItem)
from models.people import USER_PREFIX as PEOPLE_USER, Friendship, GroupInvitation, HandleClaim, PeopleItem
from models.users import (ACCOUNT_DELETE, DELETING, PROFILE, ChatMessage, JoinRequestPointer,
                          McpCleanupPointer, Profile, SentInvitation, UserItem)

# A stalled deletion (a crash, a lost message) is resumed once it is this overdue; every
# run renews it first, so a deletion under way is left to the run that holds it.
RESUME_AFTER_SECONDS = 5 * 60
PAGE_SIZE = 100
# Query pages of a group's partition one unit of budget may sweep.
GROUP_SWEEP_PAGES = 5


def _sweep_partition(model, hash_key: str, keep=(), budget: Optional[Budget] = None) -> int:
    """Delete every row of one partition but the sort keys in ``keep``; passes repeat until
    one finds nothing, so rows written meanwhile are not left behind."""
    budget, removed = budget or unlimited(), 0
    while True:
        swept = 0
        for keys in model.raw_pages(hash_key, keys_only=True, page_size=PAGE_SIZE):
            budget.spend()
            rows = [key for key in keys if key[1] not in keep]
            model.raw_batch_delete(rows)
            swept += len(rows)
        removed += swept
        if not swept:
            return removed


# --- 1. mark -------------------------------------------------------------------------------

def mark(profile: Profile, budget: Optional[Budget] = None) -> int:
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


def renew(user_id: str) -> bool:
    """A run taking up a marked deletion pushes its due time on (False: no longer marked)."""
    return update_if(Profile(*Profile.key(user_id)),
                     [Profile.RecoveryDueAt.set(iso_in(RESUME_AFTER_SECONDS))],
                     Profile.Status == DELETING)


def pause_at(user_id: str, step_name: str) -> None:
    """A run out of budget records where it stopped, so the next one does not pay again for
    the steps before (with a small budget it would never get past them)."""
    update_if(Profile(*Profile.key(user_id)),
              [Profile.DeletionStep.set(step_name),
               Profile.RecoveryDueAt.set(iso_in(RESUME_AFTER_SECONDS))],
              Profile.Status == DELETING)


def unmark(profile: Profile) -> None:
    """Undo :func:`mark` (only when the groups step refuses before anything is removed)."""
    tx = Transaction()
    tx.update(Profile(*Profile.key(profile.UserId)),
              [Profile.Status.remove(), Profile.RecoveryState.remove(),
               Profile.RecoveryDueAt.remove(), Profile.DeletionStep.remove()],
              condition=Profile.Status == DELETING)
    for row in Identity.for_user(profile.UserId):
        tx.update(Identity(row.IdentityKey), [Identity.Deleting.remove()],
                  condition=Identity.UserId == profile.UserId)
    tx.commit()


# --- 2. developer tokens first, so personal access tokens stop working at once --------------

def developer(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Each token's idempotency rows, then the token (the GSI row that finds them); the app
    sign-in's idempotency records and the daily budget. Usage rows are in the user
    partition and go with it."""
    budget, user_id, removed = budget or unlimited(), profile.UserId, 0
    for token in list(AccessToken.for_owner(user_id)):
        budget.spend()
        removed += _sweep_partition(DeveloperItem, token.TokenId, keep=(TOKEN,), budget=budget)
        DeveloperItem.raw_batch_delete([(token.TokenId, TOKEN)])
        removed += 1
    removed += _sweep_partition(DeveloperItem, APP_CREDENTIAL_PREFIX + user_id, budget=budget)
    removed += _sweep_partition(DeveloperItem, DEV_BUDGET_PREFIX + user_id, budget=budget)
    return removed


# --- 3. groups -----------------------------------------------------------------------------

def receipts(profile: Profile, budget: Optional[Budget] = None) -> int:
    """The user's receipts no expense holds, in each group the user is in (before the
    groups step takes them out of those groups)."""
    budget = budget or unlimited()
    budget.spend()
    return receipt_cleanup.uploads_of(profile.UserId, departure.my_group_ids(profile.UserId))


def groups(profile: Profile, budget: Optional[Budget] = None) -> int:
    """USER participants back to GUESTs (one transaction per group); sole-user groups go,
    their sweeps a few pages per unit of budget."""
    budget, changed = budget or unlimited(), 0
    for group_id in departure.my_group_ids(profile.UserId):
        while True:
            budget.spend()
            try:
                changed += departure.depart(profile.UserId, group_id,
                                            max_pages=budget.pages(GROUP_SWEEP_PAGES)) \
                    != departure.GONE
                break
            except departure.SweepIncomplete:
                continue  # the group is tombstoned: the next piece (or run) sweeps on
    return changed


def join_requests(profile: Profile, budget: Optional[Budget] = None) -> int:
    (budget or unlimited()).spend()
    return departure.cancel_pending_requests(profile.UserId)


def join_history(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Every join request the user ever submitted, whatever its status or group (decided
    ones carry the applicant's name and message), with the user's lock in that group (a
    DENIED lock would stay forever), found through the pointers written with them."""
    budget, user_id, removed = budget or unlimited(), profile.UserId, 0
    for page in JoinRequestPointer.pages_of(user_id, PAGE_SIZE):
        budget.spend()
        keys = [(row.GroupId, JoinRequest.sort_key(row.RequestId)) for row in page]
        keys += [(row.GroupId, JoinLock.sort_key(user_id)) for row in page]
        GroupItem.raw_batch_delete(list(dict.fromkeys(keys)))  # one lock per group
        UserItem.raw_batch_delete([(row.UserId, row.SK) for row in page])
        removed += len(page)
    return removed


# --- 4. people: reservations before invitations, then friends, handle, directory ----------

def reservations(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Each invitation's reserved guest loses its deadline and its link to this account (the
    guest, its id and its history stay). The invitation is what finds the guest, so it is
    deleted only in the next step."""
    budget, cleared = budget or unlimited(), 0
    for row in list(GroupInvitation.for_invitee(profile.UserId, consistent_read=True)):
        budget.spend()
        if row.ParticipantId:
            cleared += update_if(
                Participant(row.GroupId, Participant.sort_key(row.ParticipantId)),
                [Participant.InviteExpiresAt.remove(), Participant.InvitedUserId.remove()],
                Participant.InvitedUserId == profile.UserId)
    return cleared


def invitations(profile: Profile, budget: Optional[Budget] = None) -> int:
    """The inviters' pointers to invitations the user received (they name the user), then
    the invitations (which find the pointers, so they go second)."""
    (budget or unlimited()).spend()
    rows = list(GroupInvitation.for_invitee(profile.UserId, consistent_read=True))
    UserItem.raw_batch_delete(list(dict.fromkeys(
        (row.InvitedBy, SentInvitation.sort_key(row.GroupId, profile.UserId)) for row in rows)))
    PeopleItem.raw_batch_delete([(row.PK, row.SK) for row in rows])
    return len(rows)


def sent_invitations(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Invitations the user sent are withdrawn (nobody can accept them afterwards; the
    reserved guest stays, as on a revoke), then their pointers go."""
    budget, user_id, withdrawn = budget or unlimited(), profile.UserId, 0
    for page in SentInvitation.pages_of(user_id, PAGE_SIZE):
        budget.spend()
        for row in page:
            withdrawn += withdraw_sent_by(user_id, row.InviteeUserId, row.GroupId)
        UserItem.raw_batch_delete([(row.UserId, row.SK) for row in page])
    return withdrawn


def people(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Friends' rows about us before our own (ours are how we find theirs); the handle claim
    the profile names now (not when the deletion began); then the rest of our People
    partition (directory rows)."""
    budget, user_id, removed = budget or unlimited(), profile.UserId, 0
    budget.spend()
    friends = [row.FriendUserId for row in Friendship.of(user_id, consistent_read=True)]
    PeopleItem.raw_batch_delete([Friendship.key(other, user_id) for other in friends])
    removed += len(friends)
    current = _fresh(user_id)
    if current is not None and current.Handle:
        removed += delete_if(HandleClaim(*HandleClaim.key(current.Handle)),
                             HandleClaim.UserId == user_id)
    removed += _sweep_partition(PeopleItem, PEOPLE_USER + user_id, budget=budget)
    return removed


def _fresh(user_id: str) -> Optional[Profile]:
    try:
        return Profile.get(*Profile.key(user_id), consistent_read=True)
    except Profile.DoesNotExist:
        return None


# --- 5. notifications ----------------------------------------------------------------------

def notifications(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Each device's token claim before the device (the device row finds the claim), then the
    partition: preferences and history."""
    budget, user_id, removed = budget or unlimited(), profile.UserId, 0
    budget.spend()
    for device in list(Device.of_user(user_id, consistent_read=True)):
        removed += delete_if(DeviceToken(*DeviceToken.key(device.Token)),
                             (DeviceToken.UserId == user_id)
                             & (DeviceToken.DeviceId == device.DeviceId))
    # The digest's subscriber rows live in shared partitions, keyed by the user: both removed
    # by key in one BatchWriteItem (whether or not there is one; the digest run also drops a
    # row whose account is gone).
    NotificationItem.raw_batch_delete([DigestSubscriber.key(period, user_id)
                                       for period in DIGEST_PERIODS])
    removed += _sweep_partition(NotificationItem, NOTIFY_USER + user_id, budget=budget)
    return removed


# --- 6. the Users table: MCP locators, then the partition --------------------------------

def mcp_pointers(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Per page: the rows the pointers locate in other partitions, then the pointers, so a
    retry still finds every target whose pointer survived."""
    budget, removed = budget or unlimited(), 0
    for page in McpCleanupPointer.pages_of(profile.UserId, PAGE_SIZE):
        budget.spend()
        UserItem.raw_batch_delete([(row.TargetUserId, row.TargetSK) for row in page])
        UserItem.raw_batch_delete([(row.UserId, row.SK) for row in page])
        removed += 2 * len(page)
    return removed


def chat_work(profile: Profile, budget: Optional[Budget] = None) -> int:
    """The work pointers (in chat's service partitions) of the user's unfinished messages,
    before the partition holding the messages that name them."""
    budget = budget or unlimited()
    budget.spend()
    keys = [m.work_pointer_key() for m in ChatMessage.with_work_pointer(profile.UserId, PAGE_SIZE)]
    UserItem.raw_batch_delete(keys)
    return len(keys)


def user_partition(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Everything of the user's partition but PROFILE, the tombstone that goes last."""
    return _sweep_partition(UserItem, profile.UserId, keep=(PROFILE,), budget=budget)


# --- 6b. everything again, read now: what was written while the deletion ran --------------

def late_sweep(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Every finder above once more, just before the tombstone. Writes of the account stop
    at the mark (each conditions on a live profile), but a row committed just before it
    may reach an index (tokens by owner, requests by applicant, memberships) only later;
    this pass reads every such index and partition again, so nothing of it outlives the
    deletion. It finds nothing in the common case, at the cost of its reads. A run out of
    budget records which finder it stopped at (``lateSweep#<n>``), the next goes on there."""
    budget, removed = budget or unlimited(), 0
    for index in range(_late_start(profile), len(LATE_FINDERS)):
        try:
            removed += LATE_FINDERS[index](profile, budget)
        except OutOfBudget:
            raise OutOfBudget(at=f"{LATE_SWEEP}#{index}") from None
    return removed


LATE_SWEEP = "lateSweep"
LATE_FINDERS = (receipts, groups, developer, join_requests, join_history, reservations, invitations,
                sent_invitations, people, notifications, mcp_pointers, chat_work, user_partition)


def _late_start(profile: Profile) -> int:
    step = profile.DeletionStep or ""
    if not step.startswith(LATE_SWEEP + "#"):
        return 0
    return min(int(step.rsplit("#", 1)[1]), len(LATE_FINDERS) - 1)


# --- 7. sign-in: the directory user, the identities, then the profile ----------------------

def _identities(user_id: str) -> List[Identity]:
    return list(Identity.for_user(user_id))


def sign_in_user(profile: Profile, budget: Optional[Budget] = None) -> int:
    """The Cognito user (a recorder locally), found through its identity row, so before it."""
    admin = directory()
    subjects = [row.Subject for row in _identities(profile.UserId) if row.Provider == admin.provider]
    for subject in subjects:
        admin.delete_user(subject)
    return len(subjects)


def identities(profile: Profile, budget: Optional[Budget] = None) -> int:
    """Identities last but the tombstone: a crash here leaves an account that cannot sign in
    (every identity is flagged), never one that signs in to no profile."""
    removed = 0
    for row in _identities(profile.UserId):
        removed += delete_if(Identity(row.IdentityKey), Identity.UserId == profile.UserId)
    return removed


def tombstone(profile: Profile, budget: Optional[Budget] = None) -> int:
    return int(delete_if(Profile(*Profile.key(profile.UserId)), Profile.Status == DELETING))
