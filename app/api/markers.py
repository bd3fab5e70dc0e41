"""Marks a view carries for the per-request checks (authentication, rate limits, body type).

Kept apart from app.api.context so that marking a view imports nothing: the docs and health
views are marked at start-up, before any area (or its tables) is loaded."""


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


def client_limited(view):
    """Mark an OAuth endpoint that spends from its client's (or grant's) window instead of
    its source address's: hosts call from shared address ranges (app.api.oauth)."""
    view.client_limited = True
    return view


def own_auth(view):
    """Mark a view that checks its own bearer credential (POST /mcp takes only MCP tokens)."""
    view.own_auth = True
    return view


def form_body(view):
    """Mark a view that reads a form-encoded body (OAuth endpoints); every other body is JSON."""
    view.form_body = True
    return view


def body_limit(max_bytes: int):
    """Mark a view that takes a body larger than the app's default cap (POST /imports)."""
    def mark(view):
        view.max_body_bytes = max_bytes
        return view
    return mark
