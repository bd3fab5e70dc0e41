"""Rows a request has already read strongly consistently, for a later step of the same
request to reuse instead of reading again (GET /users/me: the liveness read of the caller's
profile is the profile the view returns).

A context variable, reset when each request starts (app.factory), so nothing read for one
request is ever seen by another. No model import: the factory imports this at start-up."""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Optional

_profile: ContextVar[Optional[Any]] = ContextVar("tailspend_request_profile", default=None)


def forget() -> None:
    """A request starts: nothing is known yet."""
    _profile.set(None)


def remember_profile(profile: Optional[Any]) -> None:
    _profile.set(profile)


def profile_of(user_id: str) -> Optional[Any]:
    """The profile this request read for ``user_id`` (strongly consistent), or None."""
    profile = _profile.get()
    return profile if profile is not None and profile.UserId == user_id else None
