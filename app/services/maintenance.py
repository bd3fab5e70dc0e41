"""The maintenance run: each area's bounded, resumable sweep, with the counts it reports."""
from __future__ import annotations

from app.logs import logger
from app.services.groups.delete import resume_pending_deletes
from app.services.people.upkeep import expire_invitations


def run_maintenance() -> dict:
    """Run every sweep once; each is bounded per run and picks up where a crash left off."""
    result = {**resume_pending_deletes(), **expire_invitations()}
    logger.info("maintenance_run", extra=result)
    return result
