"""Conditions every money write carries inside its own TransactWrite.

A read of the group head or a participant row before the write can go stale by the time
the write lands; a ConditionCheck in the same transaction cannot. So every expense and
settlement write checks, atomically with the change:
- the group head: still ACTIVE (not being deleted) and still in the currency we recorded;
- every referenced participant: exists and is not mid-transfer (no TransferTarget).
"""
from __future__ import annotations

from typing import Iterable

from app.errors import Conflict, Invalid, group_not_found, participant_unavailable
from app.rules import MAX_PARTICIPANTS
from app.services.core.access import is_live
from app.services.core.transactions import Transaction
from models.groups import Group, Participant

# One transaction holds at most 100 items: the head check, the row, the balance update and
# the outbox event leave room for this many participant checks (with margin).


class GroupChanged(Conflict):
    """The group head no longer matches what the write assumed (deleted or re-currencied)."""

    code = "GROUP_CHANGED"


def check_group(tx: Transaction, group: Group) -> None:
    """The head must still be ACTIVE and in the same currency when the write commits."""
    tx.check(Group, *Group.key(group.GroupId),
             condition=(Group.Status == "ACTIVE") & (Group.Currency == group.Currency),
             on_fail=GroupChanged("The group changed while we were writing."))


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
