"""Opaque, tamper-evident list cursors.

A cursor is the DynamoDB LastEvaluatedKey, bound to a scope (route + caller) and signed with
HMAC-SHA256, then base64url-encoded. A cursor edited, forged or replayed on another list is a
400, never a query outside what the caller may read."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, List, Optional

from app.errors import Invalid

_key: dict = {"secret": secrets.token_bytes(32), "load": None}
DEFAULT_LIMIT = 25
MAX_LIMIT = 100


def configure(secret: bytes = b"", *, load: Optional[Callable[[], bytes]] = None) -> None:
    """Set the signing key (bootstrap does this once): the key itself, or ``load``, which
    fetches it when the first cursor is signed or checked (most requests never need one)."""
    if secret:
        _key.update(secret=secret, load=None)
    elif load is not None:
        _key["load"] = load


def _secret() -> bytes:
    load = _key["load"]
    if load is not None:
        _key.update(secret=load(), load=None)  # raises (and stays pending) if the read fails
    return _key["secret"]


def derived_key(purpose: str) -> bytes:
    """A 256-bit key of its own for ``purpose`` (app.core.sealing), from the same secret:
    one secret to keep, and no key of one use ever serves another."""
    return hmac.new(_secret(), b"key\x00" + purpose.encode(), hashlib.sha256).digest()


def _sign(scope: str, payload: bytes) -> bytes:
    return hmac.new(_secret(), scope.encode() + b"\x00" + payload, hashlib.sha256).digest()[:16]


def encode(last_key: Optional[dict], scope: str) -> Optional[str]:
    """The cursor for the next page, or None when the list is exhausted."""
    if not last_key:
        return None
    payload = json.dumps(last_key, separators=(",", ":"), sort_keys=True).encode()
    token = _sign(scope, payload) + payload
    return base64.urlsafe_b64encode(token).decode().rstrip("=")


def decode(cursor: Optional[str], scope: str) -> Optional[dict]:
    """The LastEvaluatedKey inside a cursor issued for this scope, or Invalid."""
    if not cursor:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        signature, payload = raw[:16], raw[16:]
        if len(signature) == 16 and hmac.compare_digest(signature, _sign(scope, payload)):
            value = json.loads(payload)
            if isinstance(value, dict):
                return value
    except (ValueError, TypeError):
        pass
    raise Invalid("The cursor is not valid for this list.", details={"cursor": ["Invalid cursor."]})


@dataclass
class Page:
    """One page of a list and the cursor for the next one."""

    items: List[Any] = field(default_factory=list)
    next_cursor: Optional[str] = None

    def as_dict(self) -> dict:
        return {"items": self.items, "nextCursor": self.next_cursor}


def page_of(result_iterator, scope: str, convert=lambda row: row) -> Page:
    """Drain a PynamoDB iterator created with ``limit`` into a Page."""
    items = [convert(row) for row in result_iterator]
    return Page(items=items, next_cursor=encode(result_iterator.last_evaluated_key, scope))


def clamp_limit(limit: Optional[int]) -> int:
    if limit is None:
        return DEFAULT_LIMIT
    return max(1, min(MAX_LIMIT, int(limit)))


def chunked(values: Iterable[Any], size: int) -> Iterable[list]:
    chunk: list = []
    for value in values:
        chunk.append(value)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
