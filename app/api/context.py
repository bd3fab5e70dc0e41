"""Per-request context for views: the caller, the services' settings, public-route marking."""
from __future__ import annotations

from flask import current_app, g

from app.auth.principal import Principal
from app.config import Settings
from app.services.core.access import Access, authorize


def public(view):
    """Mark a view as reachable without a bearer token."""
    view.public = True
    return view


def unmetered(view):
    """Mark a view that touches no table (liveness, the API description): it spends no
    rate-limit window, so a health probe never depends on the rate-limit table; API
    Gateway's stage throttle still bounds it."""
    view.unmetered = True
    return view


def own_auth(view):
    """Mark a view that checks its own bearer credential (POST /mcp takes only MCP tokens)."""
    view.own_auth = True
    return view


def form_body(view):
    """Mark a view that reads a form-encoded body (OAuth endpoints); every other body is JSON."""
    view.form_body = True
    return view


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
