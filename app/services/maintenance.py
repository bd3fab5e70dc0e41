"""The maintenance run: each area's bounded, resumable sweep, with the counts it reports."""
from __future__ import annotations

from typing import Optional

from app.logs import logger
from app.services.account.deletion import resume_stalled_deletions
from app.services.groups.delete import resume_pending_deletes
from app.services.groups.join_request_prune import prune_decided_join_requests
from app.services.ledger.orphan_comments import sweep_orphan_comments
from app.services.notifications.redispatch import redispatch_pending
from app.services.people.upkeep import expire_invitations

SWEEPS = {
    "outbox": redispatch_pending,
    "groupDeletes": resume_pending_deletes,
    "orphanComments": sweep_orphan_comments,
    "joinRequests": prune_decided_join_requests,
    "invitations": expire_invitations,
    "accountDeletes": resume_stalled_deletions,
}


def run_maintenance(only: Optional[str] = None) -> dict:
    """Run every sweep once (or just ``only``, e.g. the frequent outbox schedule); each is
    bounded per run and picks up where a crash left off."""
    result: dict = {}
    for name, sweep in SWEEPS.items():
        if only is None or only == name:
            result.update(sweep())
    logger.info("maintenance_run", extra=result)
    return result
