"""Archive and unarchive (api.md "Archive and trash"): an archived group is read-only by one
check in the authorization (app.core.access.refuse_archived), which every group write
route Flask knows passes through: walked here from app.url_map, so a new route cannot
forget it."""
from __future__ import annotations

import uuid

from app.api.needs import of
from models.groups import Group

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
# The group write routes an archived group still takes, each with its reason.
TAKEN_WHILE_ARCHIVED = {
    ("POST", "/groups/<uuid:groupId>/archive"): "archiving again changes nothing",
    ("POST", "/groups/<uuid:groupId>/unarchive"): "the way back to writing",
    ("DELETE", "/groups/<uuid:groupId>"): "an archived group is still deleted for good",
    ("DELETE", "/groups/<uuid:groupId>/join-requests/<uuid:requestId>"):
        "an applicant withdrawing their own request changes nothing in the group",
}


def _expense(pid: str, amount: int = 3000, description: str = "Dinner") -> dict:
    return {"description": description, "amount": amount, "date": "2026-05-01",
            "payments": [{"participantId": pid, "amount": amount}],
            "splits": [{"participantId": pid}], "splitMode": "EQUAL"}


def _group_write_routes(app):
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/groups/<uuid:groupId>"):
            continue
        for method in sorted(rule.methods & set(WRITE_METHODS)):
            yield method, rule


def _path(rule, gid: str) -> str:
    values = {name: uuid.uuid4() for name in rule.arguments}
    values["groupId"] = gid
    return rule.build(values, append_unknown=False)[1]


def test_archive_answers_unsettled_and_flags_the_group(client, owner, add_guest):
    gus = add_guest("Gus")
    client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers, json={
        **_expense(owner.pid), "splits": [{"participantId": gus}]})
    reply = client.post(f"/groups/{owner.gid}/archive", headers=owner.headers)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["archived"] is True and reply.get_json()["unsettled"] is True
    assert Group.get(*Group.key(owner.gid)).ArchivedAt is not None
    assert client.get(f"/groups/{owner.gid}", headers=owner.headers).get_json()["archived"]
    again = client.post(f"/groups/{owner.gid}/archive", headers=owner.headers)
    assert again.status_code == 200 and again.get_json()["archived"] is True
    back = client.post(f"/groups/{owner.gid}/unarchive", headers=owner.headers)
    assert back.status_code == 200 and back.get_json()["archived"] is False


def test_a_settled_group_archives_without_unsettled(client, owner):
    reply = client.post(f"/groups/{owner.gid}/archive", headers=owner.headers)
    assert reply.status_code == 200 and reply.get_json()["unsettled"] is False


def test_only_an_owner_archives(client, owner, join):
    member = join("mia@example.com", "MEMBER")
    assert client.post(f"/groups/{owner.gid}/archive", headers=member.headers).status_code == 403
    client.post(f"/groups/{owner.gid}/archive", headers=owner.headers)
    assert client.post(f"/groups/{owner.gid}/unarchive",
                       headers=member.headers).status_code == 403


def test_every_group_write_route_is_refused_while_archived(app, client, owner, sign_in):
    stranger_headers, _ = sign_in("sam@example.com")
    assert client.post(f"/groups/{owner.gid}/archive", headers=owner.headers).status_code == 200
    walked = set()
    for method, rule in _group_write_routes(app):
        key = (method, rule.rule)
        if key in TAKEN_WHILE_ARCHIVED:
            continue
        declared = of(app.view_functions[rule.endpoint])
        body: dict = {}
        headers = owner.headers
        if declared.role is None:  # routes for callers outside the group: a real body
            headers = stranger_headers
            if rule.rule.endswith("/join-requests"):
                body = {"code": owner.code, "mode": "NEW"}
            else:
                continue  # the share-link claim: its own test below
        reply = client.open(_path(rule, owner.gid), method=method, json=body, headers=headers)
        assert reply.status_code == 409, (key, reply.status_code, reply.get_json())
        assert reply.get_json()["error"]["code"] == "GROUP_ARCHIVED", key
        walked.add(key)
    assert ("POST", "/groups/<uuid:groupId>/expenses") in walked
    assert ("POST", "/groups/<uuid:groupId>/reminders") in walked
    assert len(walked) >= 35  # every group write route but the few taken while archived


def test_the_exemptions_name_real_routes(app):
    known = {(method, rule.rule) for method, rule in _group_write_routes(app)}
    assert set(TAKEN_WHILE_ARCHIVED) <= known


def test_reads_still_work_and_unarchive_restores_writes(client, owner):
    created = client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers,
                          json=_expense(owner.pid))
    expense_id = created.get_json()["expenseId"]
    client.post(f"/groups/{owner.gid}/archive", headers=owner.headers)
    for path in ("", "/expenses", f"/expenses/{expense_id}", "/balances", "/participants",
                 "/settlements", "/changes", "/activity", "/recurring"):
        reply = client.get(f"/groups/{owner.gid}{path}", headers=owner.headers)
        assert reply.status_code == 200, (path, reply.get_json())
    assert client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers,
                       json=_expense(owner.pid)).status_code == 409
    client.post(f"/groups/{owner.gid}/unarchive", headers=owner.headers)
    assert client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers,
                       json=_expense(owner.pid)).status_code == 201


def test_a_share_link_session_and_its_claim_are_refused_while_archived(client, owner, add_guest,
                                                                      sign_in):
    gus = add_guest("Gus")
    link = client.post(f"/groups/{owner.gid}/links", json={"role": "MEMBER"},
                       headers=owner.headers).get_json()
    session = client.post("/links/session", json={"token": link["token"],
                                                  "participantId": gus}).get_json()
    bearer = {"Authorization": f"Bearer {session['accessToken']}"}
    client.post(f"/groups/{owner.gid}/archive", headers=owner.headers)
    refused = client.post(f"/groups/{owner.gid}/expenses", headers=bearer, json=_expense(gus))
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "GROUP_ARCHIVED"
    assert client.get(f"/groups/{owner.gid}/expenses", headers=bearer).status_code == 200
    headers, _ = sign_in("gus@example.com")
    claim = client.post(f"/groups/{owner.gid}/links/claim",
                        json={"sessionToken": session["accessToken"]}, headers=headers)
    assert claim.status_code == 409 and claim.get_json()["error"]["code"] == "GROUP_ARCHIVED"


def test_home_hides_archived_groups_unless_asked(client, owner, sign_in):
    other = client.post("/groups", json={"name": "Flat", "currency": "EUR"},
                        headers=owner.headers).get_json()
    client.post(f"/groups/{owner.gid}/archive", headers=owner.headers)
    home = client.get("/users/me/groups", headers=owner.headers).get_json()["items"]
    assert [(g["groupId"], g["archived"]) for g in home] == [(other["groupId"], False)]
    archived = client.get("/users/me/groups?archived=true",
                          headers=owner.headers).get_json()["items"]
    assert [(g["groupId"], g["archived"]) for g in archived] == [(owner.gid, True)]


def test_a_write_authorized_before_the_archive_is_refused_at_commit(client, owner, monkeypatch):
    """The archive lands between a write's authorization and its commit: the write's
    change-log bump finds the head archived and is refused, not renumbered through."""
    from app.ledger import expenses

    real = expenses.create_expense

    def archive_first(access, *args, **kwargs):
        Group(*Group.key(owner.gid)).update(actions=[Group.ArchivedAt.set("2026-05-01T00:00:00.000Z"),
                                                     Group.Revision.add(1)])
        return real(access, *args, **kwargs)

    monkeypatch.setattr(expenses, "create_expense", archive_first)
    reply = client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers,
                        json=_expense(owner.pid))
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "GROUP_ARCHIVED"
    monkeypatch.undo()
    assert client.get(f"/groups/{owner.gid}/expenses",
                      headers=owner.headers).get_json()["items"] == []
