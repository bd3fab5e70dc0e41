"""What a push provider answers for one push, how long a push may wait to be delivered, and
what a phone is shown: shared by the router and its SNS road (push.py) and the providers
that talk to APNs and FCM straight (mobile_push.py), so both roads send the same payload."""
from __future__ import annotations

SENT, GONE, FAILED = "SENT", "GONE", "FAILED"  # GONE: the token is dead, the caller removes it
TIMED_OUT = "TIMED_OUT"  # still running when the record's deadline passed: abandoned
PUSH_TTL_SECONDS = 24 * 3600


def alert(message) -> dict:
    """The title and body a phone shows (APNs's ``alert``, FCM's ``notification``)."""
    return {"title": message.title, "body": message.body}


def apns_payload(message) -> dict:
    """An iOS push: the alert with the default sound, and the app's data beside ``aps``."""
    return {"aps": {"alert": alert(message), "sound": "default"}, "data": message.data()}
