"""DELETE /users/me: refusals, what stays (guests and their history), what goes (everything
else of the account, in every table), and resumption after a crash between any two steps."""
from __future__ import annotations

import pytest

from app.account import deletion
from app.core.clock import iso_in
from app.maintenance import run_maintenance
from app.auth.local_issuer import subject_for_email
from models.groups import Group, GroupItem, Participant, UserMember
from models.identities import Identity
from models.users import Profile, UserItem
from tests.account.conftest import rows_naming
from tests.ledger.helpers import assert_balance_matches_rows


def _participants(client, headers, gid):
    return {p["participantId"]: p for p in
            client.get(f"/groups/{gid}/participants", headers=headers).get_json()["items"]}


def _nets(client, headers, gid):
    reply = client.get(f"/groups/{gid}/balances", headers=headers).get_json()
    return {b["participantId"]: b["net"] for b in reply["balances"]}


def _assert_all_gone(world, directory):
    """No row of any table names the user or their e-mail (MCP targets included), every
    group's balances equal a recomputation, and the sign-in user went too."""
    assert rows_naming(world.dora, world.email) == []
    assert UserItem.raw_batch_get(world.mcp_targets) == {}
    for gid in world.groups:
        assert_balance_matches_rows(gid)
    assert GroupItem.count(world.solo) == 0
    assert subject_for_email(world.email) in directory.deleted


def test_deletion_keeps_guests_and_history_and_removes_the_rest(client, world, directory):
    # The scan sees the user in every table a deletion must clean (it can fail).
    assert {table for table, _, _ in rows_naming(world.dora, world.email)} == {
        "users", "identities", "groups", "people", "developer-tokens", "notifications"}
    before = _nets(client, world.olive_h, world.shared)
    co_before = _nets(client, world.olive_h, world.co_owned)

    reply = client.delete("/users/me", headers=world.dora_h)

    assert reply.status_code == 204, reply.get_json()
    shared = _participants(client, world.olive_h, world.shared)[world.dora_pid]
    assert shared.pop("createdAt")  # when she entered the group: kept with her history
    assert shared == {"participantId": world.dora_pid, "type": "GUEST", "displayName": "Dora",
                      "role": "MEMBER", "household": None}
    assert _nets(client, world.olive_h, world.shared) == before
    assert _nets(client, world.olive_h, world.co_owned) == co_before
    assert _participants(client, world.olive_h, world.co_owned)[world.dora_owner_pid]["type"] == "GUEST"
    assert Group.get(*Group.key(world.co_owned)).OwnerCount == 1
    assert UserMember.count(world.co_owned, UserMember.SK == f"USERMEMBER#{world.dora}") == 0
    reserved = Participant.get(world.invited, Participant.sort_key(world.reserved))
    assert (reserved.InvitedUserId, reserved.InviteExpiresAt, reserved.DisplayName) == (None, None, "D.")
    assert client.get(f"/groups/{world.pending}/join-requests",
                      headers=world.olive_h).get_json()["items"] == []
    assert client.get("/people/me/friends", headers=world.olive_h).get_json()["items"] == []
    assert client.get("/people/search?q=dora", headers=world.olive_h).get_json()["items"] == []
    _assert_all_gone(world, directory)
    assert directory.deleted == [subject_for_email(world.email)]


def test_a_deleted_users_tokens_get_401(client, world):
    assert client.delete("/users/me", headers=world.dora_h).status_code == 204
    for method, path in (("get", "/users/me"), ("get", "/users/me/groups"),
                         ("get", f"/groups/{world.shared}"), ("delete", "/users/me")):
        assert getattr(client, method)(path, headers=world.dora_h).status_code == 401, path
    assert client.get("/users/me/groups", headers=world.pat_h).status_code == 401


def test_marked_account_is_401_everywhere_but_the_call_that_finishes_it(client, world):
    profile = Profile.get(*Profile.key(world.dora))
    deletion.steps.mark(profile)  # as if a deletion had crashed right after marking
    app_identities = client.application.extensions["tailspend"].authenticator.identities
    app_identities.clear()  # another instance: nothing cached
    assert client.get("/users/me/groups", headers=world.dora_h).status_code == 401
    assert client.get("/people/me/friends", headers=world.dora_h).status_code == 401
    assert client.post("/dev/tokens", json={"email": world.email}).status_code == 401  # no sign-in
    assert client.delete("/users/me", headers=world.dora_h).status_code == 204


def test_profile_read_refuses_a_deleting_account_even_through_a_warm_cache(client, world):
    assert client.get("/users/me", headers=world.dora_h).status_code == 200  # cache is warm
    deletion.steps.mark(Profile.get(*Profile.key(world.dora)))  # marked by another instance
    assert client.get("/users/me", headers=world.dora_h).status_code == 401


def test_personal_access_tokens_cannot_delete_the_account(client, world):
    reply = client.delete("/users/me", headers=world.pat_h)
    assert reply.status_code == 403
    assert reply.get_json()["error"]["details"]["reason"] == "PAT_NOT_ALLOWED"
    assert Profile.get(*Profile.key(world.dora)).Status is None


def test_sole_owner_of_a_group_with_other_users_is_refused_and_nothing_changes(client, world):
    olive_pid = [p for p in _participants(client, world.dora_h, world.co_owned).values()
                 if p.get("userId") == world.olive][0]["participantId"]
    assert client.patch(f"/groups/{world.co_owned}/participants/{olive_pid}",
                        json={"role": "MEMBER"}, headers=world.dora_h).status_code == 200

    reply = client.delete("/users/me", headers=world.dora_h)

    assert reply.status_code == 409
    error = reply.get_json()["error"]
    assert error["code"] == "SOLE_OWNER"
    assert error["details"]["groups"] == [{"groupId": world.co_owned, "name": "Co-owned"}]
    assert client.get("/users/me", headers=world.dora_h).status_code == 200
    assert Profile.get(*Profile.key(world.dora)).Status is None


def test_a_user_joining_after_the_check_hands_the_account_back(client, world, monkeypatch):
    """SOLE_OWNER found only by the groups step (someone joined after the check): the
    account is unmarked, still signs in, and nothing but memberships changed."""
    monkeypatch.setattr(deletion, "sole_owner_groups", lambda user_id: [])
    olive_pid = [p for p in _participants(client, world.dora_h, world.co_owned).values()
                 if p.get("userId") == world.olive][0]["participantId"]
    client.patch(f"/groups/{world.co_owned}/participants/{olive_pid}", json={"role": "MEMBER"},
                 headers=world.dora_h)
    reply = client.delete("/users/me", headers=world.dora_h)
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "SOLE_OWNER"
    assert client.get("/users/me", headers=world.dora_h).status_code == 200
    assert all(not row.Deleting for row in Identity.for_user(world.dora))


def test_signing_up_again_with_the_same_email_gives_a_fresh_account(client, world, sign_in):
    assert client.delete("/users/me", headers=world.dora_h).status_code == 204
    headers, user_id = sign_in(world.email, display_name="Dora again")
    assert user_id != world.dora
    me = client.get("/users/me", headers=headers).get_json()
    assert (me["email"], me["displayName"], me["handle"]) == (world.email, "Dora again", None)
    assert client.get("/users/me/groups", headers=headers).get_json()["items"] == []


class Crash(RuntimeError):
    pass


STEP_NAMES = [name for name, _ in deletion.STEPS]


@pytest.mark.parametrize("index, crash_after", list(enumerate(STEP_NAMES[:-1])))
def test_a_crash_after_any_step_is_finished_by_a_rerun(client, make_world, directory, index,
                                                       crash_after):
    """Kill the deletion after step k, for every k; then the user's retry (while they can
    still sign in) or the maintenance sweep (once overdue) finishes it, leaving nothing.

    One test per step (fresh tables are copies, cheap), so both workers share the walk."""
    world = make_world(str(index))

    def crash(name, crash_after=crash_after):
        if name == crash_after:
            raise Crash(name)

    with pytest.raises(Crash):
        deletion.delete_account(world.dora, after_step=crash)
    # This instance's identity cache is warm (the driver ran outside a request): the
    # profile read refuses the account all the same.
    assert client.get("/users/me", headers=world.dora_h).status_code == 401
    if index % 2 == 0 and index < STEP_NAMES.index("identities"):
        assert client.delete("/users/me", headers=world.dora_h).status_code == 204
    else:
        assert run_maintenance("accountDeletes") == {  # not due yet
            "resumedAccountDeletes": 0, "failedAccountDeletes": 0}
        Profile(*Profile.key(world.dora)).update(
            actions=[Profile.RecoveryDueAt.set(iso_in(-1))])
        assert run_maintenance("accountDeletes") == {
            "resumedAccountDeletes": 1, "failedAccountDeletes": 0}, crash_after
    _assert_all_gone(world, directory)
    assert Profile.count(world.dora) == 0


def test_account_deletion_erases_a_solo_groups_trash_and_keeps_a_shared_ones(client, world,
                                                                           directory):
    """The group deleted with the account goes whole, its trash included; in a group that
    stays, a row the account trashed is history like the row itself: still restorable."""
    from models.groups import TRASH_PREFIX, Trashed
    solo_expense = client.get(f"/groups/{world.solo}/expenses",
                              headers=world.dora_h).get_json()["items"][0]["expenseId"]
    shared_expense = next(e["expenseId"] for e in client.get(
        f"/groups/{world.shared}/expenses", headers=world.dora_h).get_json()["items"]
        if e["description"] == "via PAT")
    for gid, eid in ((world.solo, solo_expense), (world.shared, shared_expense)):
        assert client.delete(f"/groups/{gid}/expenses/{eid}",
                             headers=world.dora_h).status_code == 204
    assert client.delete("/users/me", headers=world.dora_h).status_code == 204
    _assert_all_gone(world, directory)  # the solo group's partition: nothing, trash included
    assert list(Trashed.query(world.solo, Trashed.SK.startswith(TRASH_PREFIX))) == []
    restored = client.post(f"/groups/{world.shared}/trash/{shared_expense}/restore",
                           headers=world.olive_h)
    assert restored.status_code == 200, restored.get_json()
    assert_balance_matches_rows(world.shared)
