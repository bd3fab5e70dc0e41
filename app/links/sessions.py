"""Session tokens of a share link: ``tss_<payload>.<kid>.<signature>``, an HMAC under the
token pepper (app.developer.pepper) of the group, link and guest it acts for and when it
ends (1 hour).

Verifying one reads nothing: a session is only as good as its link row, which the request's
access check reads in the same BatchGetItem as the group head (app.core.access.
authorize_link), so revoking the link, its expiry, or its guest being claimed or removed
ends every session at the next request, at no call of its own."""
from __future__ import annotations

import base64
import binascii
import json
import re
import time
from typing import Optional

from app.auth.principal import LinkSession, Principal, link_user_id
from app.developer import pepper
from app.errors import Unauthenticated

PREFIX = "tss_"
LIFETIME_SECONDS = 3600
_TOKEN_RE = re.compile(r"tss_([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{1,40})\.([0-9a-f]{64})")
_PURPOSE = "link-session:"  # the pepper also keys PAT hashes: keep the two apart


def sign(group_id: str, link_id: str, participant_id: str, *,
         now: Optional[float] = None) -> tuple:
    """(the session token, its end as unix seconds)."""
    expires = int(now if now is not None else time.time()) + LIFETIME_SECONDS
    body = json.dumps({"g": group_id, "l": link_id, "p": participant_id, "e": expires},
                      separators=(",", ":"))
    payload = base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")
    _scheme, kid, digest = pepper.hash_message(_PURPOSE + payload).split(":")
    return f"{PREFIX}{payload}.{kid}.{digest}", expires


def verify(token: str, *, now: Optional[float] = None) -> LinkSession:
    """What the token is bound to, or Unauthenticated (forged, malformed or expired)."""
    match = _TOKEN_RE.fullmatch(token or "")
    if not match:
        raise Unauthenticated("The share-link session token is malformed.")
    payload, kid, digest = match.groups()
    if not pepper.check(_PURPOSE + payload, f"{pepper.SCHEME}:{kid}:{digest}"):
        raise Unauthenticated("The share-link session token is not valid.")
    try:
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        session = LinkSession(str(claims["g"]), str(claims["l"]), str(claims["p"]),
                              int(claims["e"]))
    except (ValueError, KeyError, TypeError, binascii.Error):
        raise Unauthenticated("The share-link session token is malformed.") from None
    if session.expires_at <= (now if now is not None else time.time()):
        raise Unauthenticated("The share-link session has expired; open the link again.")
    return session


def principal(token: str) -> Principal:
    """The authenticator's verifier for ``tss_`` bearer tokens (app.auth.authenticate)."""
    session = verify(token)
    user_id = link_user_id(session.link_id, session.participant_id)
    return Principal(user_id=user_id, identity_key=f"link#{session.link_id}",
                     credential_id=user_id, kind="link",
                     scopes=frozenset(), link=session)
