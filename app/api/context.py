"""Per-request context for views: the caller, the group access, the services' settings."""
from __future__ import annotations

from flask import current_app, g

from app.auth.principal import Principal
from app.config import Settings
from app.services.core.access import Access, authorize


def principal() -> Principal:
    """The authenticated caller (set before the view runs)."""
    return g.principal


def group_access(group_id, min_role: str = "VIEWER") -> Access:
    """The caller's access to a group, authorized once per request and role.

    The idempotency guard authorizes before any replay; the view then reuses that answer
    instead of reading the guard row a second time."""
    cache = g.setdefault("group_access", {})
    key = (str(group_id), min_role)
    if key not in cache:
        cache[key] = authorize(principal().user_id, str(group_id), min_role)
    return cache[key]


def settings() -> Settings:
    return current_app.extensions["tailspend"].settings


def scope(name: str) -> str:
    """A cursor scope binding a list to its route and caller."""
    return f"{name}:{principal().user_id}"
