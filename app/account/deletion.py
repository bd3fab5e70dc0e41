"""Account deletion (``DELETE /users/me``): refuse, mark, then run the steps in order.

The profile is marked DELETING first (with every identity flagged), so the account is gone
for every request from that moment; the steps then remove the rest, each idempotent, and
the profile itself goes last. A run works within a budget (DELETE /users/me: a few
seconds, then 202 and the queue worker goes on, see :mod:`app.account.finish_deletion`).
Whatever a crash or a spent budget interrupts, a rerun of the same driver (the worker's
next message, the user's own retry, or the resume sweep every few minutes once the
deletion is overdue) finishes it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from app.errors import SoleOwner, sole_owner
from app.logs import logger
from app.account import steps
from app.account.budget import Budget, OutOfBudget, unlimited
from app.core.clock import now_iso
from app.groups.departure import sole_owner_groups
from models.users import Profile

Step = Tuple[str, Callable[..., int]]

# The order is the design: groups right after the mark (a late SOLE_OWNER there can still
# hand the account back), then tokens (personal access tokens stop); pointers followed
# before the partition that holds them; reservations before invitations; MCP locators
# before the user partition; the sign-in user and the identities after every other row;
# then everything read once more (what an index showed late), and the profile, the
# tombstone, last.
STEPS: List[Step] = [
    ("mark", steps.mark),
    ("receipts", steps.receipts),
    ("groups", steps.groups),
    ("developer", steps.developer),
    ("joinRequests", steps.join_requests),
    ("joinHistory", steps.join_history),
    ("reservations", steps.reservations),
    ("invitations", steps.invitations),
    ("sentInvitations", steps.sent_invitations),
    ("people", steps.people),
    ("notifications", steps.notifications),
    ("mcpPointers", steps.mcp_pointers),
    ("chatWork", steps.chat_work),
    ("userPartition", steps.user_partition),
    ("signInUser", steps.sign_in_user),
    ("identities", steps.identities),
    ("lateSweep", steps.late_sweep),
    ("profile", steps.tombstone),
]
# A resume run takes up at most this many deletions, within RESUME_SECONDS.
SWEEP_LIMIT = 20
RESUME_SECONDS = 60.0


@dataclass
class Progress:
    """What one run did: ``done`` when nothing of the account is left."""

    done: bool
    counts: dict = field(default_factory=dict)


def _profile(user_id: str) -> Optional[Profile]:
    try:
        return Profile.get(*Profile.key(user_id), consistent_read=True)
    except Profile.DoesNotExist:
        return None


def delete_account(user_id: str, *, budget: Optional[Budget] = None,
                   after_step: Optional[Callable[[str], None]] = None) -> Progress:
    """Delete (or go on deleting) the account within ``budget`` (unlimited when omitted).

    409 SOLE_OWNER (nothing changed) while the user is the only owner of a group with other
    users. The mark always happens, whatever the budget: from then on the account is gone
    for every request, and a run that stops early (``done`` False) leaves the rest to the
    next run. ``after_step`` is called with each finished step's name (fault injection)."""
    budget = budget or unlimited()
    profile = _profile(user_id)
    if profile is None:
        return Progress(True)  # the tombstone goes last: no profile, nothing left
    if not profile.deleting:
        blocking = sole_owner_groups(user_id)
        if blocking:
            raise sole_owner(blocking)
    elif not steps.renew(user_id):
        return Progress(True)  # finished by another run meanwhile
    counts: dict = {}
    for name, step in STEPS[_resume_index(profile):]:
        if name == "mark" and profile.deleting:
            continue
        try:
            if name != "mark":
                budget.spend()
            counts[name] = step(profile, budget)
        except OutOfBudget as stop:
            steps.pause_at(user_id, stop.at or name)
            logger.info("account.delete_paused", extra={"user_id": user_id, "at": name})
            return Progress(False, counts)
        except Exception as error:
            if name == "groups" and isinstance(error, SoleOwner):
                # Someone joined a group of ours after the check: nothing is removed yet
                # but memberships, so give the account back and let the user decide.
                steps.unmark(profile)
            raise
        if after_step is not None:
            after_step(name)
    logger.info("account.deleted", extra={"user_id": user_id, "counts": counts})
    return Progress(True, counts)


def _resume_index(profile: Profile) -> int:
    """Where the last run stopped for want of budget (a crash records nothing: from the top)."""
    names = [name for name, _ in STEPS]
    stopped = (profile.DeletionStep or "").split("#", 1)[0]  # lateSweep#<n>: that step
    if profile.deleting and stopped in names:
        return names.index(stopped)
    return 0


def resume_stalled_deletions(limit: int = SWEEP_LIMIT, *,
                             budget: Optional[Budget] = None) -> dict:
    """Finish deletions nobody is working on (DELETING past their due time), oldest first,
    within ``budget`` (RESUME_SECONDS by default); each run renews an account's due time
    first, so one that keeps failing moves back and never blocks the others."""
    budget = budget or Budget(seconds=RESUME_SECONDS)
    finished = failed = 0
    for user_id in Profile.pending_deletions(now_iso(), limit):
        if budget.exhausted:
            break
        try:
            finished += delete_account(user_id, budget=budget).done
        except Exception:  # noqa: BLE001 — one stuck account must not stop the others
            failed += 1
            logger.exception("account.delete_resume_failed", extra={"user_id": user_id})
    return {"resumedAccountDeletes": finished, "failedAccountDeletes": failed}
