"""After a deletion nothing names the user (e-mail, display name, handle, user id) in any
table, but the opaque ids and the guest name docs/account-deletion.md lists as kept for
other people's history. Proved by scanning every table (test only), after the user left
behind everything the review found: decided join requests (denied with a message, cancelled,
approved in a group they later left), a DENIED lock, an invitation they sent, and outbox
events still to be delivered to them."""
from __future__ import annotations

import boto3

from app.notifications.dispatch import dispatch
from models import registered_tables
from models.base import physical_name
from models.notifications import Event
from tests.account.conftest import _post, _strings

# Kept, by table: attributes that may hold the user's id (opaque, for others' history).
OPAQUE_ID_ATTRIBUTES = {
    "groups": {"CreatedBy", "UpdatedBy", "AuthorUserId", "DecidedBy"},
    # Outbox events live 30 days (TTL); others' history rows keep the event's id (rows in
    # the user's own partitions are leftovers whatever they hold).
    "notifications": {"PK", "SK", "EventId", "NotificationId", "ActorUserId", "ResourceId",
                      "Recipients", "applicantUserId", "fromUserId", "byUserId"},
}
# Kept: the display name of the guest the user's participant turned back into, and others'
# notification texts rendered with the group's names for its participants.
NAME_ATTRIBUTES = {"groups": {"DisplayName"}, "notifications": {"Title", "Body"}}
OUTBOX_PREFIX = "EVENT#"


def _leftovers(user_id: str, email: str, name: str, handle: str) -> list:
    client = boto3.client("dynamodb", region_name="us-east-1")
    found, own_partitions = [], {user_id, f"USER#{user_id}"}
    for logical, model in registered_tables().items():
        for page in client.get_paginator("scan").paginate(TableName=physical_name(logical)):
            for item in page["Items"]:
                if item[model._hash_keyname]["S"] in own_partitions:  # the user's own rows
                    found.append((logical, (model._hash_keyname,), item))
                    continue
                for path, text in _strings(item):
                    leaf = path[-1] if path else ""
                    if email in text or handle in text:
                        found.append((logical, path, text))
                    elif user_id in text and leaf not in OPAQUE_ID_ATTRIBUTES.get(logical, ()):
                        found.append((logical, path, text))
                    elif name in text and leaf not in NAME_ATTRIBUTES.get(logical, ()):
                        found.append((logical, path, text))
    return found


def _group(client, headers, name):
    body = _post(client, "/groups", headers, {"name": name, "currency": "EUR"})
    code = client.get(f"/groups/{body['groupId']}/invite", headers=headers).get_json()["code"]
    return body["groupId"], code


def _request(client, world, gid, code, message):
    return _post(client, f"/groups/{gid}/join-requests", world.dora_h,
                 {"code": code, "mode": "NEW", "message": message})["requestId"]


def _deliver_everything_pending() -> None:
    """The notification worker catching up after the deletion (every outbox event)."""
    for shard in Event.shards():
        for event in list(Event.pending(shard, "9999")):
            dispatch(event)


def test_nothing_names_the_user_after_a_deletion(client, world, sign_in):
    olive_h = world.olive_h
    denied, code = _group(client, olive_h, "Denied")
    request = _request(client, world, denied, code, "Dora here, please let me in")
    _post(client, f"/groups/{denied}/join-requests/{request}/deny", olive_h, status=200)

    cancelled, code = _group(client, olive_h, "Cancelled")
    request = _request(client, world, cancelled, code, "from Dora")
    assert client.delete(f"/groups/{cancelled}/join-requests/{request}",
                         headers=world.dora_h).status_code == 204

    left, code = _group(client, olive_h, "Left")
    request = _request(client, world, left, code, "Dora again")
    joined = _post(client, f"/groups/{left}/join-requests/{request}/approve", olive_h,
                   {"role": "MEMBER"}, status=200)["participant"]["participantId"]
    assert client.delete(f"/groups/{left}/participants/{joined}",
                         headers=olive_h).status_code == 204

    pat_h, pat = sign_in("pat@example.com", display_name="Pat")
    assert client.put("/people/me/handle", headers=pat_h,
                      json={"handle": "pat_p", "discoverable": True}).status_code == 200
    _post(client, f"/groups/{world.co_owned}/invitations", world.dora_h,
          {"userId": pat, "role": "MEMBER"})
    assert len(client.get("/people/me/invitations", headers=pat_h).get_json()["items"]) == 1

    assert client.delete("/users/me", headers=world.dora_h).status_code == 204
    _deliver_everything_pending()  # events naming Dora as a recipient, in flight

    assert _leftovers(world.dora, world.email, "Dora", "dora_d") == []
    # The invitation Dora sent is withdrawn: nobody can accept it any more.
    assert client.get("/people/me/invitations", headers=pat_h).get_json()["items"] == []
    assert client.post(f"/people/me/invitations/{world.co_owned}/accept",
                       headers=pat_h).status_code == 404
