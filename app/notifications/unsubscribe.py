"""The one-click unsubscribe token (RFC 8058): the recipient and the type, signed with
HMAC-SHA256 under the cursor key in a scope of its own, so verifying it needs no stored row and
a forged or edited token fails. Apart from mail.py, so the API (which verifies) loads no
transport and reads none of its settings."""
from __future__ import annotations

from typing import Optional

from app.core import paging
from app.errors import Invalid

UNSUBSCRIBE_SCOPE = "unsubscribe"


def unsubscribe_token(user_id: str, event_type: str) -> str:
    return paging.encode({"u": user_id, "t": event_type}, UNSUBSCRIBE_SCOPE)


def read_unsubscribe_token(token: Optional[str]) -> tuple:
    """(user id, type) from a token this service signed; Invalid otherwise."""
    try:
        value = paging.decode(token, UNSUBSCRIBE_SCOPE) or {}
    except Invalid:
        value = {}
    user_id, event_type = value.get("u"), value.get("t")
    if not isinstance(user_id, str) or not isinstance(event_type, str):
        raise Invalid("The unsubscribe link is not valid.",
                      details={"token": ["Not a token this service issued."]})
    return user_id, event_type
