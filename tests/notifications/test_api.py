"""The /notifications routes: history, unread count, read marks, preferences, devices."""
from __future__ import annotations

from models.notifications import Device, DeviceToken, NotificationItem, Preferences
from tests.notifications.test_worker import add_expense, duo, history  # noqa: F401


def page(client, headers, **query):
    reply = client.get("/notifications", query_string=query, headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def test_history_pages_newest_first_with_unread_count_and_read_marks(duo, deliver):
    deliver()
    for n in range(3):
        add_expense(duo, description=f"E{n}")
    deliver()
    first = page(duo.client, duo.bob_h, limit=2)
    assert [i["body"][:15] for i in first["items"]] == ["Olive added \u201cE2", "Olive added \u201cE1"]
    assert first["unreadCount"] == 4  # three expenses and the join decision
    rest = page(duo.client, duo.bob_h, limit=2, cursor=first["nextCursor"])
    assert rest["items"][0]["body"].startswith("Olive added \u201cE0")
    one = first["items"][0]["notificationId"]
    reply = duo.client.post("/notifications/read", json={"ids": [one, one]}, headers=duo.bob_h)
    assert reply.status_code == 200 and reply.get_json() == {"unreadCount": 3}
    assert page(duo.client, duo.bob_h)["items"][0]["readAt"] is not None
    reply = duo.client.post("/notifications/read", json={"all": True}, headers=duo.bob_h)
    assert reply.get_json() == {"unreadCount": 0}
    assert all(i["readAt"] for i in page(duo.client, duo.bob_h)["items"])
    add_expense(duo, description="After")
    deliver()
    assert page(duo.client, duo.bob_h)["unreadCount"] == 1


def test_read_body_needs_ids_or_all_and_bad_ids_are_400(duo):
    for body in ({}, {"ids": [], "all": True}, {"all": False}, {"ids": ["x"], "all": True}):
        assert duo.client.post("/notifications/read", json=body,
                               headers=duo.bob_h).status_code == 400, body
    assert duo.client.post("/notifications/read", json={"ids": ["%%%"]},
                           headers=duo.bob_h).status_code == 400


def test_another_users_ids_mark_nothing_of_theirs(duo, deliver, sign_in):
    deliver()
    add_expense(duo)
    deliver()
    item = history(duo.client, duo.bob_h)[0]
    eve_h, _ = sign_in("eve@example.com")
    duo.client.post("/notifications/read", json={"ids": [item["notificationId"]]}, headers=eve_h)
    assert history(duo.client, duo.bob_h)[0]["readAt"] is None


def test_preferences_and_mutes(duo, sign_in):
    prefs = duo.client.get("/notifications/preferences", headers=duo.bob_h).get_json()
    assert prefs["mutedGroupIds"] == [] and prefs["digest"] == "NONE"
    assert prefs["emailVerified"] is True  # local sign-in users are verified
    assert all(channels == {"push": True, "email": False}
               for channels in prefs["types"].values())
    assert len(prefs["types"]) == 14 and prefs["types"]["REMINDER"]["push"] is True
    assert duo.client.put(f"/notifications/mutes/{duo.gid}", headers=duo.bob_h).status_code == 204
    assert duo.client.put(f"/notifications/mutes/{duo.gid}", headers=duo.bob_h).status_code == 204
    prefs = duo.client.get("/notifications/preferences", headers=duo.bob_h).get_json()
    assert prefs["mutedGroupIds"] == [duo.gid]
    stranger_h, _ = sign_in("stranger@example.com")
    assert duo.client.put(f"/notifications/mutes/{duo.gid}",
                          headers=stranger_h).status_code == 404
    reply = duo.client.patch("/notifications/preferences",
                             json={"mutedGroupIds": [duo.gid]}, headers=stranger_h)
    assert reply.status_code == 404
    reply = duo.client.patch("/notifications/preferences", json={"mutedGroupIds": []},
                             headers=duo.bob_h)
    assert reply.status_code == 200 and reply.get_json()["mutedGroupIds"] == []
    assert duo.client.patch("/notifications/preferences", json={"types": {"NOPE": False}},
                            headers=duo.bob_h).status_code == 400
    assert duo.client.patch("/notifications/preferences", json={"types": {"MENTION": 0}},
                            headers=duo.bob_h).status_code == 400
    assert duo.client.patch("/notifications/preferences", json={},
                            headers=duo.bob_h).status_code == 400  # nothing to change


def test_one_device_per_token_and_re_registering_moves_it(duo):
    body = {"platform": "ANDROID", "token": "shared-phone"}
    first = duo.client.post("/notifications/devices", json=body, headers=duo.olive_h).get_json()
    again = duo.client.post("/notifications/devices", json=body, headers=duo.olive_h).get_json()
    assert first == again
    moved = duo.client.post("/notifications/devices", json=body, headers=duo.bob_h).get_json()
    assert moved["deviceId"] != first["deviceId"]
    assert NotificationItem.raw_get(*Device.key(duo.olive, first["deviceId"])) is None
    assert NotificationItem.raw_get(*DeviceToken.key("shared-phone"))["UserId"]["S"] == duo.bob
    assert duo.client.delete(f"/notifications/devices/{first['deviceId']}",
                             headers=duo.olive_h).status_code == 404
    assert duo.client.delete(f"/notifications/devices/{moved['deviceId']}",
                             headers=duo.bob_h).status_code == 204
    assert NotificationItem.raw_get(*DeviceToken.key("shared-phone")) is None


def test_device_bodies_are_validated(duo):
    bad = [{"platform": "PAGER", "token": "x"}, {"platform": "IOS", "token": ""},
           {"platform": "WEB", "token": "not json"},
           {"platform": "WEB", "token": '{"endpoint": "ftp://x", "keys": {"p256dh": "a", "auth": "b"}}'}]
    for body in bad:
        assert duo.client.post("/notifications/devices", json=body,
                               headers=duo.bob_h).status_code == 400, body


def test_a_gone_native_token_removes_the_device(duo, deliver, recorder):
    deliver()
    recorder.gone.add("bob-phone")
    add_expense(duo)
    deliver()
    assert list(Device.of_user(duo.bob)) == []
    assert NotificationItem.raw_get(*DeviceToken.key("bob-phone")) is None


def test_switches_patch_in_one_write_keeping_the_others_and_the_mutes(duo):
    """The first PATCH writes the whole map, later ones single entries; the reply is the row
    as written, so it always equals a fresh GET."""
    client, headers, user_id = duo.client, duo.bob_h, duo.bob

    def patch(body) -> dict:
        reply = client.patch("/notifications/preferences", json=body, headers=headers)
        assert reply.status_code == 200, reply.get_json()
        assert reply.get_json() == client.get("/notifications/preferences",
                                              headers=headers).get_json()
        return reply.get_json()

    def stored() -> dict:
        raw = NotificationItem.raw_get(*Preferences.key(user_id))
        return {name: value["BOOL"] for name, value in raw["Types"]["M"].items()}

    assert NotificationItem.raw_get(*Preferences.key(user_id)) is None
    first = patch({"types": {"EXPENSE_ADDED": False}})
    assert stored() == {"EXPENSE_ADDED": False}
    assert [n for n, on in first["types"].items() if not on["push"]] == ["EXPENSE_ADDED"]

    patch({"types": {"MENTION": False}})
    assert stored() == {"EXPENSE_ADDED": False, "MENTION": False}

    assert client.put(f"/notifications/mutes/{duo.gid}", headers=headers).status_code == 204
    both = patch({"types": {"EXPENSE_ADDED": True}, "mutedGroupIds": []})
    assert stored() == {"EXPENSE_ADDED": True, "MENTION": False}
    assert both["mutedGroupIds"] == [] and both["types"]["MENTION"]["push"] is False

    # A row made by a mute (it has an empty map) takes switches and a new mute set at once.
    headers, user_id = duo.olive_h, duo.olive
    assert client.put(f"/notifications/mutes/{duo.gid}", headers=headers).status_code == 204
    patch({"types": {"SETTLEMENT_ADDED": False}, "mutedGroupIds": [duo.gid]})
    assert stored() == {"SETTLEMENT_ADDED": False}


def test_switches_land_on_a_row_that_has_no_map_yet(client, sign_in):
    """"Mark all read" makes the PREFS row without a switch map: the entry write is refused
    on its condition and the whole-map write takes over, in the same PATCH."""
    headers, user_id = sign_in("reader@example.com")
    assert client.post("/notifications/read", json={"all": True}, headers=headers).status_code == 200
    assert "Types" not in NotificationItem.raw_get(*Preferences.key(user_id))
    reply = client.patch("/notifications/preferences", json={"types": {"MENTION": False}},
                         headers=headers)
    assert reply.status_code == 200 and reply.get_json()["types"]["MENTION"]["push"] is False
    raw = NotificationItem.raw_get(*Preferences.key(user_id))
    assert raw["Types"] == {"M": {"MENTION": {"BOOL": False}}} and "ReadAllBefore" in raw
