"""The developer platform's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Forbidden


class TooManyTokens(Forbidden):
    """The owner holds the most live personal access tokens an account may."""

    code = "TOO_MANY_TOKENS"


def too_many_tokens(limit: int) -> TooManyTokens:
    return TooManyTokens(f"At most {limit} tokens per account; revoke old ones.")
