"""Invite codes: the one generator (group creation, rotation, import), importing nothing
heavier than the standard library so a worker can use it without the groups area's deps."""
from __future__ import annotations

import secrets

INVITE_CODE_BYTES = 18


def new_invite_code() -> str:
    """An unguessable, URL-safe invite code."""
    return secrets.token_urlsafe(INVITE_CODE_BYTES)
