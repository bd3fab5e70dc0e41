"""People races on real threads against the serialized embedded DynamoDB endpoint.

Each round releases the racing service calls together (``race`` from the membership races)
and then checks the invariants: one owner per handle; one USER per guest slot with its
USERMEMBER guard pointing at it; the guest's expense untouched; no live reservation left
behind by a consumed or withdrawn invitation."""
from __future__ import annotations

import time

import pytest

from app.errors import DomainError
from app.core.access import authorize
from app.core.clock import iso_in, new_id, now_iso
from app.groups import join_requests
from app.people import handles, invitations
from models.groups import Expense, ItemMap, Participant, PaymentMap, SplitMap, UserMember
from models.people import GroupInvitation, HandleClaim
from models.users import Profile
from tests.groups.test_races import (codes, guest_row, pending, profile, put_all, race,
                                     world)  # noqa: F401 — `world` is a fixture

pytestmark = pytest.mark.race
ROUNDS = 30


def _discoverable(user_id: str) -> Profile:
    row = profile(user_id)
    row.Discoverable = True
    return row


def _expense_naming(world, guest: str) -> Expense:
    expense_id = new_id()
    return Expense(world.gid, Expense.sort_key(expense_id), ExpenseId=expense_id,
                   Description="Taxi", Date="2026-01-02", Currency="EUR", Amount=900,
                   Payments=[PaymentMap(ParticipantId=world.owner_pid, Amount=900)],
                   Items=[ItemMap(Name="Taxi", Amount=900, SplitMode="EQUAL",
                                  Splits=[SplitMap(ParticipantId=guest, Value=1, Amount=900)])])


def _reserved(world, guest: str, invitee: str) -> tuple:
    """A guest reserved for ``invitee`` and its invitation, as ``invite`` leaves them."""
    expires = iso_in(3600)
    row = guest_row(world, guest)
    row.InvitedUserId, row.InviteExpiresAt = invitee, expires
    invitation = GroupInvitation.build(invitee, world.gid, Role="MEMBER", ParticipantId=guest,
                                       InvitedBy=world.owner, CreatedAt=now_iso(),
                                       ExpiresAt=expires)
    return row, invitation



def _slot_invariants(world, guest: str, expense: Expense) -> Participant:
    """One USER per slot, guards mirror participants, the expense is byte-for-byte kept."""
    slot = Participant.get(world.gid, Participant.sort_key(guest), consistent_read=True)
    guards = [g for g in UserMember.query(world.gid, UserMember.SK.startswith("USERMEMBER#"),
                                          consistent_read=True) if g.ParticipantId == guest]
    if slot.Type == "USER":
        assert [g.SK for g in guards] == [UserMember.sort_key(slot.UserId)]
        assert slot.InviteExpiresAt is None
    else:
        assert guards == []
    kept = Expense.get(world.gid, expense.SK, consistent_read=True)
    assert kept.serialize() == expense.serialize()
    return slot


def test_two_users_claiming_one_handle_leave_one_owner(world):
    for round_no in range(ROUNDS):
        users = (new_id(), new_id())
        put_all(world, *map(profile, users))
        handle = f"race_{round_no}"
        outcomes = race(*(lambda uid=uid: handles.set_handle(uid, handle, discoverable=True)
                          for uid in users))
        assert codes(outcomes) == ["HANDLE_TAKEN"], outcomes
        winner = users[0] if not isinstance(outcomes[0], DomainError) else users[1]
        loser = users[1] if winner == users[0] else users[0]
        assert HandleClaim.get(*HandleClaim.key(handle), consistent_read=True).UserId == winner
        assert Profile.get(*Profile.key(winner), consistent_read=True).Handle == handle
        assert Profile.get(*Profile.key(loser), consistent_read=True).Handle is None


# Revoke holds a shorter path than accept and wins a plain race nearly every time on a slow
# machine; starting it later by a growing offset sweeps the overlap from "revoke first" through
# truly interleaved to "accept first", so both outcomes are met in every run.
REVOKE_OFFSETS = (0.0, 0.005, 0.01, 0.02, 0.04, 0.08)


def test_accept_racing_revoke_ends_in_exactly_one_of_them(world):
    seen = set()
    for round_no in range(ROUNDS):
        guest, invitee = new_id(), new_id()
        row, invitation = _reserved(world, guest, invitee)
        expense = _expense_naming(world, guest)
        put_all(world, _discoverable(invitee), row, invitation, expense)
        owner = authorize(world.owner, world.gid, "OWNER")
        offset = REVOKE_OFFSETS[round_no % len(REVOKE_OFFSETS)]

        def revoke_later():
            time.sleep(offset)
            return invitations.revoke(owner, invitee)

        accepted, revoked = race(lambda: invitations.accept(invitee, world.gid), revoke_later)
        failed = codes([accepted, revoked])
        assert len(failed) == 1 and failed[0] in ("INVITATION_CHANGED", "NOT_FOUND"), failed
        slot = _slot_invariants(world, guest, expense)
        if isinstance(revoked, DomainError):
            seen.add("accept")
            assert (slot.Type, slot.UserId) == ("USER", invitee)
        else:
            seen.add("revoke")
            assert (slot.Type, slot.InvitedUserId, slot.InviteExpiresAt) == (
                "GUEST", invitee, None)
        assert GroupInvitation.count(invitation.PK, consistent_read=True) == 0
    assert seen == {"accept", "revoke"}, seen


def test_accept_racing_a_takeover_approval_of_the_same_guest_keeps_one_user(world):
    for _ in range(ROUNDS):
        guest, invitee, applicant = new_id(), new_id(), new_id()
        row, invitation = _reserved(world, guest, invitee)
        expense = _expense_naming(world, guest)
        request_id, request, lock = pending(world, applicant, "TAKEOVER", guest)
        put_all(world, _discoverable(invitee), profile(applicant), row, invitation, expense,
                request, lock)
        accepted, approved = race(
            lambda: invitations.accept(invitee, world.gid),
            lambda: join_requests.approve_join_request(
                authorize(world.owner, world.gid, "OWNER"), request_id, role="MEMBER"))
        # A live reservation is never taken over: the invitee always gets their slot.
        assert codes([accepted, approved]) == ["TARGET_NOT_GUEST"], (accepted, approved)
        slot = _slot_invariants(world, guest, expense)
        assert (slot.Type, slot.UserId) == ("USER", invitee)


def test_two_owners_inviting_two_users_into_one_guest_reserve_it_once(world):
    second_owner, second_pid = new_id(), new_id()
    put_all(world, profile(second_owner),
            Participant(world.gid, Participant.sort_key(second_pid), ParticipantId=second_pid,
                        Type="USER", UserId=second_owner, DisplayName="Sam", Role="OWNER"),
            UserMember(world.gid, UserMember.sort_key(second_owner), ParticipantId=second_pid,
                       Role="OWNER"))
    for _ in range(ROUNDS):
        guest, invitees = new_id(), (new_id(), new_id())
        expense = _expense_naming(world, guest)
        put_all(world, guest_row(world, guest), expense, *map(_discoverable, invitees))
        outcomes = race(*(lambda actor=actor, invitee=invitee: invitations.invite(
            authorize(actor, world.gid, "OWNER"), invitee, role="MEMBER", participant_id=guest)
            for actor, invitee in zip((world.owner, second_owner), invitees, strict=True)))
        assert codes(outcomes) == ["TARGET_NOT_GUEST"], outcomes
        winner = invitees[0] if isinstance(outcomes[0], GroupInvitation) else invitees[1]
        loser = invitees[1] if winner == invitees[0] else invitees[0]
        slot = _slot_invariants(world, guest, expense)
        assert (slot.Type, slot.InvitedUserId) == ("GUEST", winner)
        assert GroupInvitation.count(f"USER#{loser}", consistent_read=True) == 0
        # The winner can still accept the slot that was reserved for them.
        invitations.accept(winner, world.gid)
        assert _slot_invariants(world, guest, expense).UserId == winner
