"""A rename's mirroring onto the account's group rosters is a worker's (issue 50): PATCH
/users/me answers before any roster changes, the worker (its Lambda handler fed
events/profile_mirror_sqs.json) brings every roster to the new name, a repeated, late or
out-of-order message converges on the newest name, and through `python -m app serve` the
rename shows on the group within seconds."""
from __future__ import annotations

from app.users import mirror
from models.groups import Participant
from tests.support import renames


def _groups(client, headers, count: int) -> list:
    made = []
    for index in range(count):
        reply = client.post("/groups", headers=headers,
                            json={"name": f"Trip {index}", "currency": "EUR"})
        assert reply.status_code == 201, reply.get_json()
        made.append(reply.get_json())
    return made


def _names(client, headers, groups) -> list:
    shown = []
    for group in groups:
        roster = client.get(f"/groups/{group['groupId']}/participants",
                            headers=headers).get_json()["items"]
        shown += [p["displayName"] for p in roster
                  if p["participantId"] == group["myParticipantId"]]
    return shown


def _rows(groups) -> list:
    return [(row.DisplayName, row.NameVersion) for row in (
        Participant.get(g["groupId"], Participant.sort_key(g["myParticipantId"]))
        for g in groups)]


def test_the_reply_does_not_wait_and_the_worker_renames_every_roster(client, sign_in):
    headers, user_id = sign_in("ren@example.com", display_name="Old Name")
    groups = _groups(client, headers, 3)

    reply = client.patch("/users/me", headers=headers, json={"displayName": "New Name"})

    assert reply.status_code == 200 and reply.get_json()["displayName"] == "New Name"
    assert renames.PENDING == [{"userId": user_id}]  # handed on, not done
    assert _names(client, headers, groups) == ["Old Name"] * 3
    assert renames.run_worker() == 1
    assert _names(client, headers, groups) == ["New Name"] * 3


def test_a_currency_change_hands_nothing_on(client, sign_in):
    headers, _ = sign_in("cur@example.com", display_name="Same")
    _groups(client, headers, 1)
    assert client.patch("/users/me", headers=headers,
                        json={"defaultCurrency": "USD"}).status_code == 200
    assert renames.PENDING == []


def test_repeated_late_and_out_of_order_messages_converge_on_the_newest_name(client, sign_in):
    headers, user_id = sign_in("ooo@example.com", display_name="A")
    groups = _groups(client, headers, 2)
    for name in ("B", "C"):
        assert client.patch("/users/me", headers=headers,
                            json={"displayName": name}).status_code == 200
    first, second = renames.PENDING
    renames.PENDING[:] = [second, first, first]  # the newer first, then the older twice

    renames.run_worker()

    assert _rows(groups) == [("C", 2)] * 2
    # A run that read the profile before the second rename, writing only now, changes no row.
    assert mirror.write_names(user_id, "B", 1) == 0
    assert _rows(groups) == [("C", 2)] * 2
    # Redelivered once every row is done: nothing to write.
    assert mirror.mirror_names(user_id) == 0


def test_a_run_resumes_where_an_interrupted_one_stopped(client, sign_in):
    headers, user_id = sign_in("res@example.com", display_name="Before")
    groups = _groups(client, headers, 3)
    assert client.patch("/users/me", headers=headers,
                        json={"displayName": "After"}).status_code == 200
    # The interrupted run got as far as the first group.
    first = Participant(groups[0]["groupId"], Participant.sort_key(groups[0]["myParticipantId"]))
    first.update(actions=[Participant.DisplayName.set("After"), Participant.NameVersion.set(1)])

    assert mirror.mirror_names(user_id) == 2  # the redelivered message does the rest
    assert _names(client, headers, groups) == ["After"] * 3


def test_served_a_rename_shows_on_the_group_within_seconds(served_app):
    token, _ = served_app.sign_in("rename-served-50@example.com", "Served Before")
    status, group = served_app.call("POST", "/groups", {"name": "Served trip", "currency": "EUR"},
                                    token=token)
    assert status == 201, group
    status, body = served_app.call("PATCH", "/users/me", {"displayName": "Served After"},
                                   token=token)
    assert status == 200 and body["displayName"] == "Served After", body

    def renamed():
        status, roster = served_app.call("GET", f"/groups/{group['groupId']}/participants",
                                         token=token)
        assert status == 200, roster
        return [p["displayName"] for p in roster["items"]
                if p["participantId"] == group["myParticipantId"]] == ["Served After"]

    served_app.until(renamed, "the rename mirrored onto the roster")
