"""The realtime subscribe token: an HS256 JWT listing the caller's channels, valid 15 minutes.

``POST /realtime/token`` mints it with the caller's groups as they are now (one index query);
a group joined later needs a new token, a group left is refused at the next subscribe (the
membership is read again: app/realtime/admission.py), and the REVOKED poke tells an
open client at once. Its audience and ``typ`` keep it out of every
other verifier (the API's authenticator never accepts an HS256 token)."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import List, Optional

import jwt

from app.realtime import channels as channel_names, keys
from models.groups import Participant

LIFETIME_S = 15 * 60
AUDIENCE = "tailspend-realtime"
TOKEN_TYPE = "rt+jwt"
LEEWAY_S = 5


class TokenRefused(Exception):
    """Expired, forged, malformed or for someone else's audience."""


@dataclass(frozen=True)
class Grant:
    user_id: str
    channels: List[str]
    expires_at: int  # unix seconds


def caller_channels(user_id: str) -> List[str]:
    group_ids = [m.GroupId for m in Participant.memberships(user_id)]
    return channel_names.channels_for(user_id, group_ids)


def mint(user_id: str, *, now: Optional[float] = None, channels: Optional[List[str]] = None,
         ends_by: Optional[int] = None) -> tuple:
    """(token, Grant) for the caller's current groups and their own user channel, or for
    ``channels`` (a share-link session's one group). ``ends_by``: the credential behind it
    ends then, and the token must not outlive it."""
    issued = int(now if now is not None else time.time())
    expires = issued + LIFETIME_S if ends_by is None else min(issued + LIFETIME_S, ends_by)
    listed = caller_channels(user_id) if channels is None else list(channels)
    grant = Grant(user_id, listed, expires)
    kid, key = keys.current()
    token = jwt.encode({"sub": user_id, "aud": AUDIENCE, "iat": issued, "exp": grant.expires_at,
                        "channels": grant.channels},
                       key, algorithm="HS256", headers={"kid": kid, "typ": TOKEN_TYPE})
    return token, grant


def verify(token: object, *, now: Optional[float] = None) -> Grant:
    """The grant a token carries, or TokenRefused."""
    if not isinstance(token, str) or not token:
        raise TokenRefused("No token.")
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise TokenRefused("The token is malformed.") from None
    key = keys.for_kid(header.get("kid"))
    if key is None or header.get("alg") != "HS256" or header.get("typ") != TOKEN_TYPE:
        raise TokenRefused("The token was not issued here.")
    options = {"require": ["exp", "iat", "sub", "aud", "channels"]}
    try:
        if now is None:
            claims = jwt.decode(token, key, algorithms=["HS256"], audience=AUDIENCE,
                                leeway=LEEWAY_S, options=options)
        else:  # a fixed clock (tests): PyJWT checks against the wall clock, so check here
            claims = jwt.decode(token, key, algorithms=["HS256"], audience=AUDIENCE,
                                options={**options, "verify_exp": False})
            if claims["exp"] + LEEWAY_S <= now:
                raise jwt.ExpiredSignatureError()
    except jwt.ExpiredSignatureError:
        raise TokenRefused("The token has expired: ask POST /realtime/token for a new one.") from None
    except jwt.PyJWTError:
        raise TokenRefused("The token is invalid.") from None
    listed = claims["channels"]
    if not isinstance(listed, list) or not all(isinstance(c, str) for c in listed):
        raise TokenRefused("The token is invalid.")
    return Grant(str(claims["sub"]), listed, int(claims["exp"]))
