"""Per-request context for views: the caller, the services' settings, public-route marking."""
from __future__ import annotations

from flask import current_app, g

from app.auth.principal import Principal
from app.config import Settings


def public(view):
    """Mark a view as reachable without a bearer token."""
    view.public = True
    return view


def form_body(view):
    """Mark a view that reads a form-encoded body (OAuth endpoints); every other body is JSON."""
    view.form_body = True
    return view


def principal() -> Principal:
    """The authenticated caller (set before the view runs)."""
    return g.principal


def settings() -> Settings:
    return current_app.extensions["tailspend"].settings


def scope(name: str) -> str:
    """A cursor scope binding a list to its route and caller."""
    return f"{name}:{principal().user_id}"
