"""Which operations a personal access token may call: the view's ``@needs(pat=...)``, checked
in one place.

``@needs(pat="groups:read")`` opens a view to PATs holding that scope. Every other view refuses
PATs with 403 (fail closed: a new route is app-only until someone decides otherwise).
:func:`enforce` is the only check, run for every request by app.developer.gate;
app.api.needs's document plugin writes the same declaration into the OpenAPI document as
security requirements, so document and enforcement cannot drift.
"""
from __future__ import annotations

from typing import Optional

from app.auth.principal import Principal
from app.errors import Forbidden

SCOPES = ("groups:read", "expenses:write", "settlements:write", "profile:write")
REFUSED = "none"
SCHEME = "personalAccessToken"
EXTENSION = "x-pat-scope"


def enforce(scope: Optional[str], caller: Principal) -> None:
    """403 unless the caller is not a PAT, or the view admits PATs (``scope``: its
    ``@needs(pat=...)``, None when PATs are refused) and the token has the scope."""
    if caller.kind != "pat":
        return
    if scope is None:
        raise Forbidden("Personal access tokens cannot call this operation.",
                        details={"reason": "PAT_NOT_ALLOWED"})
    if scope not in (caller.scopes or ()):
        raise Forbidden(f"This token lacks the {scope} scope.",
                        details={"reason": "PAT_SCOPE", "requiredScope": scope})
