"""The authenticated caller."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import FrozenSet, Optional


@dataclass(frozen=True)
class Principal:
    """Who is calling and through which credential.

    ``credential_id`` names the credential for idempotency records and usage counting:
    ``APP#<userId>`` for app sign-ins, the token id for personal access tokens."""

    user_id: str
    identity_key: str
    kind: str = "app"  # app | pat
    is_admin: bool = False
    scopes: Optional[FrozenSet[str]] = None  # None: unrestricted (app sign-in)
    credential_id: str = field(default="")
    # The account is being deleted: only the view that finishes the deletion admits it.
    deleting: bool = False

    def __post_init__(self) -> None:
        if not self.credential_id:
            object.__setattr__(self, "credential_id", f"APP#{self.user_id}")
