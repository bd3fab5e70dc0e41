"""Idempotency-Key records: replay the first response of a create for 24 hours.

Records live in the developer-tokens table under the caller's credential id (``APP#<userId>``
for app sign-ins). A record is IN_PROGRESS while the first request runs (with a short lease,
so a crashed request does not block the key for a day) and COMPLETED with the response
afterwards. Expiry is checked here, not left to TTL, which may lag by days."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Callable, Optional, Tuple, TypeVar, Union

from app.errors import Conflict, idempotency_in_progress, idempotency_key_reused
from app.core.clock import epoch, now_iso
from app.core.conditional import delete_if, update_if
from app.core.transactions import Transaction
from models.developer_tokens import IdempotencyRecord

Result = TypeVar("Result")

RETENTION_SECONDS = 24 * 3600
LEASE_SECONDS = 30


@dataclass(frozen=True)
class Replay:
    status: int
    body: str


def request_hash(method: str, path: str, body: bytes) -> str:
    """Canonical JSON when the body parses, so key order and spacing do not matter."""
    try:
        canonical = json.dumps(json.loads(body or b"null"), sort_keys=True,
                               separators=(",", ":")).encode()
    except (ValueError, RecursionError):  # not JSON, or nested too deep to walk: hash the bytes
        canonical = body
    return hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + canonical).hexdigest()


class _Taken(Conflict):
    """The key is claimed already (or its record is live): look at what is there."""


def once(credential_id: str, key: str, fingerprint: str, *, owner: Optional[str],
         run: Callable[[], Result],
         kept: Callable[[Result], Optional[Tuple[int, str]]]) -> Union[Replay, Result]:
    """The protocol every idempotent write follows (REST routes and MCP tools alike).

    Claim ``key`` (:func:`begin`: a different request under it is IDEMPOTENCY_KEY_REUSED,
    one still running is IDEMPOTENCY_IN_PROGRESS), or hand back the stored :class:`Replay`
    without running anything. Otherwise ``run``; ``kept(result)`` is the (status, body) to
    replay from now on, or None when the result must not be replayed. A raised error or a
    None frees the key, so the client may retry. The caller authorizes before this: a
    replay answers only someone the write would accept now."""
    replay = begin(credential_id, key, fingerprint, owner=owner)
    if replay is not None:
        return replay
    try:
        result = run()
    except BaseException:
        abandon(credential_id, key)
        raise
    stored = kept(result)
    if stored is None:
        abandon(credential_id, key)
    else:
        complete(credential_id, key, *stored)
    return result


def begin(credential_id: str, key: str, fingerprint: str, *,
          owner: Optional[str]) -> Optional[Replay]:
    """Claim the key for this request, or return the stored response to replay.

    The record is ``owner``'s (the user behind the credential): it is claimed only while
    their account is live, in one transaction, so none outlives the account's deletion.
    A share-link session has no account (``owner`` None): its link, read on this request,
    is what admits it, and its records expire with the rest."""
    now = epoch()
    record = IdempotencyRecord(*IdempotencyRecord.key(credential_id, key),
                               RequestHash=fingerprint, Status="IN_PROGRESS",
                               ExpiresAt=now + RETENTION_SECONDS, LockedUntil=now + LEASE_SECONDS,
                               CreatedAt=now_iso())
    claimable = (IdempotencyRecord.SK.does_not_exist() | (IdempotencyRecord.ExpiresAt < now))
    taken = _Taken("The key is claimed.")
    try:
        claim = Transaction()
        if owner is not None:
            claim.require_live_account(owner)
        claim.put(record, condition=claimable, on_fail=taken).commit()
        return None
    except _Taken as error:
        if error is not taken:
            raise
    existing = IdempotencyRecord.get(*IdempotencyRecord.key(credential_id, key),
                                     consistent_read=True)
    if existing.RequestHash != fingerprint:
        raise idempotency_key_reused()
    if existing.Status == "COMPLETED":
        return Replay(status=int(existing.ResponseStatus), body=existing.ResponseBody or "")
    if (existing.LockedUntil or 0) < now and _take_over(existing, now):
        return None
    raise idempotency_in_progress()


def _take_over(existing: IdempotencyRecord, now: int) -> bool:
    """The first attempt's lease ran out (it crashed): let this attempt run instead."""
    return update_if(existing, [IdempotencyRecord.LockedUntil.set(now + LEASE_SECONDS)],
                     IdempotencyRecord.LockedUntil == existing.LockedUntil)


def complete(credential_id: str, key: str, status: int, body: str) -> None:
    """Store the response so later requests with the key replay it. Only into the record
    :func:`begin` claimed: one swept meanwhile (its account deleted) is not written again."""
    update_if(IdempotencyRecord(*IdempotencyRecord.key(credential_id, key)), [
        IdempotencyRecord.Status.set("COMPLETED"),
        IdempotencyRecord.ResponseStatus.set(status),
        IdempotencyRecord.ResponseBody.set(body),
        IdempotencyRecord.LockedUntil.remove(),
    ], IdempotencyRecord.SK.exists())


def abandon(credential_id: str, key: str) -> None:
    """The request failed: free the key so the client may retry it."""
    delete_if(IdempotencyRecord(*IdempotencyRecord.key(credential_id, key)),
              IdempotencyRecord.Status == "IN_PROGRESS")
