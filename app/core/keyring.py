"""Secrets that rotate without killing what they signed: key ids, and two keys during a rotation.

A secret's SecretString is either
- the key itself (a plain value: every secret made before key rings; one key, whose id the
  caller names), or
- a key ring: ``{"current": "<kid>", "keys": {"<kid>": "<key>", ...}}``. New hashes and
  tokens use the current key and carry its id; verification accepts every key listed, so a
  rotation adds the new key, makes it current, and drops the old one only when nothing signed
  with it is still needed. docs/rotation.md is the procedure.

A secret read from Secrets Manager is read again every REFRESH_S on use (:class:`Refreshing`),
so every warm container, and every SnapStart snapshot whose init read it, follows a rotation
within minutes, without a deploy."""
from __future__ import annotations

import json
import re
import threading
import time
from typing import Callable, Dict, Generic, NamedTuple, Optional, TypeVar

from app.logs import logger

KID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
REFRESH_S = 300.0
RETRY_S = 30.0  # after a failed re-read, keep the keys we have and try again this much later

T = TypeVar("T")


class Ring(NamedTuple):
    current: str
    keys: Dict[str, str]  # kid -> key (text, as the secret holds it)


def parse(text: str, default_kid: str) -> Ring:
    """The ring a secret holds; a plain value is a ring of one key named ``default_kid``."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict) and "keys" in data:
            keys, current = data.get("keys"), data.get("current")
            if not isinstance(keys, dict) or not keys or not all(
                    isinstance(kid, str) and KID.fullmatch(kid) and isinstance(key, str) and key
                    for kid, key in keys.items()):
                raise ValueError("a key ring maps key ids ([A-Za-z0-9_.-]{1,64}) to keys")
            if current not in keys:
                raise ValueError("a key ring's current key must be one of its keys")
            return Ring(current, dict(keys))
    return Ring(default_kid, {default_kid: text})


class Refreshing(Generic[T]):
    """A value ``read`` returns, read on first use and again once REFRESH_S old.

    A failed re-read keeps the value we have (logged; retried after RETRY_S): a Secrets
    Manager hiccup must not turn into refusing every token. A failed first read raises."""

    # Wall-clock time, not monotonic: a SnapStart restore resumes a snapshot's memory on
    # another machine, whose monotonic clock has nothing to do with the snapshot's.
    def __init__(self, read: Callable[[], T], *, every_s: float = REFRESH_S,
                 monotonic: Callable[[], float] = time.time) -> None:
        self._read, self._every, self._monotonic = read, every_s, monotonic
        self._value: Optional[T] = None
        self._next = 0.0
        self._lock = threading.Lock()

    def get(self) -> T:
        with self._lock:
            now = self._monotonic()
            if self._value is None or now >= self._next:
                try:
                    self._value, self._next = self._read(), now + self._every
                except Exception:  # see the class doc
                    if self._value is None:
                        raise
                    logger.warning("secret.refresh_failed")
                    self._next = now + RETRY_S
            return self._value


def read_secret(arn: str) -> bytes:
    """A Secrets Manager secret's SecretString (AWS only: local mode and tests pass values)."""
    import boto3

    return boto3.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"].encode()


def source(value: str, arn: Optional[str], default_kid: str, *,
           fetch: Callable[[str], bytes] = read_secret,
           check: Callable[[Ring], Ring] = lambda ring: ring) -> Optional[Refreshing[Ring]]:
    """A key ring's source as its two settings name it: the value itself (never re-read), or
    the secret behind ``arn`` (read on first use, again every REFRESH_S); None when neither
    is set. ``check`` refuses a ring its user can't sign with (too short a key...)."""
    if value:
        ring = check(parse(value, default_kid))
        return Refreshing(lambda: ring, every_s=float("inf"))
    if arn:
        return Refreshing(lambda: check(parse(fetch(arn).decode(), default_kid)))
    return None


def kept_in(data_dir: str, name: str, make: Callable[[], bytes]) -> bytes:
    """Local mode's key ``name`` in the data dir (made once, mode 0600), so what it signed
    survives a restart."""
    from pathlib import Path

    path = Path(data_dir) / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(make())
        path.chmod(0o600)
    return path.read_bytes()
