"""Sealed values: a small JSON value encrypted and authenticated (AES-256-GCM) under a key of
its own purpose, for a secret that must wait in a row until a worker uses it, such as an
invitation's share-link token and address in its outbox event. The row then holds no secret a
table reader could use; the worker deletes it once sent (app.notifications.dispatch)."""
from __future__ import annotations

import base64
import json
import os
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from app.core import paging

_NONCE_BYTES = 12
# The purposes (each its own key): an invitation e-mail's address and link token, sealed by
# app.people.email_invitations, opened by app.notifications.invitation_mail.
INVITATION_MAIL = "invitation-mail"


def seal(value: Any, purpose: str) -> str:
    nonce = os.urandom(_NONCE_BYTES)
    sealed = AESGCM(paging.derived_key(purpose)).encrypt(
        nonce, json.dumps(value, separators=(",", ":")).encode(), purpose.encode())
    return base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(text: str, purpose: str) -> Any:
    """The value sealed for ``purpose``; ValueError for anything else (edited, another
    purpose, another key)."""
    try:
        raw = base64.urlsafe_b64decode(text.encode())
        opened = AESGCM(paging.derived_key(purpose)).decrypt(
            raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], purpose.encode())
    except (InvalidTag, ValueError, TypeError) as error:
        raise ValueError("not a value sealed for this purpose") from error
    return json.loads(opened)
