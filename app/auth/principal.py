"""The authenticated caller."""
from __future__ import annotations

from typing import FrozenSet, NamedTuple, Optional


class Principal(NamedTuple):
    """Who is calling and through which credential.

    ``credential_id`` names the credential for idempotency records and usage counting:
    ``APP#<userId>`` for app sign-ins (see :func:`app_credential`), the token id for personal
    access tokens, the grant id for MCP tokens. (A NamedTuple, not a dataclass: the class is
    built at every cold start, and a frozen dataclass costs ten times as much to build.)"""

    user_id: str
    identity_key: str
    credential_id: str
    kind: str = "app"  # app | pat | mcp | link
    is_admin: bool = False
    scopes: Optional[FrozenSet[str]] = None  # None: unrestricted (app sign-in)
    # The account is being deleted: only the view that finishes the deletion admits it.
    deleting: bool = False
    # A share-link session (kind "link", docs/share-links.md): the one group, link and guest
    # it acts for. ``user_id`` is then ``link:<linkId>:<participantId>``, never an account's.
    link: Optional["LinkSession"] = None


class LinkSession(NamedTuple):
    """What a share-link session token is bound to (app.auth.link_sessions)."""

    group_id: str
    link_id: str
    participant_id: str
    expires_at: int  # unix seconds


def link_user_id(link_id: str, participant_id: str) -> str:
    """The stand-in user id of a link session: it names the link and the guest, so records
    keyed by the caller (idempotency, cursors, a comment's author) stay apart from every
    account's and from another guest's of the same link."""
    return f"link:{link_id}:{participant_id}"


def link_of_user_id(user_id: str) -> Optional[tuple]:
    """(linkId, participantId) of a link session's stand-in user id, or None for an account."""
    parts = user_id.split(":") if isinstance(user_id, str) else []
    return (parts[1], parts[2]) if len(parts) == 3 and parts[0] == "link" else None


def app_credential(user_id: str) -> str:
    """The credential id of an app sign-in: every app token of one user shares it."""
    return f"APP#{user_id}"
