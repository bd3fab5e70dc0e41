"""Conditions every money write carries inside its own TransactWrite.

A read of the group head or a participant row before the write can go stale by the time
the write lands; a ConditionCheck in the same transaction cannot. So every expense and
settlement write checks, atomically with the change:
- the group head: still ACTIVE (not being deleted) and still in the currency we recorded;
- every referenced participant: exists and is not mid-transfer (no TransferTarget);
- the caller: still a MEMBER or OWNER (a removal or demotion since authorization loses).
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional

from app.errors import (Conflict, DomainError, Invalid, group_not_found, not_found,
                        participant_unavailable, version_conflict)
from app.limits import MAX_PARTICIPANTS
from app.services.core.access import Access, is_live, require_role
from app.services.core.transactions import Transaction
from models.groups import Group, GroupStatus, Participant

# One transaction holds at most 100 items: the head check, the row, the balance update and
# the outbox event leave room for this many participant checks (with margin).


class GroupChanged(Conflict):
    """The group head no longer matches what the write assumed (deleted or re-currencied)."""

    code = "GROUP_CHANGED"


def check_group(tx: Transaction, group: Group) -> None:
    """The head must still be ACTIVE and in the same currency when the write commits."""
    tx.check(Group, *Group.key(group.GroupId),
             condition=(Group.Status == GroupStatus.ACTIVE) & (Group.Currency == group.Currency),
             on_fail=GroupChanged("The group changed while we were writing."))


def check_writer(tx: Transaction, access: Access) -> None:
    """The caller must still be allowed to write money (MEMBER+) when the write commits."""
    require_role(tx, access, "MEMBER")


def check_participants(tx: Transaction, group_id: str, participant_ids: Iterable[str]) -> None:
    """Each participant must exist and not be mid-transfer when the write commits."""
    ids = sorted(set(participant_ids))
    if len(ids) > MAX_PARTICIPANTS:
        raise Invalid(f"At most {MAX_PARTICIPANTS} participants per expense.",
                      details={"participants": [f"At most {MAX_PARTICIPANTS} distinct."]})
    for participant_id in ids:
        tx.check(Participant, group_id, Participant.sort_key(participant_id),
                 condition=Participant.SK.exists() & Participant.TransferTarget.does_not_exist(),
                 on_fail=participant_unavailable(participant_id))


def stale_version(what: str) -> Callable[[Optional[dict]], DomainError]:
    """The on_fail of a version-conditioned update, judged on the row as it was at commit:
    absent is NotFound (deleted meanwhile), else VERSION_CONFLICT with the current version."""
    def error(old: Optional[dict]) -> DomainError:
        if not old:
            return not_found(what)
        return version_conflict(what.lower(), int(old["Version"]["N"]))
    return error


def commit(tx: Transaction, group: Group) -> None:
    """Commit; a failed head check becomes 404 (group gone) or 409 CURRENCY_CHANGED."""
    try:
        tx.commit()
    except GroupChanged:
        try:
            head = Group.get(*Group.key(group.GroupId), consistent_read=True)
        except (Group.DoesNotExist, ValueError):
            head = None
        if not is_live(head):
            raise group_not_found() from None
        raise Conflict("The group currency changed; reload and try again.",
                       code="CURRENCY_CHANGED") from None
