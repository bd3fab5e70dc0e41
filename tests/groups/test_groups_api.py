"""PATCH /groups/{groupId}: rename, currency change and its lock, role and visibility rules."""
from __future__ import annotations

import pytest

from models.groups import Group
from tests.groups.conftest import record_money


def test_owner_renames_group(client, owner):
    reply = client.patch(f"/groups/{owner.gid}", json={"name": "Ski week"}, headers=owner.headers)
    assert reply.status_code == 200
    assert reply.get_json()["name"] == "Ski week"
    assert reply.get_json()["myRole"] == "OWNER"
    head = client.get(f"/groups/{owner.gid}", headers=owner.headers).get_json()
    assert head["name"] == "Ski week"


def test_owner_changes_currency_while_no_money_is_recorded(client, owner):
    reply = client.patch(f"/groups/{owner.gid}", json={"currency": "USD"}, headers=owner.headers)
    assert reply.status_code == 200
    assert client.get(f"/groups/{owner.gid}", headers=owner.headers).get_json()["currency"] == "USD"


@pytest.mark.parametrize("counts", [{"expenses": 1}, {"settlements": 1}])
def test_currency_change_after_money_is_currency_locked(client, owner, counts):
    record_money(owner.gid, **counts)
    reply = client.patch(f"/groups/{owner.gid}", json={"name": "New", "currency": "USD"},
                         headers=owner.headers)
    assert reply.status_code == 409
    assert reply.get_json()["error"]["code"] == "CURRENCY_LOCKED"
    head = client.get(f"/groups/{owner.gid}", headers=owner.headers).get_json()
    assert (head["currency"], head["name"]) == ("EUR", "Trip")  # nothing of the patch applied


def test_same_currency_after_money_is_not_a_change(client, owner):
    record_money(owner.gid, expenses=1)
    reply = client.patch(f"/groups/{owner.gid}", json={"currency": "EUR", "name": "Same"},
                         headers=owner.headers)
    assert reply.status_code == 200
    assert reply.get_json()["name"] == "Same"


def test_member_may_not_patch_group(client, owner, join):
    member = join("mia@example.com")
    reply = client.patch(f"/groups/{owner.gid}", json={"name": "Mine"}, headers=member.headers)
    assert reply.status_code == 403
    assert reply.get_json()["error"]["code"] == "FORBIDDEN"


def test_non_member_patching_group_gets_not_found(client, owner, sign_in):
    headers, _ = sign_in("stranger@example.com")
    reply = client.patch(f"/groups/{owner.gid}", json={"name": "Mine"}, headers=headers)
    assert reply.status_code == 404


@pytest.mark.parametrize("body", [{"name": ""}, {"name": "   "}, {"name": "x" * 101},
                                  {"currency": "euro"}, {"colour": "red"}])
def test_invalid_group_patch_is_validation_error(client, owner, body):
    reply = client.patch(f"/groups/{owner.gid}", json=body, headers=owner.headers)
    assert reply.status_code == 400
    assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"
    assert reply.get_json()["error"]["details"]


def test_patching_a_deleting_group_is_not_found(client, owner):
    Group(*Group.key(owner.gid)).update(actions=[Group.Status.set("DELETING")])
    reply = client.patch(f"/groups/{owner.gid}", json={"name": "Back"}, headers=owner.headers)
    assert reply.status_code == 404


def test_group_patch_is_in_the_openapi_document(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    operations = paths["/groups/{groupId}"]  # named exactly as the contract names it
    assert {"get", "patch", "delete"} <= set(operations)
    assert {"204", "202"} <= set(operations["delete"]["responses"])


ANY_ID = "00000000-0000-4000-8000-000000000000"
MEMBERSHIP_ROUTES = [
    ("patch", "/groups/{gid}"), ("delete", "/groups/{gid}"),
    ("patch", "/groups/{gid}/participants/{id}"), ("delete", "/groups/{gid}/participants/{id}"),
    ("post", "/groups/{gid}/leave"), ("get", "/groups/{gid}/invite"),
    ("patch", "/groups/{gid}/invite"), ("post", "/groups/{gid}/invite/rotate"),
    ("get", "/groups/{gid}/invite/preview?code=x"), ("post", "/groups/{gid}/join-requests"),
    ("get", "/groups/{gid}/join-requests"), ("post", "/groups/{gid}/join-requests/{id}/approve"),
    ("post", "/groups/{gid}/join-requests/{id}/deny"),
    ("delete", "/groups/{gid}/join-requests/{id}"), ("get", "/users/me/groups"),
    ("get", "/users/me/join-requests"),
]


@pytest.mark.parametrize("method,path", MEMBERSHIP_ROUTES)
def test_every_membership_route_needs_a_credential(client, owner, method, path):
    reply = getattr(client, method)(path.format(gid=owner.gid, id=ANY_ID), json={})
    assert reply.status_code == 401
    assert reply.get_json()["error"]["code"] == "UNAUTHENTICATED"


@pytest.mark.parametrize("path", ["/users/me/groups", "/users/me/join-requests",
                                  "/groups/{gid}/join-requests",
                                  "/groups/{gid}/invite/preview?code=x"])
def test_unknown_query_parameter_is_validation_error(client, owner, path):
    separator = "&" if "?" in path else "?"
    reply = client.get(path.format(gid=owner.gid) + separator + "colour=red",
                       headers=owner.headers)
    assert reply.status_code == 400
    assert "colour" in reply.get_json()["error"]["details"]
