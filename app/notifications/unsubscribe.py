"""The one-click unsubscribe token (RFC 8058): the recipient and the type (or, for an
invitation to an address, the address's hash and the kind: app.notifications.suppression), signed with
HMAC-SHA256 under the cursor key in a scope of its own, so verifying it needs no stored row and
a forged or edited token fails. Apart from mail.py, so the API (which verifies) loads no
transport and reads none of its settings."""
from __future__ import annotations

from typing import Optional

from app.core import paging
from app.errors import Invalid
from app.notifications import preferences, suppression

UNSUBSCRIBE_SCOPE = "unsubscribe"


def unsubscribe_token(user_id: str, event_type: str) -> str:
    return paging.encode({"u": user_id, "t": event_type}, UNSUBSCRIBE_SCOPE)


def address_unsubscribe_token(address_hash: str, kind: str) -> str:
    return paging.encode({"a": address_hash, "k": kind}, UNSUBSCRIBE_SCOPE)


def unsubscribe(token: Optional[str]) -> None:
    """Apply a one-click unsubscribe: an address's suppression, or a user's type switched
    off (app.notifications.preferences); Invalid for a token we did not sign."""
    value = _read(token)
    if isinstance(value.get("a"), str) and isinstance(value.get("k"), str):
        suppression.suppress(value["a"], value["k"])
        return
    preferences.unsubscribe(*read_unsubscribe_token(token))


def _read(token: Optional[str]) -> dict:
    try:
        value = paging.decode(token, UNSUBSCRIBE_SCOPE) or {}
    except Invalid:
        value = {}
    return value if isinstance(value, dict) else {}


def read_unsubscribe_token(token: Optional[str]) -> tuple:
    """(user id, type) from a token this service signed; Invalid otherwise."""
    value = _read(token)
    user_id, event_type = value.get("u"), value.get("t")
    if not isinstance(user_id, str) or not isinstance(event_type, str):
        raise Invalid("The unsubscribe link is not valid.",
                      details={"token": ["Not a token this service issued."]})
    return user_id, event_type
