"""The MCP tools' named errors (their own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import VersionConflict


def balances_changed(revision: int) -> VersionConflict:
    """record_settlements named a balances revision that is no longer the current one."""
    return VersionConflict("The balances changed since that revision; show the user the new "
                           "plan (get_balances) first.", details={"revision": revision})
