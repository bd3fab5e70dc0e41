"""The maintenance run: each area's bounded, resumable sweep, with the counts it reports."""
from __future__ import annotations

import time
from typing import Optional, Sequence

from app.logs import logger
from app.account.deletion import resume_stalled_deletions
from app.chat.work import reconcile as redrive_chat_work
from app.currencies.daily import fetch_daily
from app.groups.delete import resume_pending_deletes
from app.imports.run_import import fail_stuck as fail_stuck_imports
from app.groups.join_request_prune import prune_decided_join_requests
from app.insight.digests import send_digests
from app.ledger.orphan_comments import sweep_orphan_comments
from app.ledger.trash import purge_expired as purge_expired_trash
from app.notifications.redispatch import redispatch_pending
from app.people.invitation_expiry import expire_invitations
# Loaded for what it registers: a swept group's receipt objects go first (app.core.cascades).
from app.receipts import cleanup as _receipt_cleanup  # noqa: F401

SWEEPS = {
    "outbox": redispatch_pending,
    "groupDeletes": resume_pending_deletes,
    "trashPurge": purge_expired_trash,
    "orphanComments": sweep_orphan_comments,
    "joinRequests": prune_decided_join_requests,
    "invitations": expire_invitations,
    "accountDeletes": resume_stalled_deletions,
    "chatWork": redrive_chat_work,
    "fxRates": fetch_daily,
    "stuckImports": fail_stuck_imports,
    # Last in the daily run: it takes whatever time the others left (its own schedule, soon
    # after midnight UTC, normally sends everything first; docs/email.md "Digests").
    "digests": send_digests,
}


# Seconds kept back from the invocation's deadline: events already started finish (each is
# bounded by push.SEND_DEADLINE_S) and the result is returned before the function times out.
DEADLINE_MARGIN_S = 30.0


def _outbox_deadline(remaining_s: Optional[float], alone: bool) -> Optional[float]:
    """When the outbox sweep stops starting events: all the invocation's time on the frequent
    outbox schedule, half of it in the daily run (the other sweeps get the rest)."""
    if remaining_s is None:
        return None
    usable = max(0.0, remaining_s - DEADLINE_MARGIN_S)
    return time.monotonic() + (usable if alone else usable / 2)


def _invocation_deadline(remaining_s: Optional[float]) -> Optional[float]:
    """The invocation's deadline less the margin, fixed when the run starts: a sweep that runs
    after others gets only what they left."""
    if remaining_s is None:
        return None
    return time.monotonic() + max(0.0, remaining_s - DEADLINE_MARGIN_S)


def run_maintenance(only: Optional[str] = None, *, remaining_s: Optional[float] = None,
                    outbox_shards: Optional[Sequence[int]] = None,
                    now: Optional[str] = None) -> dict:
    """Run every sweep once (or just ``only``, e.g. the frequent outbox schedule); each is
    bounded per run and picks up where a crash left off. ``remaining_s``: the invocation's
    time left (the Lambda context's), which bounds the outbox sweep; ``outbox_shards``: the
    outbox shards this run sweeps (all when omitted); ``now``: the schedule's time, which
    names the digests' periods (default: the current time)."""
    result: dict = {}
    deadline = _invocation_deadline(remaining_s)
    for name, sweep in SWEEPS.items():
        if only is None or only == name:
            if name == "outbox":
                result.update(sweep(deadline=_outbox_deadline(remaining_s, only == name),
                                    shards=outbox_shards))
            elif name == "digests":
                result.update(sweep(now=now, deadline=deadline))
            else:
                result.update(sweep())
    logger.info("maintenance_run", extra=result)
    return result
