"""Personal access tokens: mint, list, revoke, and the hash that is all we keep.

A token reads ``tsp_<tokenId>_<secret>``: the token id (a UUID v4, the row's key) lets us
fetch exactly one row, and the secret (32 bytes from ``secrets``, 256 bits, base64url) is
checked against ``SecretHash`` = HMAC-SHA256(pepper, tokenId ":" secret) in constant time
(the hash names its pepper's key id, so the pepper can rotate: see pepper.py).
The plaintext exists only in the creation reply. Keying the HMAC by the token id as well
binds a hash to its row, and the pepper means a leaked table (hashes included) cannot be
turned into working tokens or brute-forced offline.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable, FrozenSet, List, Optional

from app.errors import Conflict, Invalid, NotFound
from app.developer.errors import TooManyTokens, too_many_tokens
from app.core.clock import new_id
from app.core.transactions import Transaction
from app.developer import pepper
from app.core.conditional import put_if, update_if
from models.developer_tokens import AccessToken, TokenCount

PREFIX = "tsp_"
SCOPES = ("groups:read", "expenses:write", "settlements:write", "profile:write")
SECRET_BYTES = 32
MAX_TOKENS_PER_USER = 50
DEFAULT_EXPIRY_DAYS = 90
_TOKEN_RE = re.compile(r"tsp_([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})_"
                       r"([A-Za-z0-9_-]{43})")


@dataclass(frozen=True)
class ParsedToken:
    token_id: str
    secret: str


def parse(credential: str) -> Optional[ParsedToken]:
    """The parts of a well-formed token, or None (never an exception, whatever the input)."""
    if not isinstance(credential, str):
        return None
    match = _TOKEN_RE.fullmatch(credential)
    return ParsedToken(match.group(1), match.group(2)) if match else None


def secret_hash(token_id: str, secret: str) -> str:
    """``hmac-sha256:<pepper kid>:<hex>`` under the current pepper (see pepper.py)."""
    return pepper.hash_message(f"{token_id}:{secret}")


def matches(parsed: ParsedToken, stored_hash: str) -> bool:
    """Under whichever pepper the stored hash names, while the ring still holds it."""
    return pepper.check(f"{parsed.token_id}:{parsed.secret}", stored_hash or "")


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


def view(token: AccessToken, now: datetime) -> dict:
    """The public shape of a token row: never the secret or its hash."""
    moment = iso(now)
    status = ("REVOKED" if token.RevokedAt else "EXPIRED" if token.ExpiresAt <= moment
              else "ACTIVE")
    return {"tokenId": token.TokenId, "name": token.Name, "prefix": token.Prefix,
            "scopes": sorted(token.Scopes or ()), "createdAt": token.CreatedAt,
            "expiresAt": token.ExpiresAt, "revokedAt": token.RevokedAt,
            "lastUsedAt": token.LastUsedAt, "status": status}


class _Full(TooManyTokens):
    """The owner's counter is at the cap (maybe only with expired tokens: recount, retry)."""


def create_token(user_id: str, *, name: str, scopes: List[str], expires_in_days: int,
                 clock: Callable[[], datetime] = _utcnow) -> dict:
    """Mint a token; the reply is the only place its secret ever appears.

    One transaction: the owner's account is live, the owner's count of live tokens goes up
    by one only while below the cap, and the token row is put. When the count is full (or
    not there yet) it is recounted from the owner's tokens, releasing expired ones
    (:func:`_recount`), and the create is tried once more."""
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        raise Invalid("Unknown or missing scopes.",
                      details={"scopes": [f"Choose from {', '.join(SCOPES)}."]})
    now = clock()
    token_id, secret = new_id(), secrets.token_urlsafe(SECRET_BYTES)
    row = AccessToken(*AccessToken.key(token_id), UserId=user_id, CreatedAt=iso(now),
                      Name=name, Prefix=f"{PREFIX}{token_id[:8]}",
                      SecretHash=secret_hash(token_id, secret), Scopes=set(scopes),
                      ExpiresAt=iso(now + timedelta(days=expires_in_days)))
    for attempt in (1, 2):
        try:
            _commit_create(user_id, row)
            break
        except _Full:
            if attempt == 2 or not _recount(user_id, now):
                raise too_many_tokens(MAX_TOKENS_PER_USER) from None
    return {**view(row, now), "token": f"{PREFIX}{token_id}_{secret}"}


def _commit_create(user_id: str, row: AccessToken) -> None:
    counter = TokenCount(*TokenCount.key(user_id))
    (Transaction()
     .require_live_account(user_id)
     .update(counter, [TokenCount.Live.add(1), TokenCount.EntityType.set(TokenCount)],
             # An absent count fails too: it is seeded from the owner's tokens first.
             condition=TokenCount.Live < MAX_TOKENS_PER_USER,
             on_fail=_Full("The token cap is reached."))
     # A UUID v4 collision: vanishingly rare, safe to retry.
     .put(row, condition=AccessToken.TokenId.does_not_exist(),
          on_fail=Invalid("Token id collision; try again."))
     .commit())


def _recount(user_id: str, now: datetime) -> bool:
    """Set the owner's count to their tokens neither revoked nor expired, if the count is
    still what we read first (a create or revoke in between makes us give up: the caller
    answers TOO_MANY_TOKENS, or retries). An owner without a count yet (their first create:
    an absent count fails the create's condition) gets one seeded the same way. True when
    the create is worth retrying.

    The owner index is eventually consistent; a token created in the last moment could be
    missed, but creates only succeed below the cap, and this runs only when it is full."""
    try:
        counted = int(TokenCount.get(*TokenCount.key(user_id), consistent_read=True).Live or 0)
    except TokenCount.DoesNotExist:
        counted = None
    moment = iso(now)
    live = sum(1 for token in AccessToken.for_owner(user_id)
               if not token.RevokedAt and token.ExpiresAt > moment)
    row = TokenCount(*TokenCount.key(user_id))
    if counted is None:  # lost to a concurrent seed: retry against that count all the same
        put_if(TokenCount(*TokenCount.key(user_id), Live=live), TokenCount.Live.does_not_exist())
        return True
    if live >= counted:
        return False
    return update_if(row, [TokenCount.Live.set(live)], TokenCount.Live == counted)


def list_tokens(user_id: str, *, clock: Callable[[], datetime] = _utcnow) -> List[dict]:
    """Newest first, from OwnerTokensIndex (which never projects SecretHash)."""
    now = clock()
    return [view(token, now) for token in AccessToken.for_owner(user_id)]


def revoke_token(user_id: str, token_id: str, *,
                 clock: Callable[[], datetime] = _utcnow) -> None:
    """Set RevokedAt (idempotent); someone else's or an unknown token is 404. Revoking a
    token that has not expired gives its slot of the cap back, in the same transaction."""
    stamp = iso(clock())
    row = AccessToken(*AccessToken.key(token_id))
    mine_and_active = (AccessToken.UserId == user_id) & AccessToken.RevokedAt.does_not_exist()
    try:
        (Transaction()
         .update(row, [AccessToken.RevokedAt.set(stamp)],
                 condition=mine_and_active & (AccessToken.ExpiresAt > stamp), on_fail=_SKIP)
         .update(TokenCount(*TokenCount.key(user_id)), [TokenCount.Live.add(-1)],
                 condition=TokenCount.Live > 0, on_fail=_SKIP)
         .commit())
        return
    except _Skip:
        pass  # expired (holds no slot), already revoked, not ours, or no count: no slot back
    if not update_if(row, [AccessToken.RevokedAt.set(stamp)], mine_and_active):
        try:
            existing = AccessToken.get(*AccessToken.key(token_id), consistent_read=True)
        except AccessToken.DoesNotExist:
            raise NotFound("Token not found.") from None
        if existing.UserId != user_id:
            raise NotFound("Token not found.") from None
        # already revoked: DELETE is idempotent


class _Skip(Conflict):
    """The slot-returning revoke does not apply; the plain revoke decides."""


_SKIP = _Skip("No slot to give back.")


def scopes_of(token: AccessToken) -> FrozenSet[str]:
    return frozenset(token.Scopes or ())
