"""Account deletion (``DELETE /users/me``): refuse, mark, then run the steps in order.

The profile is marked DELETING first (with every identity flagged), so the account is gone
for every request from that moment; the steps then remove the rest, each idempotent, and
the profile itself goes last. Whatever a crash interrupts, a rerun of the same driver (the
user's own retry, or the maintenance sweep once the deletion is overdue) finishes it."""
from __future__ import annotations

from typing import Callable, List, Optional, Tuple

from app.errors import sole_owner
from app.logs import logger
from app.services.account import steps
from app.services.core.clock import now_iso
from app.services.groups.departure import sole_owner_groups
from models.users import Profile

Step = Tuple[str, Callable[[Profile], int]]

# The order is the design: groups right after the mark (a late SOLE_OWNER there can still
# hand the account back untouched), then tokens (personal access tokens stop); reservations
# before invitations; MCP locators before the user partition; the sign-in user and the
# identities after every other row; the profile, the tombstone, last.
STEPS: List[Step] = [
    ("mark", steps.mark),
    ("groups", steps.groups),
    ("developer", steps.developer),
    ("joinRequests", steps.join_requests),
    ("reservations", steps.reservations),
    ("invitations", steps.invitations),
    ("people", steps.people),
    ("notifications", steps.notifications),
    ("mcpPointers", steps.mcp_pointers),
    ("userPartition", steps.user_partition),
    ("signInUser", steps.sign_in_user),
    ("identities", steps.identities),
    ("profile", steps.tombstone),
]
# A maintenance run resumes at most this many deletions.
SWEEP_LIMIT = 20


def _profile(user_id: str) -> Optional[Profile]:
    try:
        return Profile.get(*Profile.key(user_id), consistent_read=True)
    except Profile.DoesNotExist:
        return None


def delete_account(user_id: str, *, after_step: Optional[Callable[[str], None]] = None) -> dict:
    """Delete (or finish deleting) the account; returns counts per step.

    409 SOLE_OWNER (nothing changed) while the user is the only owner of a group with other
    users. ``after_step`` is called with each finished step's name (fault injection)."""
    profile = _profile(user_id)
    if profile is None:
        return {}  # the tombstone goes last: no profile, nothing left
    if not profile.deleting:
        blocking = sole_owner_groups(user_id)
        if blocking:
            raise sole_owner(blocking)
    counts = {}
    for name, step in STEPS:
        if name == "mark" and profile.deleting:
            continue
        try:
            counts[name] = step(profile)
        except Exception as error:
            if name == "groups" and getattr(error, "code", None) == "SOLE_OWNER":
                # Someone joined a group of ours after the check: nothing is removed yet
                # but memberships, so give the account back and let the user decide.
                steps.unmark(profile)
            raise
        if after_step is not None:
            after_step(name)
    logger.info("account.deleted", extra={"user_id": user_id, "counts": counts})
    return counts


def resume_stalled_deletions(limit: int = SWEEP_LIMIT) -> dict:
    """The maintenance sweep: finish deletions a crash left (DELETING past their due time)."""
    finished = failed = 0
    for user_id in Profile.pending_deletions(now_iso(), limit):
        try:
            delete_account(user_id)
            finished += 1
        except Exception:  # noqa: BLE001 — one stuck account must not stop the others
            failed += 1
            logger.exception("account.delete_resume_failed", extra={"user_id": user_id})
    return {"resumedAccountDeletes": finished, "failedAccountDeletes": failed}
