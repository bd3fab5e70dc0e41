"""What a push provider answers for one push, and how long a push may wait to be delivered:
shared by the router (push.py) and the providers that talk to APNs and FCM (mobile_push.py)."""
from __future__ import annotations

SENT, GONE, FAILED = "SENT", "GONE", "FAILED"  # GONE: the token is dead, the caller removes it
TIMED_OUT = "TIMED_OUT"  # still running when the record's deadline passed: abandoned
PUSH_TTL_SECONDS = 24 * 3600
