"""What a groups-table stream record means to an open client: zero or more pokes.

A poke is ``{groupId, revision, kind, id}``, never data: the client reads
``/groups/{groupId}/changes?since=`` next (docs/realtime.md).
- an inserted CHANGE row -> ``/groups/{groupId}``: the revision and the changed resource;
- an inserted USERMEMBER row (the caller joined, or was added) -> ``/users/{userId}``, kind
  HOME: the home screen has a new group (a new token lists its channel);
- a removed USERMEMBER row (a removal, a leave, a deleted group) -> ``/users/{userId}``,
  kind REVOKED: stop listening to that group (its channel refuses the next subscribe, and
  local mode's server ends the user's subscriptions to it: :func:`revocation`);
- from the notifications table: an inserted or modified NOTIF row (a new history entry, one
  marked read) -> ``/users/{userId}``, kind NOTIFICATION, the notification's id and group;
  an inserted or modified PREFS row (read-all watermark, preferences, mutes) -> the same
  channel, kind NOTIFICATION_SETTINGS, id the user's. Re-read ``GET /notifications``.
Every other record is none of a client's business (the template's filters keep them out)."""
from __future__ import annotations

import json
from typing import List, NamedTuple, Optional, Tuple

from app.realtime.channels import USERS, group_channel, user_channel
from models.groups import CHANGE_PREFIX, USERMEMBER_PREFIX, Change
from models.notifications import NOTIF_PREFIX, PREFS, USER_PREFIX, Notification

HOME, REVOKED = "HOME", "REVOKED"
NOTIFICATION, NOTIFICATION_SETTINGS = "NOTIFICATION", "NOTIFICATION_SETTINGS"


class Poke(NamedTuple):
    channel: str
    group_id: Optional[str]  # None: a notification change that names no group
    revision: Optional[int]
    kind: str
    id: str

    def event(self) -> str:
        """The event as AppSync wants it: a JSON document in a string."""
        return json.dumps({"groupId": self.group_id, "revision": self.revision,
                           "kind": self.kind, "id": self.id}, separators=(",", ":"))


def revocation(channel: str, event: str) -> Optional[Tuple[str, str]]:
    """(user id, group id) when ``event`` on ``channel`` is a REVOKED poke, else None: the
    member's subscriptions to that group end with it (local mode's server)."""
    if not channel.startswith(f"/{USERS}/"):
        return None
    try:
        poke = json.loads(event)
    except ValueError:
        return None
    if not isinstance(poke, dict) or poke.get("kind") != REVOKED \
            or not isinstance(poke.get("groupId"), str):
        return None
    return channel[len(f"/{USERS}/"):], poke["groupId"]


def _change(image: Optional[dict]) -> Change:
    """The CHANGE row a stream image holds (the model reads its stored names)."""
    try:
        change = Change.from_raw(image)
    except (AttributeError, KeyError, TypeError, ValueError):
        change = None
    if change is None or not (change.GroupId and change.Kind and change.ResourceId) \
            or change.Revision is None:
        raise ValueError("stream record lacks a change's GroupId, Revision, Kind or ResourceId")
    return change


def _s(image: dict, name: str) -> str:
    value = image.get(name, {}).get("S")
    if not isinstance(value, str) or not value:
        raise ValueError(f"stream record lacks {name}")
    return value


def pokes_for(record: dict) -> List[Poke]:
    """The pokes one DynamoDB stream record (Lambda's shape) publishes; ValueError when it is
    malformed (it then fails alone and reaches the failure queue, never dropped silently)."""
    name = record.get("eventName")
    body = record.get("dynamodb") or {}
    keys = body.get("Keys") or {}
    sort_key = keys.get("SK", {}).get("S", "")
    if name == "INSERT" and sort_key.startswith(CHANGE_PREFIX):
        change = _change(body.get("NewImage"))
        return [Poke(group_channel(change.GroupId), change.GroupId, int(change.Revision),
                     change.Kind, change.ResourceId)]
    if sort_key.startswith(USERMEMBER_PREFIX) and name in ("INSERT", "REMOVE"):
        group_id, user_id = _s(keys, "GroupId"), sort_key[len(USERMEMBER_PREFIX):]
        if not user_id:
            raise ValueError("stream record lacks the member's user id")
        return [Poke(user_channel(user_id), group_id, None,
                     HOME if name == "INSERT" else REVOKED, group_id)]
    partition = keys.get("PK", {}).get("S", "")
    if name in ("INSERT", "MODIFY") and partition.startswith(USER_PREFIX):
        return _notification_pokes(partition[len(USER_PREFIX):], sort_key, body)
    return []


def _notification_pokes(user_id: str, sort_key: str, body: dict) -> List[Poke]:
    """A notifications-table row of ``user_id``: its history or its read/preference state."""
    if not user_id:
        raise ValueError("stream record lacks the user id")
    if sort_key.startswith(NOTIF_PREFIX):
        try:
            notification = Notification.from_raw_data(body.get("NewImage") or {})
        except (AttributeError, KeyError, TypeError, ValueError):
            notification = None
        if notification is None or not notification.NotificationId:
            raise ValueError("stream record lacks NotificationId")
        return [Poke(user_channel(user_id), notification.GroupId or None, None, NOTIFICATION,
                     notification.NotificationId)]
    if sort_key == PREFS:
        return [Poke(user_channel(user_id), None, None, NOTIFICATION_SETTINGS, user_id)]
    return []
