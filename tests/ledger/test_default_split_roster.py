"""A group's defaultSplit stays exact as its roster shrinks (issue 45): whatever removes a
participant the default names (a removal, a leave, a guest merged away by a transfer)
rewrites the default in the same TransactWrite, so a create that names nobody never fails
with 409 PARTICIPANT_UNAVAILABLE for someone who is gone. Races on real threads against the
serialized embedded endpoint: a removal against a create that names nobody, and against a
PATCH of the default."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import models
from app import create_app
from app.config import Settings
from app.ledger import expenses
from app.ledger.default_split import after_leaving
from models.groups import DefaultShareMap, DefaultSplitMap, Group
from tests.ledger.helpers import assert_balance_matches_rows, join_directly


def _named_nobody(payer: str, amount: int = 1000) -> dict:
    return {"description": "Rent", "date": "2026-11-28", "amount": amount,
            "payments": [{"participantId": payer, "amount": amount}]}


def _default(mode: str, entries) -> dict:
    return {"splitMode": mode, "splits": [
        {"participantId": pid} if mode == "EQUAL" else {"participantId": pid, "value": value}
        for pid, value in entries]}


def _set_default(group, mode, entries):
    reply = group.client.patch(group.base, json={"defaultSplit": _default(mode, entries)},
                               headers=group.headers)
    assert reply.status_code == 200, reply.get_json()


def _shown_default(group):
    return group.get("").get_json()["defaultSplit"]


def _created_shares(group, amount=1000):
    reply = group.post("/expenses", _named_nobody(group.me, amount))
    assert reply.status_code == 201, reply.get_json()
    item = reply.get_json()["items"][0]
    return item["splitMode"], [(s["participantId"], s["amount"]) for s in item["splits"]]


def test_removing_a_named_guest_drops_them_and_the_others_keep_their_weights(group):
    gone, kept = group.guests
    _set_default(group, "SHARES", [(group.me, 2), (gone, 5), (kept, 1)])
    assert group.delete(f"/participants/{gone}").status_code == 204
    assert _shown_default(group) == _default("SHARES", [(group.me, 2), (kept, 1)])
    assert _created_shares(group, 900) == ("SHARES", [(group.me, 600), (kept, 300)])


def test_a_percent_default_becomes_shares_in_the_same_proportions(group):
    gone, kept = group.guests
    _set_default(group, "PERCENT", [(group.me, 2000), (gone, 5000), (kept, 3000)])
    assert group.delete(f"/participants/{gone}").status_code == 204
    # 20% and 30% of what is left: 2 to 3, exactly, as weights in basis points
    assert _shown_default(group) == _default("SHARES", [(group.me, 2000), (kept, 3000)])
    assert _created_shares(group, 1000) == ("SHARES", [(group.me, 400), (kept, 600)])


def test_an_equal_default_keeps_everyone_else(group):
    gone, kept = group.guests
    _set_default(group, "EQUAL", [(group.me, None), (gone, None), (kept, None)])
    assert group.delete(f"/participants/{gone}").status_code == 204
    assert _created_shares(group, 1001) == ("EQUAL", [(group.me, 501), (kept, 500)])


def test_removing_the_only_one_named_clears_the_default(group):
    gone = group.guests[0]
    _set_default(group, "EQUAL", [(gone, None)])
    assert group.delete(f"/participants/{gone}").status_code == 204
    assert _shown_default(group) is None
    reply = group.post("/expenses", _named_nobody(group.me))
    assert reply.status_code == 400  # names nobody, and the group has no default now
    assert "splits" in reply.get_json()["error"]["details"]


def test_a_member_who_leaves_leaves_the_default(client, sign_in, group):
    headers, user_id = sign_in("leaver@example.com")
    leaver = join_directly(group.group_id, user_id, "MEMBER", "Leaver")
    _set_default(group, "SHARES", [(group.me, 1), (leaver, 3)])
    assert client.post(f"{group.base}/leave", headers=headers).status_code == 204
    assert _shown_default(group) == _default("SHARES", [(group.me, 1)])
    assert _created_shares(group, 700) == ("SHARES", [(group.me, 700)])


def test_a_transfer_passes_the_guests_place_to_its_target(client, sign_in, group):
    _, user_id = sign_in("claimer@example.com")
    target = join_directly(group.group_id, user_id, "MEMBER", "Claimer")
    source, other = group.guests
    _set_default(group, "SHARES", [(group.me, 1), (source, 2), (target, 1), (other, 4)])
    reply = client.post(f"{group.base}/participants/{source}/transfer",
                        json={"targetParticipantId": target}, headers=group.headers)
    assert reply.status_code == 200, reply.get_json()
    # the target already had a weight: it takes the source's too
    assert _shown_default(group) == _default("SHARES", [(group.me, 1), (target, 3), (other, 4)])
    assert _created_shares(group, 800) == ("SHARES", [(group.me, 100), (target, 300),
                                                      (other, 400)])


def test_a_default_not_naming_the_removed_one_is_left_as_it_was(group):
    gone, kept = group.guests
    _set_default(group, "PERCENT", [(group.me, 5000), (kept, 5000)])
    assert group.delete(f"/participants/{gone}").status_code == 204
    assert _shown_default(group) == _default("PERCENT", [(group.me, 5000), (kept, 5000)])


def _stored(mode, entries) -> DefaultSplitMap:
    return DefaultSplitMap(SplitMode=mode, Splits=[
        DefaultShareMap(ParticipantId=pid, Value=value) for pid, value in entries])


def _plain(default):
    return None if default is None else (
        default.SplitMode, [(s.ParticipantId, s.Value) for s in default.Splits])


@pytest.mark.parametrize("mode, entries, leaving, heir, expected", [
    ("EQUAL", [("a", None), ("b", None)], "a", "b", ("EQUAL", [("b", None)])),
    ("EQUAL", [("a", None), ("b", None)], "a", "c", ("EQUAL", [("c", None), ("b", None)])),
    ("PERCENT", [("a", 2500), ("b", 7500)], "a", "b", ("PERCENT", [("b", 10000)])),
    ("PERCENT", [("a", 0), ("b", 4000), ("c", 6000)], "b", None,
     ("SHARES", [("c", 6000)])),
    ("PERCENT", [("a", 0), ("b", 10000)], "b", None, None),
    ("SHARES", [("a", 1)], "a", None, None),
])
def test_after_leaving_keeps_the_proportions(mode, entries, leaving, heir, expected):
    changed, after = after_leaving(_stored(mode, entries), leaving, heir=heir)
    assert changed and _plain(after) == expected
    changed, _ = after_leaving(_stored(mode, entries), "nobody")
    assert not changed


# --- races on real threads ------------------------------------------------------------------

ROUNDS = 6


def _together(functions):
    barrier = threading.Barrier(len(functions))

    def run(function):
        barrier.wait()
        return function()

    with ThreadPoolExecutor(len(functions)) as pool:
        return list(pool.map(run, functions))


@pytest.fixture
def live_group(live_db, tmp_path):
    stage = models.base.settings()["stage"]
    app = create_app(Settings(stage=stage, region="us-east-1", dynamodb_endpoint=live_db,
                              local_mode=True, data_dir=str(tmp_path), cursor_secret=b"race"))
    client = app.test_client()
    token = client.post("/dev/tokens", json={"email": "owner@example.com"}).get_json()
    headers = {"Authorization": f"Bearer {token['accessToken']}"}
    group = client.post("/groups", json={"name": "Race", "currency": "EUR"},
                        headers=headers).get_json()
    return app, headers, group["groupId"], group["myParticipantId"]


def _new_guest(client, base, headers, name):
    reply = client.post(f"{base}/participants", json={"displayName": name}, headers=headers)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()["participantId"]


def _default_names(group_id) -> set:
    head = Group.get(*Group.key(group_id), consistent_read=True)
    return set() if head.DefaultSplit is None else \
        {s.ParticipantId for s in head.DefaultSplit.Splits}


def test_a_removal_racing_a_create_that_names_nobody_never_leaves_either_dangling(
        live_group, monkeypatch):
    """Each round: a guest the default names is removed while a create that names nobody
    is sent. The create always lands (201): before the removal it names the guest, and the
    removal then refuses (409, the guest is referenced or the money moved); after it, the
    create uses the rewritten default. Never a 409 PARTICIPANT_UNAVAILABLE, never a 500,
    and the stored default never names someone gone.

    Every other round the create pauses between reading the head (the old default) and
    committing, so the removal lands inside that window: the create's commit then finds the
    guest gone and must build again from the head the removal rewrote."""
    app, headers, group_id, me = live_group
    base, client = f"/groups/{group_id}", app.test_client()
    pause = {"seconds": 0.0}
    build = expenses.expense_build.build

    def paused_build(*args, **kwargs):
        time.sleep(pause["seconds"])
        return build(*args, **kwargs)

    monkeypatch.setattr(expenses.expense_build, "build", paused_build)
    outcomes = set()
    for round_ in range(ROUNDS):
        pause["seconds"] = 0.0 if round_ % 2 else 0.4
        guest = _new_guest(client, base, headers, f"Guest {round_}")
        body = _default("SHARES", [(me, 1), (guest, 3)])
        assert client.patch(base, json={"defaultSplit": body},
                            headers=headers).status_code == 200

        def create():
            reply = app.test_client().post(f"{base}/expenses", json=_named_nobody(me, 400),
                                           headers=headers)
            return reply.status_code, reply.get_json(silent=True)

        def remove():
            reply = app.test_client().delete(f"{base}/participants/{guest}", headers=headers)
            return reply.status_code, reply.get_json(silent=True)

        (created, expense), (removed, refusal) = _together([create, remove])
        pause["seconds"] = 0.0
        assert created == 201, (round_, expense)
        named = [s["participantId"] for s in expense["items"][0]["splits"]]
        if removed == 204:
            assert named == [me], round_
            assert [s["amount"] for s in expense["items"][0]["splits"]] == [400]
        else:
            assert removed == 409, (round_, refusal)
            assert refusal["error"]["code"] in ("PARTICIPANT_REFERENCED", "CONCURRENT_UPDATE")
            assert guest in named
        outcomes.add(removed)
        roster = {p["participantId"] for p in client.get(f"{base}/participants",
                                                        headers=headers).get_json()["items"]}
        assert _default_names(group_id) <= roster, round_
    assert outcomes == {204, 409}, outcomes  # both orders happened
    assert_balance_matches_rows(group_id)


def test_a_removal_racing_a_patch_of_the_default_never_keeps_someone_gone(live_group):
    """The PATCH names the guest the removal takes away: whichever commits second reads
    again (the removal) or is refused (the PATCH: 409, or 400 once the guest is gone), and
    the default that stays names only participants who are still there."""
    app, headers, group_id, me = live_group
    base, client = f"/groups/{group_id}", app.test_client()
    for round_ in range(ROUNDS):
        guest = _new_guest(client, base, headers, f"Guest {round_}")
        assert client.patch(base, json={"defaultSplit": _default("EQUAL", [(me, None)])},
                            headers=headers).status_code == 200

        def patch():
            body = _default("SHARES", [(me, 1), (guest, 2)])
            return app.test_client().patch(base, json={"defaultSplit": body},
                                           headers=headers).status_code

        def remove():
            return app.test_client().delete(f"{base}/participants/{guest}",
                                            headers=headers).status_code

        patched, removed = _together([patch, remove])
        assert removed == 204, round_
        assert patched in (200, 400, 409), round_
        assert guest not in _default_names(group_id), (round_, patched)
        reply = client.post(f"{base}/expenses", json=_named_nobody(me), headers=headers)
        assert reply.status_code == 201, (round_, reply.get_json())


def test_a_member_whose_account_is_deleted_keeps_their_place_as_a_guest(client, sign_in,
                                                                        group):
    """Account deletion turns the member into a guest with the same participant id, so the
    default still names someone present and a create naming nobody still shares with them."""
    headers, user_id = sign_in("gone@example.com")
    member = join_directly(group.group_id, user_id, "MEMBER", "Gone")
    _set_default(group, "SHARES", [(group.me, 1), (member, 1)])
    assert client.delete("/users/me", headers=headers).status_code == 204
    people = {p["participantId"]: p["type"] for p in group.get("/participants").get_json()["items"]}
    assert people[member] == "GUEST"
    assert _created_shares(group, 500) == ("SHARES", [(group.me, 250), (member, 250)])
