"""Authorize, then replay, on every route that honours Idempotency-Key (issue 30 item 6):
the routes are enumerated from the app's URL map, so a new idempotent route must say how it
authorizes before it can pass."""
from __future__ import annotations

from app.api import needs
from app.api.idempotency import HEADER
from tests.chat.conftest import make_chat

# Routes whose write is the caller's own (no right outside the credential, which the
# developer gate and the live-account check cover before every view).
CALLERS_OWN = {"groups.create_group", "people.request_friend", "imports.start_import",
               "notifications.register_device", "developer.create_token",
               # settle with a person across groups: each group it writes is authorized
               # inside the one transaction; a replay repeats the caller's own reply
               "insight.settle_with"}


def _idempotent_views(app) -> dict:
    return {rule.endpoint: app.view_functions[rule.endpoint]
            for rule in app.url_map.iter_rules()
            if needs.of(app.view_functions[rule.endpoint]).idempotent}


def test_every_idempotent_route_authorizes_before_its_replay(app):
    views = _idempotent_views(app)
    assert {"chat.confirm_draft", "chat.grant_credits", "chat.create_session"} <= set(views)
    unguarded = {endpoint for endpoint, view in views.items()
                 if needs.of(view).role is None and needs.of(view).authorize is None}
    # Group routes are walked in tests/groups/test_idempotent_replay_authorization.py.
    assert unguarded - {"join_requests.submit"} == CALLERS_OWN, unguarded


def test_a_demoted_members_confirm_replay_is_403_not_201(client, sign_in, inline_worker):
    owner = make_chat(client, sign_in, "olive@example.com")
    member_h, _ = sign_in("mia@example.com", display_name="Mia")
    code = client.get(f"/groups/{owner.group_id}/invite", headers=owner.headers).get_json()["code"]
    request = client.post(f"/groups/{owner.group_id}/join-requests",
                          json={"code": code, "mode": "NEW"}, headers=member_h).get_json()
    approved = client.post(f"/groups/{owner.group_id}/join-requests/{request['requestId']}/approve",
                           json={"role": "MEMBER"}, headers=owner.headers).get_json()
    pid = approved["participant"]["participantId"]
    sid = client.post("/chat/sessions", json={"groupId": owner.group_id},
                      headers=member_h).get_json()["sessionId"]
    client.post(f"/chat/sessions/{sid}/messages", json={"text": "I paid 12 for lunch"},
                headers=member_h)
    (draft,) = client.get(f"/chat/sessions/{sid}", headers=member_h).get_json()["drafts"]
    url = f"/chat/sessions/{sid}/drafts/{draft['draftId']}/confirm"
    keyed = {**member_h, "Idempotency-Key": "c-1"}
    assert client.post(url, json={"version": draft["version"]}, headers=keyed).status_code == 201
    demoted = client.patch(f"/groups/{owner.group_id}/participants/{pid}",
                           json={"role": "VIEWER"}, headers=owner.headers)
    assert demoted.status_code == 200, demoted.get_json()
    replay = client.post(url, json={"version": draft["version"]}, headers=keyed)
    assert replay.status_code == 403 and "Idempotent-Replayed" not in replay.headers
    unkeyed = client.post(url, json={"version": draft["version"]}, headers=member_h)
    assert unkeyed.status_code == 403  # not 409 DRAFT_CONFIRMED: authorized first


def test_a_former_admins_grant_replay_is_403(client, sign_in):
    admin, _ = sign_in("root@example.com", admin=True)
    _, target = sign_in("tim@example.com")
    url, body = f"/admin/users/{target}/credits", {"delta": 5, "reason": "beta"}
    assert client.post(url, json=body, headers={**admin, HEADER: "g-1"}).status_code == 201
    former, _ = sign_in("root@example.com", admin=False)
    replay = client.post(url, json=body, headers={**former, HEADER: "g-1"})
    assert replay.status_code == 403 and "Idempotent-Replayed" not in replay.headers


def test_a_removed_members_session_replay_is_404(client, sign_in, inline_worker):
    owner = make_chat(client, sign_in, "olive@example.com")
    other_h, _ = sign_in("zed@example.com", display_name="Zed")
    code = client.get(f"/groups/{owner.group_id}/invite", headers=owner.headers).get_json()["code"]
    request = client.post(f"/groups/{owner.group_id}/join-requests",
                          json={"code": code, "mode": "NEW"}, headers=other_h).get_json()
    pid = client.post(f"/groups/{owner.group_id}/join-requests/{request['requestId']}/approve",
                      json={"role": "MEMBER"}, headers=owner.headers).get_json()[
        "participant"]["participantId"]
    keyed = {**other_h, HEADER: "s-1"}
    body = {"groupId": owner.group_id}
    assert client.post("/chat/sessions", json=body, headers=keyed).status_code == 201
    removed = client.delete(f"/groups/{owner.group_id}/participants/{pid}",
                            headers=owner.headers)
    assert removed.status_code == 204, removed.get_json()
    replay = client.post("/chat/sessions", json=body, headers=keyed)
    assert replay.status_code == 404 and "Idempotent-Replayed" not in replay.headers
