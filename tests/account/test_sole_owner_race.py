"""The sole-owner check cannot lose a race: W accepting V's invitation while V deletes their
account ends with W in a live group and V's deletion refused (409 SOLE_OWNER, the account
handed back), or with W refused and the group deleted, never with the group deleted under W.

The deterministic tests put W's accept at the two exact points a real race can hit (the
hook sits on botocore, below our code); the threaded test races them on the serialized
embedded endpoint."""
from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from app.errors import DomainError
from app.account import deletion
from app.core.access import authorize
from app.core.clock import new_id
from app.groups import groups
from app.people import invitations
from models.groups import Group, UserMember
from models.users import Profile
from tests.groups.test_races import race
from tests.support.interleave import just_after, just_before


def _setup() -> SimpleNamespace:
    """V alone in a group (its only user and owner) and an invitation of theirs to W."""
    v, w = new_id(), new_id()
    Profile(*Profile.key(v), Email=f"{v}@example.com", DisplayName="Vera").save()
    Profile(*Profile.key(w), Email=f"{w}@example.com", DisplayName="Walt",
            Discoverable=True).save()
    group = groups.create_group(v, name="Solo", currency="EUR")
    invitations.invite(authorize(v, group.group_id, "OWNER"), w, role="MEMBER")
    return SimpleNamespace(v=v, w=w, gid=group.group_id)


def _head(gid):
    try:
        return Group.get(*Group.key(gid), consistent_read=True)
    except Group.DoesNotExist:
        return None


def _assert_w_kept_the_group(world, outcome) -> None:
    assert isinstance(outcome, DomainError) and outcome.code == "SOLE_OWNER", outcome
    assert _head(world.gid).Status == "ACTIVE"
    assert UserMember.get(world.gid, UserMember.sort_key(world.w), consistent_read=True)
    assert Profile.get(*Profile.key(world.v), consistent_read=True).Status is None


def _delete(user_id):
    try:
        return deletion.delete_account(user_id)
    except DomainError as error:
        return error


def test_an_accept_between_the_roster_read_and_the_tombstone_keeps_the_group(aws):
    world = _setup()
    # The first UpdateItem of the deletion is its first write to the group head: W's accept
    # commits right after the deletion read a roster with nobody but V.
    with just_before("UpdateItem", lambda: invitations.accept(world.w, world.gid)):
        outcome = _delete(world.v)
    _assert_w_kept_the_group(world, outcome)


def test_an_accept_after_the_fence_is_refused_and_the_group_goes(aws):
    world = _setup()
    refused = []

    def accept():
        try:
            invitations.accept(world.w, world.gid)
        except DomainError as error:
            refused.append(error.code)

    with just_after("UpdateItem", accept):
        assert _delete(world.v).done
    assert refused == ["NOT_FOUND"]
    assert _head(world.gid) is None
    assert UserMember.count(world.gid) == 0


def _later(seconds, call):
    def run():
        time.sleep(seconds)
        return call()
    return run


@pytest.mark.race
def test_accepting_while_the_sole_owner_deletes_never_strands_the_joiner(live_db):
    # The accept starts a little later each round, so rounds land before, inside and after
    # the deletion's fence (which comes a dozen calls into it).
    for delay in (0.0, 0.01, 0.02, 0.025, 0.03, 0.035, 0.04, 0.08):
        world = _setup()
        deleted, accepted = race(lambda: _delete(world.v),
                                 _later(delay, lambda: invitations.accept(world.w, world.gid)))
        head = _head(world.gid)
        if isinstance(accepted, DomainError):  # W lost: the group went with V
            assert deleted.done and head is None, (deleted, accepted)
        else:  # W got in: V may not leave them without an owner
            assert not isinstance(accepted, Exception), accepted
            _assert_w_kept_the_group(world, deleted)
