"""A replayed idempotent request is authorized like a first one: someone demoted or removed
since gets the route's 403/404, never the stored 2xx (REST routes and MCP tools alike)."""
from __future__ import annotations

import pytest

from app.api import needs
from app.oauth import access_tokens
from tests.mcp.mcp_client import ACCEPT, grant_token, tool_error


def _post(client, path, headers, body=None, status=201):
    reply = client.post(path, json=body, headers=headers)
    assert reply.status_code == status, (path, reply.get_json())
    return reply.get_json()


@pytest.fixture
def crew(client, sign_in):
    """Olive's group with Dora as a second OWNER; Quinn a friend of Dora (invitable)."""
    olive_h, _ = sign_in("olive@example.com", display_name="Olive")
    dora_h, dora = sign_in("dora@example.com", display_name="Dora")
    quinn_h, quinn = sign_in("quinn@example.com", display_name="Quinn")
    group = _post(client, "/groups", olive_h, {"name": "Flat", "currency": "EUR"})
    gid = group["groupId"]
    code = client.get(f"/groups/{gid}/invite", headers=olive_h).get_json()["code"]
    request = _post(client, f"/groups/{gid}/join-requests", dora_h, {"code": code, "mode": "NEW"})
    pid = _post(client, f"/groups/{gid}/join-requests/{request['requestId']}/approve", olive_h,
                {"role": "MEMBER"}, status=200)["participant"]["participantId"]
    _post(client, "/people/me/friends", dora_h, {"userId": quinn})
    _post(client, f"/people/me/friends/{dora}/accept", quinn_h, status=200)
    expense = _post(client, f"/groups/{gid}/expenses", dora_h, _expense(pid))
    # Kept USD nets, for the conversion route to move.
    _post(client, f"/groups/{gid}/expenses", dora_h, {
        **_expense(pid, 800), "currency": "USD",
        "splits": [{"participantId": pid}, {"participantId": group["myParticipantId"]}]})
    return dict(olive_h=olive_h, dora_h=dora_h, dora=dora, quinn=quinn, gid=gid, pid=pid,
                olive_pid=group["myParticipantId"], expense=expense["expenseId"])


def _expense(pid, amount=500):
    return {"description": "Tea", "amount": amount, "splitMode": "EQUAL",
            "payments": [{"participantId": pid, "amount": amount}],
            "splits": [{"participantId": pid}]}


def _set_role(client, crew, role):
    reply = client.patch(f"/groups/{crew['gid']}/participants/{crew['pid']}",
                         json={"role": role}, headers=crew["olive_h"])
    assert reply.status_code == 200, reply.get_json()


def _keyed(crew, key):
    return {**crew["dora_h"], "Idempotency-Key": key}


def test_a_demoted_viewers_replay_of_a_recurring_create_is_403(client, crew):
    body = {**_expense(crew["pid"]), "frequency": "MONTHLY", "startDate": "2026-11-01"}
    path = f"/groups/{crew['gid']}/recurring"
    assert client.post(path, json=body, headers=_keyed(crew, "r-1")).status_code == 201
    _set_role(client, crew, "VIEWER")
    reply = client.post(path, json=body, headers=_keyed(crew, "r-1"))
    assert reply.status_code == 403 and "Idempotent-Replayed" not in reply.headers


def test_a_demoted_owners_replay_of_an_invitation_is_403(client, crew):
    _set_role(client, crew, "OWNER")
    path, body = f"/groups/{crew['gid']}/invitations", {"userId": crew["quinn"], "role": "MEMBER"}
    assert client.post(path, json=body, headers=_keyed(crew, "i-1")).status_code == 201
    _set_role(client, crew, "MEMBER")
    reply = client.post(path, json=body, headers=_keyed(crew, "i-1"))
    assert reply.status_code == 403 and "Idempotent-Replayed" not in reply.headers


def _group_routes(crew):
    """endpoint -> (path, body) of every idempotent create under a group."""
    g = f"/groups/{crew['gid']}"
    return {
        "groups.add_guest": (f"{g}/participants", {"displayName": "Gus"}),
        "expenses.create_expense": (f"{g}/expenses", _expense(crew["pid"], 700)),
        "settlements.create_settlement": (f"{g}/settlements", {
            "payerId": crew["pid"], "payeeId": crew["olive_pid"], "amount": 100}),
        "comments.add_comment": (f"{g}/expenses/{crew['expense']}/comments", {"body": "hi"}),
        "recurring.create_recurring": (f"{g}/recurring", {
            **_expense(crew["pid"]), "frequency": "WEEKLY", "startDate": "2026-11-02"}),
        "people.invite": (f"{g}/invitations", {"userId": crew["quinn"], "role": "MEMBER"}),
        "balances.create_conversion": (f"{g}/conversions",
                                       {"currency": "USD", "exchangeRate": "0.92"}),
        "receipts.create_receipt": (f"{g}/receipts", {"contentType": "image/jpeg",
                                                      "size": 1000}),
        "links.create_link": (f"{g}/links", {"role": "VIEWER"}),
    }


def _idempotent_group_views(app) -> dict:
    found = {}
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        if "groupId" in rule.rule and needs.of(view).idempotent:
            found[rule.endpoint] = needs.of(view).role
    return found


def test_every_idempotent_group_route_names_the_role_it_replays_to(app, crew):
    roles = _idempotent_group_views(app)
    # Only a join request is made by a non-member; every other create is walked below.
    assert {e for e, role in roles.items() if role is None} == {"join_requests.submit"}
    assert {e for e, role in roles.items() if role is not None} == set(_group_routes(crew))


def test_no_idempotent_group_route_replays_to_someone_removed_since(client, crew):
    _set_role(client, crew, "OWNER")
    routes = _group_routes(crew)
    for index, (endpoint, (path, body)) in enumerate(routes.items()):
        reply = client.post(path, json=body, headers=_keyed(crew, f"g-{index}"))
        assert reply.status_code == 201, (endpoint, reply.get_json())
    _set_role(client, crew, "MEMBER")  # a MEMBER may be removed
    assert client.delete(f"/groups/{crew['gid']}/participants/{crew['pid']}",
                         headers=crew["olive_h"]).status_code in (204, 409)
    if client.get(f"/groups/{crew['gid']}", headers=crew["dora_h"]).status_code == 200:
        _set_role(client, crew, "VIEWER")  # referenced by history: demote instead
        refused = {"groups.add_guest", "expenses.create_expense",
                   "settlements.create_settlement", "recurring.create_recurring",
                   "people.invite", "balances.create_conversion",
                   "receipts.create_receipt", "links.create_link"}  # comments: VIEWERs too
    else:
        refused = set(routes)
    for index, (endpoint, (path, body)) in enumerate(routes.items()):
        reply = client.post(path, json=body, headers=_keyed(crew, f"g-{index}"))
        if endpoint in refused:
            assert reply.status_code in (403, 404), (endpoint, reply.status_code)
            assert "Idempotent-Replayed" not in reply.headers
        else:
            assert reply.status_code == 201 and reply.headers["Idempotent-Replayed"] == "true"


def test_a_demoted_viewers_replay_through_mcp_is_refused(client, crew):
    access_tokens.grant_cache.clear()
    token, _ = grant_token(crew["dora"])
    headers = {"Authorization": f"Bearer {token}", "Accept": ACCEPT}
    arguments = {"groupId": crew["gid"], "description": "Taxi", "amount": "9.00",
                 "payments": [{"participantId": crew["pid"], "amount": "9.00"}],
                 "splitMode": "EQUAL", "splits": [{"participantId": crew["pid"]}],
                 "idempotencyKey": "mcp-1"}

    def call():
        return client.post("/mcp", headers=headers, json={
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "add_expense", "arguments": arguments}}).get_json()["result"]

    assert call()["isError"] is False
    _set_role(client, crew, "VIEWER")
    result = call()
    assert result["isError"] is True
    assert tool_error(result)["code"] == "FORBIDDEN"
