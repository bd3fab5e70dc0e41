"""Which operations a personal access token may call: one marker per view, checked in one place.

``@pat_scope("groups:read")`` opens a view to PATs holding that scope. Every other view refuses
PATs with 403 (fail closed: a new route is app-only until someone decides otherwise), and
``@no_pat`` says so explicitly where it matters (token management, account deletion, role
changes, invitations, admin). :func:`enforce` is the only check, run for every request by
app.api.developer_gate; :class:`PatPolicyPlugin` writes the same markers into the OpenAPI
document as security requirements, so document and enforcement cannot drift.
"""
from __future__ import annotations

import re
from typing import Optional

from apispec import BasePlugin

from app.auth.principal import Principal
from app.errors import Forbidden

SCOPES = ("groups:read", "expenses:write", "settlements:write", "profile:write")
REFUSED = "none"
SCHEME = "personalAccessToken"
EXTENSION = "x-pat-scope"


def pat_scope(scope: str):
    if scope not in SCOPES:
        raise ValueError(f"unknown PAT scope {scope!r}")

    def mark(view):
        view.pat_scope = scope
        return view

    return mark


def no_pat(view):
    view.pat_scope = REFUSED
    return view


def required_scope(view) -> Optional[str]:
    """The scope a PAT needs for this view, or None when PATs are refused."""
    scope = getattr(view, "pat_scope", REFUSED)
    return None if scope == REFUSED else scope


def enforce(view, caller: Principal) -> None:
    """403 unless the caller is not a PAT, or the view admits PATs and the token has the scope."""
    if caller.kind != "pat":
        return
    scope = required_scope(view)
    if scope is None:
        raise Forbidden("Personal access tokens cannot call this operation.",
                        details={"reason": "PAT_NOT_ALLOWED"})
    if scope not in (caller.scopes or ()):
        raise Forbidden(f"This token lacks the {scope} scope.",
                        details={"reason": "PAT_SCOPE", "requiredScope": scope})


_RULE_ARG = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


class PatPolicyPlugin(BasePlugin):
    """Writes every operation's security requirement from its view's marker.

    Public views: ``security: []``. App-only: ``[{bearerAuth: []}]``. PAT-enabled:
    ``[{bearerAuth: []}, {personalAccessToken: [scope]}]``. The scope list of an http bearer
    scheme is informational (OpenAPI 3.1 calls these roles), so each operation also carries
    ``x-pat-scope`` (the scope, or "none") for tools that follow 3.0 strictly."""

    def __init__(self, app) -> None:
        self._app = app

    def init_spec(self, spec) -> None:
        super().init_spec(spec)
        spec.components.security_scheme(SCHEME, {
            "type": "http", "scheme": "bearer", "bearerFormat": "tsp_<tokenId>_<secret>",
            "description": "Personal access token; reaches only operations listing it, with "
                           "the scope named there (403 otherwise)."})

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        rule = kwargs.get("rule")
        if rule is None or not operations:
            return
        view = self._app.view_functions.get(rule.endpoint)
        if view is None:
            return
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            if getattr(view, "public", False):
                operation["security"] = []
                operation[EXTENSION] = "public"
                continue
            scope = required_scope(view)
            operation["security"] = [{"bearerAuth": []}] + ([{SCHEME: [scope]}] if scope else [])
            operation[EXTENSION] = scope or REFUSED
            operation.setdefault("responses", {}).setdefault("429", {
                "description": "RATE_LIMITED: over a rate limit or the daily developer budget "
                               "(Retry-After says when to come back)"})
