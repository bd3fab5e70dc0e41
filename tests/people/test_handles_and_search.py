"""Handles (claim, release, HANDLE_TAKEN), the directory and search, @mentions."""
from __future__ import annotations

from models.notifications import Event
from models.people import DirectoryEntry, HandleClaim
from models.users import Profile


def _search(client, headers, q):
    reply = client.get("/people/search", query_string={"q": q}, headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()["items"]


def test_claiming_a_handle_mirrors_it_on_the_profile_lowercase(client, person):
    zoe = person("zoe@example.com", "Zoë")
    reply = client.put("/people/me/handle", headers=zoe.headers,
                       json={"handle": "Zoe_K", "discoverable": True})
    assert reply.status_code == 200
    assert reply.get_json() == {"userId": zoe.user_id, "displayName": "Zoë",
                                "handle": "zoe_k", "discoverable": True}
    me = client.get("/users/me", headers=zoe.headers).get_json()
    assert (me["handle"], me["discoverable"]) == ("zoe_k", True)
    assert HandleClaim.get(*HandleClaim.key("zoe_k")).UserId == zoe.user_id


def test_a_handle_held_by_someone_else_is_409_handle_taken(client, person):
    person("a@example.com", "Ann", "shared")
    bob = person("b@example.com", "Bob")
    reply = client.put("/people/me/handle", headers=bob.headers,
                       json={"handle": "SHARED", "discoverable": True})
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "HANDLE_TAKEN"
    assert Profile.get(*Profile.key(bob.user_id)).Handle is None


def test_changing_handle_releases_the_old_one_for_others(client, person):
    ann = person("a@example.com", "Ann", "first")
    client.put("/people/me/handle", headers=ann.headers,
               json={"handle": "second", "discoverable": True})
    assert HandleClaim.count(HandleClaim.key("first")[0]) == 0
    bob = person("b@example.com", "Bob", "first")
    assert HandleClaim.get(*HandleClaim.key("first")).UserId == bob.user_id


def test_reserved_and_malformed_handles_are_400(client, person):
    ann = person("a@example.com", "Ann")
    for handle in ("admin", "Support", "ab", "no spaces", "x" * 31):
        reply = client.put("/people/me/handle", headers=ann.headers,
                           json={"handle": handle, "discoverable": True})
        assert reply.status_code == 400, handle


def test_search_folds_accents_and_case_and_finds_handles(client, person):
    zoe = person("zoe@example.com", "Zoë Kravitz", "zk_music")
    caller = person("c@example.com", "Carl")
    expected = [{"userId": zoe.user_id, "displayName": "Zoë Kravitz", "handle": "zk_music"}]
    assert _search(client, caller.headers, "zoe") == expected
    assert _search(client, caller.headers, "ZOË K") == expected
    assert _search(client, caller.headers, "zk_m") == expected
    assert _search(client, caller.headers, "zx") == []


def test_search_never_shows_emails_or_undiscoverable_users(client, person):
    person("hidden@example.com", "Hilda", "hilda", discoverable=False)
    shown = person("shown@example.com", "Hilary", "hilary")
    caller = person("c@example.com", "Carl")
    items = _search(client, caller.headers, "hil")
    assert [i["userId"] for i in items] == [shown.user_id]
    assert "example.com" not in str(items)


def test_opting_out_removes_directory_rows_in_the_same_change(client, person):
    ann = person("a@example.com", "Annabel", "annabel")
    caller = person("c@example.com", "Carl")
    assert len(_search(client, caller.headers, "anna")) == 1
    client.put("/people/me/handle", headers=ann.headers,
               json={"handle": "annabel", "discoverable": False})
    assert _search(client, caller.headers, "anna") == []
    assert list(DirectoryEntry.query(f"USER#{ann.user_id}")) == []


def test_a_rename_moves_the_directory_row(client, person):
    ann = person("a@example.com", "Annabel", "annie")
    caller = person("c@example.com", "Carl")
    reply = client.patch("/users/me", json={"displayName": "Ülrike"}, headers=ann.headers)
    assert reply.status_code == 200
    assert _search(client, caller.headers, "anna") == []
    assert _search(client, caller.headers, "ulri") == [
        {"userId": ann.user_id, "displayName": "Ülrike", "handle": "annie"}]
    # The handle row carries the new name too.
    assert _search(client, caller.headers, "annie")[0]["displayName"] == "Ülrike"


def test_search_needs_two_characters(client, person):
    caller = person("c@example.com", "Carl")
    assert client.get("/people/search", query_string={"q": "a"},
                      headers=caller.headers).status_code == 400


def test_mentioning_a_members_handle_raises_a_mention_event(client, person, owner):
    friend = person("f@example.com", "Fay", "fay_x")
    # Fay joins through a direct invitation, then Olive mentions her in a comment.
    client.post("/people/me/friends", json={"userId": friend.user_id}, headers=owner.headers)
    client.post(f"/people/me/friends/{owner.user_id}/accept", headers=friend.headers)
    client.post(f"/groups/{owner.gid}/invitations", json={"userId": friend.user_id,
                                                          "role": "MEMBER"},
                headers=owner.headers)
    client.post(f"/people/me/invitations/{owner.gid}/accept", headers=friend.headers)
    expense = client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers, json={
        "description": "Dinner", "date": "2026-01-02", "amount": 1000, "splitMode": "EQUAL",
        "payments": [{"participantId": owner.pid, "amount": 1000}],
        "splits": [{"participantId": owner.pid, "value": 1}]}).get_json()
    reply = client.post(f"/groups/{owner.gid}/expenses/{expense['expenseId']}/comments",
                        json={"body": "thanks @Fay_X!"}, headers=owner.headers)
    assert reply.status_code == 201, reply.get_json()
    comment_id = reply.get_json()["commentId"]
    event = Event.get(*Event.key(Event.event_id("MENTION", owner.gid, comment_id,
                                                friend.user_id)))
    assert event.Recipients == {friend.user_id}
