"""Join requests: submit with an invite code, owner review, approve, deny, cancel.

One pending request per applicant and group is held by the ``JOINLOCK#<userId>`` row; a
denial turns that lock into a DENIED lock, which only a submission carrying the current
valid code may replace. Approval is one TransactWrite (the seed's "Atomic approve"):
TAKEOVER flips the target guest to USER keeping its ParticipantId, NEW puts a fresh
participant; both write the USERMEMBER guard, drop the sparse index keys and release the
lock. OWNER is never granted here."""
from __future__ import annotations

from typing import Optional

from app.errors import (Conflict, Invalid, already_member, group_not_found, id_collision, not_found,
                        target_not_guest)
from app.groups.errors import NotPending, not_pending, request_pending
from app.core import changelog, outbox, paging
from app.core.access import Access, is_live, refuse_archived
from app.core.clock import new_id, now_iso
from app.groups.invite import check_code_still_valid, is_claimable, require_valid_code
from app.groups.membership import (GUEST, USER, change_counts, require_live_group,
                                   require_still_owner)
from app.core.transactions import Transaction
from models.groups import Balance, Group, GroupItem, JoinLock, JoinRequest, Participant, UserMember
from models.users import JoinRequestPointer, Profile

PENDING, APPROVED, DENIED, CANCELLED = "PENDING", "APPROVED", "DENIED", "CANCELLED"
NEW, TAKEOVER = "NEW", "TAKEOVER"
JOIN_ROLES = ("MEMBER", "VIEWER")


def _claimable_condition(now: str):
    """Type = GUEST, no live reservation (InviteExpiresAt in the future), not mid-transfer."""
    return ((Participant.Type == GUEST)
            & (Participant.InviteExpiresAt.does_not_exist() | (Participant.InviteExpiresAt <= now))
            & Participant.TransferTarget.does_not_exist())


def _close(tx: Transaction, request: JoinRequest, status: str, now: str,
           extra_actions: tuple = ()) -> None:
    """Flip a PENDING request to ``status`` in ``tx`` and drop it from both pending indexes."""
    actions = [JoinRequest.Status.set(status), JoinRequest.UpdatedAt.set(now),
               *JoinRequest.unfile_actions(), *extra_actions]
    tx.update(JoinRequest(request.GroupId, request.SK), actions,
              condition=JoinRequest.Status == PENDING, on_fail=not_pending())


def _release_lock(tx: Transaction, request: JoinRequest) -> None:
    """Delete the applicant's lock if it belongs to this request (a missing lock is fine)."""
    tx.delete(JoinLock(request.GroupId, JoinLock.sort_key(request.ApplicantUserId)),
              condition=JoinLock.SK.does_not_exist() | (JoinLock.RequestId == request.RequestId),
              on_fail=not_pending())


def decision_prefetch(request_id: str) -> tuple:
    """Sort keys to read while authorizing an approve or deny (saves a round trip)."""
    return (JoinRequest.sort_key(request_id),)


def _get_request(group_id: str, request_id: str, access: Optional[Access] = None) -> JoinRequest:
    sort_key = JoinRequest.sort_key(request_id)
    if access is not None and sort_key in access.prefetched:
        raw = access.prefetched[sort_key]
        row = GroupItem.from_raw_data(raw) if raw else None
        if not isinstance(row, JoinRequest):
            raise not_found("Join request")
        return row
    try:
        return JoinRequest.get(group_id, JoinRequest.sort_key(request_id), consistent_read=True)
    except JoinRequest.DoesNotExist:
        raise not_found("Join request") from None


def _display_name(user_id: str, fallback: Optional[str]) -> str:
    try:
        return Profile.get(*Profile.key(user_id)).DisplayName
    except Profile.DoesNotExist:
        return fallback or "New member"


# --- applicant -----------------------------------------------------------------------------

def submit_join_request(user_id: str, group_id: str, *, code: str, mode: str,
                        target_participant_id: Optional[str] = None,
                        proposed_role: Optional[str] = None,
                        message: Optional[str] = None) -> dict:
    """A PENDING request, or NotFound (bad code) / ALREADY_MEMBER / REQUEST_PENDING."""
    invite = require_valid_code(group_id, code)
    head, guard, lock, target = _applicant_state(group_id, user_id, target_participant_id)
    if not is_live(head):
        raise group_not_found()
    refuse_archived(head, writing=True)  # joining changes the roster: archived is read-only
    if guard is not None:
        raise already_member()
    if lock is not None and lock.LockType == PENDING:
        raise request_pending()
    now = now_iso()
    if mode == TAKEOVER:
        if target is None:
            raise not_found("Participant")
        if not is_claimable(target, now):
            raise target_not_guest()

    request_id = new_id()
    request = JoinRequest(group_id, JoinRequest.sort_key(request_id), RequestId=request_id,
                          ApplicantUserId=user_id,
                          ApplicantDisplayName=_display_name(user_id, None), Mode=mode,
                          TargetParticipantId=target_participant_id,
                          ProposedRole=proposed_role or invite.DefaultRole, Status=PENDING,
                          Message=message, CreatedAt=now, UpdatedAt=now).mark_pending()
    tx = Transaction().require_live_account(user_id)
    require_live_group(tx, group_id)
    check_code_still_valid(tx, group_id, code)
    tx.check(UserMember, group_id, UserMember.sort_key(user_id),
             condition=UserMember.SK.does_not_exist(), on_fail=already_member())
    if mode == TAKEOVER:
        tx.check(Participant, group_id, Participant.sort_key(target_participant_id),
                 condition=_claimable_condition(now), on_fail=target_not_guest())
    tx.put(request, condition=JoinRequest.SK.does_not_exist(),
           on_fail=id_collision())
    new_lock = JoinLock(group_id, JoinLock.sort_key(user_id), LockType=PENDING,
                        RequestId=request_id, CreatedAt=now)
    if lock is None:
        lock_condition = JoinLock.SK.does_not_exist()
    else:  # a DENIED lock: replaceable because the code was checked in this same transaction
        lock_condition = (JoinLock.LockType == DENIED) & (JoinLock.RequestId == lock.RequestId)
    tx.put(new_lock, condition=lock_condition, on_fail=request_pending())
    # The applicant's pointer: their account deletion finds the request whatever it became.
    tx.put(JoinRequestPointer.build(user_id, group_id, request_id))
    outbox.add_event(tx, "JOIN_REQUEST_SUBMITTED", scope_id=group_id, resource_id=request_id,
                     actor_user_id=user_id, group_id=group_id,
                     payload={"mode": mode, "applicantUserId": user_id})
    tx.commit()
    return request


def _applicant_state(group_id: str, user_id: str, target_participant_id: Optional[str]):
    """(head, guard, lock, target) from one strongly consistent BatchGetItem."""
    keys = [Group.key(group_id), (group_id, UserMember.sort_key(user_id)),
            (group_id, JoinLock.sort_key(user_id))]
    if target_participant_id:
        keys.append((group_id, Participant.sort_key(target_participant_id)))
    found = {type(row): row for row in GroupItem.batch_get(keys, consistent_read=True)}
    return (found.get(Group), found.get(UserMember), found.get(JoinLock),
            found.get(Participant))


def cancel_join_request(user_id: str, group_id: str, request_id: str) -> None:
    """The applicant withdraws a PENDING request; someone else's request is NotFound."""
    request = _get_request(group_id, request_id)
    if request.ApplicantUserId != user_id:
        raise not_found("Join request")
    if request.Status != PENDING:
        raise not_pending()
    tx = Transaction()
    require_live_group(tx, group_id)
    _close(tx, request, CANCELLED, now_iso())
    _release_lock(tx, request)
    tx.commit()


def my_pending_requests(user_id: str, *, limit: Optional[int], cursor: Optional[str],
                        scope: str) -> paging.Page:
    """The caller's PENDING requests across groups (UserPendingJoinRequestsIndex)."""
    rows = JoinRequest.pending_for_applicant(user_id, limit=paging.clamp_limit(limit),
                                             last_evaluated_key=paging.decode(cursor, scope))
    return paging.page_of(rows, scope)


# --- owner ---------------------------------------------------------------------------------

def pending_requests(access: Access, *, limit: Optional[int], cursor: Optional[str],
                     scope: str) -> paging.Page:
    """The group's PENDING requests, oldest first (PendingJoinRequestsIndex)."""
    rows = JoinRequest.pending_for_group(access.group_id, limit=paging.clamp_limit(limit),
                                         last_evaluated_key=paging.decode(cursor, scope))
    return paging.page_of(rows, scope)


def approve_join_request(access: Access, request_id: str, *, role: str) -> dict:
    """Approve in one TransactWrite; returns ``{request, participant}``.

    Failed conditions map to NOT_PENDING (request), TARGET_NOT_GUEST (takeover target) or
    ALREADY_MEMBER (the applicant's USERMEMBER guard already exists)."""
    if role not in JOIN_ROLES:
        raise Invalid("A join request grants MEMBER or VIEWER, never OWNER.",
                      details={"role": ["Must be MEMBER or VIEWER."]})
    request = _get_request(access.group_id, request_id, access)
    if request.Status != PENDING:
        raise not_pending()
    now, applicant = now_iso(), request.ApplicantUserId
    name = _display_name(applicant, request.ApplicantDisplayName)
    participant_id = request.TargetParticipantId if request.Mode == TAKEOVER else new_id()
    participant = Participant(access.group_id, Participant.sort_key(participant_id),
                              ParticipantId=participant_id, Type=USER, UserId=applicant,
                              DisplayName=name, Role=role, ClaimedAt=now, UpdatedAt=now)

    # The applicant becomes a member: only while their account is live.
    tx = Transaction().require_live_account(applicant, on_fail=not_pending())
    if request.Mode == TAKEOVER:
        require_live_group(tx, access.group_id, roster_change=True)
    else:  # a new participant: counted against the cap (409 GROUP_FULL) in this transaction
        change_counts(tx, access.group, participants=1)
    require_still_owner(tx, access)
    _close(tx, request, APPROVED, now, (
        JoinRequest.FinalRole.set(role), JoinRequest.DecidedAt.set(now),
        JoinRequest.DecidedBy.set(access.user_id), JoinRequest.ParticipantId.set(participant_id)))
    if request.Mode == TAKEOVER:
        # Same row, same ParticipantId: history keeps pointing at this person. Stale
        # reservation attributes go; a live reservation fails the condition.
        tx.update(Participant(access.group_id, participant.SK), [
            Participant.Type.set(USER), Participant.UserId.set(applicant),
            Participant.DisplayName.set(name), Participant.Role.set(role),
            Participant.ClaimedAt.set(now), Participant.UpdatedAt.set(now),
            Participant.InviteExpiresAt.remove(), Participant.InvitedUserId.remove()],
            condition=_claimable_condition(now), on_fail=target_not_guest())
    else:
        participant.CreatedAt = now
        tx.put(participant, condition=Participant.SK.does_not_exist(),
               on_fail=id_collision())
    tx.put(UserMember(access.group_id, UserMember.sort_key(applicant),
                      ParticipantId=participant_id, Role=role, CreatedAt=now),
           condition=UserMember.SK.does_not_exist(), on_fail=already_member("The applicant is"))
    tx.update(Balance(*Balance.key(access.group_id)), [Balance.bind_user(participant_id, applicant)])
    # Membership supersedes any join lock of this applicant, so the lock goes whoever holds it.
    tx.delete(JoinLock(request.GroupId, JoinLock.sort_key(applicant)))
    _decided_event(tx, access, request, APPROVED)
    changelog.record(tx, access.group, participant,
                     changelog.UPDATE if request.Mode == TAKEOVER else changelog.CREATE,
                     actor=access.participant_id)
    _commit_decision(tx, request)

    request.Status, request.FinalRole, request.DecidedAt = APPROVED, role, now
    request.ParticipantId = participant_id
    return {"request": request, "participant": participant}


def deny_join_request(access: Access, request_id: str) -> JoinRequest:
    """Deny; the applicant's pending lock becomes a DENIED lock in the same transaction."""
    request = _get_request(access.group_id, request_id, access)
    if request.Status != PENDING:
        raise not_pending()
    now = now_iso()
    tx = Transaction()
    require_live_group(tx, access.group_id)
    require_still_owner(tx, access)
    _close(tx, request, DENIED, now, (JoinRequest.DecidedAt.set(now),
                                       JoinRequest.DecidedBy.set(access.user_id)))
    tx.put(JoinLock(access.group_id, JoinLock.sort_key(request.ApplicantUserId),
                    LockType=DENIED, RequestId=request.RequestId, CreatedAt=now),
           condition=JoinLock.SK.does_not_exist() | (JoinLock.RequestId == request.RequestId),
           on_fail=not_pending())
    _decided_event(tx, access, request, DENIED)
    _commit_decision(tx, request)
    request.Status, request.DecidedAt = DENIED, now
    return request


def _commit_decision(tx: Transaction, request: JoinRequest) -> None:
    """Commit an owner's decision; losing to another decision is always NOT_PENDING.

    The guard and event puts are sent before the request update, so a decision that lost
    the race fails on them first (ALREADY_MEMBER, DUPLICATE_EVENT); the request's own state
    is the truer answer."""
    try:
        tx.commit()
    except Conflict as error:
        if not isinstance(error, NotPending) and _get_request(request.GroupId,
                                                         request.RequestId).Status != PENDING:
            raise not_pending() from error
        raise


def _decided_event(tx: Transaction, access: Access, request: JoinRequest, status: str) -> None:
    # The applicant is the one who cares and is not (yet) a participant, so the default
    # recipients (the group's users) would miss them: name them explicitly.
    outbox.add_event(tx, "JOIN_REQUEST_DECIDED", scope_id=access.group_id,
                     resource_id=request.RequestId, actor_user_id=access.user_id,
                     group_id=access.group_id, recipients={request.ApplicantUserId},
                     payload={"status": status, "mode": request.Mode,
                              "applicantUserId": request.ApplicantUserId})


# --- cascade -------------------------------------------------------------------------------

def cancel_takeovers_of(group_id: str, participant_id: str) -> int:
    """Cancel every PENDING TAKEOVER aimed at a removed guest; returns how many.

    One transaction per request, so an owner deciding one of them concurrently (its
    condition fails: NOT_PENDING) is skipped instead of failing the whole pass."""
    cancelled = 0
    targeting = JoinRequest.TargetParticipantId == participant_id
    for request in JoinRequest.pending_for_group(group_id, filter_condition=targeting):
        tx = Transaction()
        _close(tx, request, CANCELLED, now_iso())
        _release_lock(tx, request)
        try:
            tx.commit()
            cancelled += 1
        except Conflict as error:
            if not isinstance(error, NotPending):
                raise
    return cancelled
