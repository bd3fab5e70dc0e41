"""Every write that creates a row owned by a user holds that user's account live.

The race this closes: a request authenticated (profile read: live) just before the account's
deletion marks the profile DELETING, and writes just after. The auth-time read is pinned to
"live" here, the profile is marked DELETING, and each write route runs: it must be refused
and leave every table exactly as it was. A new write route must join the walk or the
exemptions (with the reason), or ``test_every_write_route_is_walked_or_exempt`` fails."""
from __future__ import annotations

import boto3
import pytest

from app.api import needs
from models import registered_tables
from models.base import physical_name
from models.users import DELETING, Profile

# Routes that write but create no row a user owns, and why.
EXEMPT = {
    "DELETE": "removes rows; never creates one",
    "groups.patch_group": "group head only (OWNER, group history)",
    "groups.archive_group": "group head only (OWNER, group history)",
    "trash.restore_from_trash": "group history put back, under check_money_write's roster "
                                "read of the writer (as an expense create)",
    "groups.unarchive_group": "group head only (OWNER, group history)",
    "invite.patch_invite": "the group's invite row",
    "invite.rotate_invite": "the group's invite row",
    "expenses.update_expense": "group history, guarded by require_role (walked via create)",
    "comments.edit_comment": "group history, guarded by require_role (walked via create)",
    "settlements.update_settlement": "group history, guarded by require_role (walked via create)",
    "recurring.update_recurring": "group history (walked via create)",
    "groups.patch_participant": "an existing participant, under require_still_owner",
    "groups.transfer_participant": "rewrites history rows, under require_still_owner",
    "groups.leave_group": "removes the caller's membership",
    "join_requests.deny": "the owner's decision (the applicant's lock: account deletion sweeps it)",
    "people.decline": "removes the invitation",
    "mcp.mcp": "tool writes run the expense, settlement and comment services walked here",
    "local.mint_dev_token": "local sign-in: provisioning, refused for a flagged identity",
    "chat.discard_draft": "flips the caller's own draft row; creates none",
    "realtime.realtime_token": "writes nothing: signs a 15-minute token from one index read",
    "receipts.complete_receipt": "moves the receipt's own status; creates no row",
    "receipts.scan_receipt": "its admission holds the caller live (require_role), needs a READY "
                             "receipt: tests/receipts/test_receipts_api.py walks it",
    "receipts.confirm_receipt": "the expense create walked here, with the receipt's marker",
    "receipts.attach_receipt": "group history, guarded by require_role (walked via create)",
    "receipts.add_attachment": "group history, guarded by require_role (walked via create)",
    "links.claim": "needs a session of the group's link; its TransactWrite holds the caller "
                   "live (require_live_account): tests/links/test_share_links_served.py claims",
}
# Writes that add the group's history (money, comments) and hold the caller's guard row
# instead of a PROFILE check (issue 33 lever 1, app.core.live): after the mark
# they may land; the deletion converts the participant to a guest, removes the guard and
# scrubs the account's logged text again after that
# (tests/account/test_deletion_money_race.py runs that race at its worst place).
GROUP_HISTORY = {"expenses.create_expense", "settlements.create_settlement",
                 "comments.add_comment", "balances.create_conversion", "chat.confirm_draft",
                 "insight.settle_with"}
EXEMPT_PUBLIC = "OAuth endpoints: the grant, code and token writes hold the owner live " \
                "(tests/account/test_live_account_credentials.py)"


def _snapshot() -> dict:
    """Every item of every table, by table and key."""
    client = boto3.client("dynamodb", region_name="us-east-1")
    found = {}
    for logical, model in registered_tables().items():
        keys = (model._hash_keyname, model._range_keyname)
        for page in client.get_paginator("scan").paginate(TableName=physical_name(logical)):
            for item in page["Items"]:
                found[(logical, tuple(str(item.get(k)) for k in keys if k))] = item
    return found


def _post(client, path, headers, body=None, status=201):
    reply = client.post(path, json=body, headers=headers)
    assert reply.status_code == status, (path, reply.get_json())
    return reply.get_json()


@pytest.fixture
def scene(client, sign_in):
    """Dora (about to be marked) with a group, an expense, a pending friend request from
    Olive and an invitation from her; Olive with a group Dora has asked to join."""
    dora_h, dora = sign_in("dora@example.com", display_name="Dora")
    olive_h, olive = sign_in("olive@example.com", display_name="Olive")
    mine = _post(client, "/groups", dora_h, {"name": "Dora's", "currency": "EUR"})
    gid, pid = mine["groupId"], mine["myParticipantId"]
    guest = _post(client, f"/groups/{gid}/participants", dora_h, {"displayName": "Gus"})
    expense = _post(client, f"/groups/{gid}/expenses", dora_h, {
        "description": "Tea", "amount": 400, "splitMode": "EQUAL",
        "payments": [{"participantId": pid, "amount": 400}],
        "splits": [{"participantId": pid}, {"participantId": guest["participantId"]}]})
    # Kept USD nets, for the walk's conversion to move.
    _post(client, f"/groups/{gid}/expenses", dora_h, {
        "description": "Taxi", "amount": 600, "splitMode": "EQUAL", "currency": "USD",
        "payments": [{"participantId": pid, "amount": 600}],
        "splits": [{"participantId": pid}, {"participantId": guest["participantId"]}]})
    theirs = _post(client, "/groups", olive_h, {"name": "Olive's", "currency": "EUR"})
    code = client.get(f"/groups/{theirs['groupId']}/invite", headers=olive_h).get_json()["code"]
    asking = _post(client, "/groups", olive_h, {"name": "Asked", "currency": "EUR"})
    ask_code = client.get(f"/groups/{asking['groupId']}/invite",
                          headers=olive_h).get_json()["code"]
    request = _post(client, f"/groups/{asking['groupId']}/join-requests", dora_h,
                    {"code": ask_code, "mode": "NEW"})
    _post(client, "/people/me/friends", olive_h, {"userId": dora})  # friends: she may invite
    _post(client, f"/people/me/friends/{olive}/accept", dora_h, status=200)
    pat_h, pat = sign_in("pat@example.com", display_name="Pat")
    _post(client, "/people/me/friends", pat_h, {"userId": dora})  # pending, for Dora to accept
    quinn_h, quinn = sign_in("quinn@example.com", display_name="Quinn")
    inviting = _post(client, "/groups", olive_h, {"name": "Inviting", "currency": "EUR"})
    _post(client, f"/groups/{inviting['groupId']}/invitations", olive_h,
          {"userId": dora, "role": "MEMBER"})
    # A chat session with a draft of Dora's (the worker inline, as local mode's thread).
    from app.config import Settings
    from app.chat import drafting
    from app.core import handoff

    session = _post(client, "/chat/sessions", dora_h, {"groupId": gid})["sessionId"]
    handoff.use_local_runner("chat", lambda item: drafting.process(item, Settings()))
    try:
        _post(client, f"/chat/sessions/{session}/messages", dora_h,
              {"text": "I paid 12 for tea with Gus"}, status=202)
    finally:
        handoff.use_local_runner("chat", None)
    (draft,) = client.get(f"/chat/sessions/{session}", headers=dora_h).get_json()["drafts"]
    # A group where Quinn owes Dora, for a reminder (a guest can't be reminded).
    owed = _post(client, "/groups", dora_h, {"name": "Owed", "currency": "EUR"})
    owed_code = client.get(f"/groups/{owed['groupId']}/invite", headers=dora_h).get_json()["code"]
    asked = _post(client, f"/groups/{owed['groupId']}/join-requests", quinn_h,
                  {"code": owed_code, "mode": "NEW"})
    quinn_pid = _post(client, f"/groups/{owed['groupId']}/join-requests/{asked['requestId']}"
                              "/approve", dora_h, {"role": "MEMBER"}, status=200)[
        "participant"]["participantId"]
    _post(client, f"/groups/{owed['groupId']}/expenses", dora_h, {
        "description": "Lunch", "amount": 800, "splitMode": "EQUAL",
        "payments": [{"participantId": owed["myParticipantId"], "amount": 800}],
        "splits": [{"participantId": owed["myParticipantId"]}, {"participantId": quinn_pid}]})
    admin_h, _ = sign_in("root@example.com", admin=True)
    return dict(owed_gid=owed["groupId"], quinn_pid=quinn_pid, dora_h=dora_h, dora=dora, sid=session, draft=draft["draftId"], admin_h=admin_h, olive_h=olive_h, olive=olive, pat=pat, pat_h=pat_h,
                quinn=quinn, quinn_h=quinn_h, gid=gid, pid=pid,
                guest=guest["participantId"], expense=expense["expenseId"],
                olive_gid=theirs["groupId"], code=code, asking=asking["groupId"],
                request=request["requestId"], inviting=inviting["groupId"])


def _walk(s):
    """(label, caller, method, path, body): each write route, as Dora or naming Dora."""
    d, o, g = s["dora_h"], s["olive_h"], f"/groups/{s['gid']}"
    expense = {"description": "Cake", "amount": 200, "splitMode": "EQUAL",
               "payments": [{"participantId": s["pid"], "amount": 200}],
               "splits": [{"participantId": s["pid"]}]}
    return [
        ("groups.create_group", d, "POST", "/groups", {"name": "New", "currency": "EUR"}),
        ("groups.create_group+key", {**d, "Idempotency-Key": "k-1"}, "POST", "/groups",
         {"name": "Keyed", "currency": "EUR"}),
        ("developer.create_token", d, "POST", "/developer/tokens",
         {"name": "cli", "scopes": ["groups:read"]}),
        ("people.put_handle", d, "PUT", "/people/me/handle",
         {"handle": "dora_d", "discoverable": True}),
        ("insight.put_payment_methods", d, "PUT", "/users/me/payment-methods",
         {"methods": [{"type": "PAYPAL", "handle": "dora"}]}),
        ("people.request_friend", d, "POST", "/people/me/friends", {"userId": s["quinn"]}),
        ("people.accept_friend", d, "POST", f"/people/me/friends/{s['pat']}/accept", None),
        ("people.accept", d, "POST", f"/people/me/invitations/{s['inviting']}/accept", None),
        ("join_requests.submit", d, "POST", f"/groups/{s['olive_gid']}/join-requests",
         {"code": s["code"], "mode": "NEW"}),
        ("notifications.register_device", d, "POST", "/notifications/devices",
         {"platform": "IOS", "token": "dora-phone"}),
        ("notifications.patch_preferences", d, "PATCH", "/notifications/preferences",
         {"types": {"EXPENSE_ADDED": False}}),
        ("notifications.mute", d, "PUT", f"/notifications/mutes/{s['gid']}", None),
        ("notifications.unmute", d, "DELETE", f"/notifications/mutes/{s['gid']}", None),
        ("notifications.mark_read", d, "POST", "/notifications/read", {"all": True}),
        ("users.patch_me", d, "PATCH", "/users/me", {"displayName": "Dee"}),
        ("users.link_identity", d, "POST", "/users/me/identities",
         {"provider": "google", "subject": "dora-g"}),
        ("groups.add_guest", d, "POST", f"{g}/participants", {"displayName": "Sam"}),
        ("links.create_link", d, "POST", f"{g}/links", {"role": "MEMBER"}),
        ("expenses.create_expense", d, "POST", f"{g}/expenses", expense),
        ("receipts.create_receipt", d, "POST", f"{g}/receipts",
         {"contentType": "image/png", "size": 2000}),
        ("settlements.create_settlement", d, "POST", f"{g}/settlements",
         {"payerId": s["guest"], "payeeId": s["pid"], "amount": 100}),
        ("recurring.create_recurring", d, "POST", f"{g}/recurring",
         {**expense, "frequency": "MONTHLY", "startDate": "2026-11-01"}),
        ("comments.add_comment", d, "POST", f"{g}/expenses/{s['expense']}/comments",
         {"body": "hi"}),
        ("people.invite", d, "POST", f"{g}/invitations", {"userId": s["olive"], "role": "MEMBER"}),
        ("people.invite+email", d, "POST", f"{g}/invitations",
         {"email": "someone@example.com", "role": "MEMBER"}),
        # Someone else's write creating a row in Dora's name.
        ("people.request_friend@quinn", s["quinn_h"], "POST", "/people/me/friends",
         {"userId": s["dora"]}),
        ("people.invite@olive", o, "POST", f"/groups/{s['olive_gid']}/invitations",
         {"userId": s["dora"], "role": "MEMBER"}),
        ("join_requests.approve@olive", o, "POST",
         f"/groups/{s['asking']}/join-requests/{s['request']}/approve", {"role": "MEMBER"}),
        ("chat.create_session", d, "POST", "/chat/sessions", {"groupId": s["gid"]}),
        ("chat.post_message", d, "POST", f"/chat/sessions/{s['sid']}/messages",
         {"text": "I paid 5 for tea"}),
        ("chat.confirm_draft", d, "POST",
         f"/chat/sessions/{s['sid']}/drafts/{s['draft']}/confirm", {"version": 1}),
        ("chat.grant_credits@admin", s["admin_h"], "POST", f"/admin/users/{s['dora']}/credits",
         {"delta": 5, "reason": "walk"}),
        ("balances.create_conversion", d, "POST", f"{g}/conversions",
         {"currency": "USD", "exchangeRate": "0.9"}),
        ("insight.send_reminder", d, "POST", f"/groups/{s['owed_gid']}/reminders",
         {"participantId": s["quinn_pid"]}),
        ("insight.settle_with", d, "POST", f"/users/me/people/{s['quinn']}/settle",
         {"currency": "EUR", "direction": "RECEIVE"}),
        ("imports.start_import", d, "POST", "/imports", {
            "format": "splitwise-csv",
            "content": "Date,Description,Category,Cost,Currency,Dora,Sam\n"
                       "2026-11-01,Tea,General,2.00,EUR,1.00,-1.00\n"}),
    ]


def _mark_deleting(user_id: str) -> None:
    """What the deletion's first step writes on the profile (the identities keep unflagged,
    as on an instance whose auth-time read came just before the mark)."""
    Profile(*Profile.key(user_id)).update(actions=[Profile.Status.set(DELETING)])


def test_every_write_route_is_walked_or_exempt(app):
    walked = {label.split("+")[0].split("@")[0] for label, *_ in _walk(_FAKE_SCENE)}
    missing = []
    for rule in app.url_map.iter_rules():
        methods = set(rule.methods) & {"POST", "PUT", "PATCH", "DELETE"}
        view = app.view_functions[rule.endpoint]
        if not methods or rule.endpoint in walked or rule.endpoint in EXEMPT:
            continue
        if methods == {"DELETE"} or needs.of(view).public:
            continue  # removals; OAuth's public endpoints (EXEMPT_PUBLIC)
        missing.append(rule.endpoint)
    assert missing == [], f"walk these writes in _walk or exempt them with a reason: {missing}"


_FAKE_SCENE = {**{k: "x" for k in ("gid", "pid", "guest", "expense", "olive", "dora", "pat",
                                   "quinn", "inviting", "olive_gid", "code", "asking",
                                   "request", "sid", "draft", "owed_gid", "quinn_pid")},
               "dora_h": {}, "olive_h": {}, "quinn_h": {}, "pat_h": {}, "admin_h": {}}


def _auth_read_says_live(monkeypatch) -> None:
    """The auth-time read said "live" (it ran just before the mark): only the writes' own
    conditions stand between these requests and rows that would outlive the account. On a
    group route the read still fetches the group rows the authorization uses."""
    from app.auth import authenticate
    from app.core import live

    monkeypatch.setattr(authenticate, "is_live", lambda _user_id: True)
    monkeypatch.setattr(authenticate, "is_live_in_group",
                        lambda *args: live.is_live_in_group(*args) or True)


def test_no_write_lands_for_an_account_being_deleted(client, scene, monkeypatch):
    _mark_deleting(scene["dora"])
    _auth_read_says_live(monkeypatch)
    before = _snapshot()
    landed = []
    for label, headers, method, path, body in _walk(scene):
        reply = client.open(path, method=method, json=body, headers=headers)
        after = _snapshot()
        if reply.status_code < 400 or after != before:
            landed.append((label, reply.status_code,
                           sorted(set(after) ^ set(before))[:3]
                           or [k for k in after if after[k] != before.get(k)][:3]))
            before = after
        else:
            assert reply.status_code in (401, 404, 409), (label, reply.get_json())
    assert [entry for entry in landed if entry[0] not in GROUP_HISTORY] == []


def test_the_walk_writes_for_a_live_account(client, scene):
    """The same requests do write while Dora's account is live (the walk is not vacuous)."""
    before = _snapshot()
    wrote = []
    for label, headers, method, path, body in _walk(scene):
        client.open(path, method=method, json=body, headers=headers)
        after = _snapshot()
        if after != before:
            wrote.append(label)
        before = after
    quiet = {"people.request_friend@quinn",  # Dora asked Quinn first: pending, 409
             "people.invite@olive"}  # Dora joined Olive's group in this walk: a member
    assert {label for label, *_ in _walk(scene)} - set(wrote) <= quiet
