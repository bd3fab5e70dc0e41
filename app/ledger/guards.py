"""Conditions every money write carries inside its own TransactWrite.

A read of the group head or a participant row before the write can go stale by the time
the write lands; a condition in the same transaction cannot. So every expense and
settlement write checks, atomically with the change:
- the group head: still ACTIVE (not being deleted) and still in the currency we recorded;
- every referenced participant: exists and is not mid-transfer (no TransferTarget). The
  roster is read (one consistent Query) after the head that authorized, and the head
  update the write already does (its revision) conditions on the head's RosterVersion
  being the one read: every roster change moves it (app.groups.membership), so a
  participant removed or locked between the read and the commit fails the write, without
  one ConditionCheck per participant;
- the caller: still a MEMBER or OWNER (a removal or demotion since authorization loses).
  A write that moves money reads that from its own participant in the same roster Query
  (role changes move the version too); others check the guard row (:func:`check_writer`).
Writes that hold no head read (the hourly tick, a transfer's rewrites, which move the roster
themselves) check each participant instead (:func:`check_participants`).
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional

from app.errors import (DomainError, Invalid, concurrent_update, group_not_found,
                        not_found, participant_unavailable, version_conflict)
from app.ledger.errors import GroupChanged, currency_changed
from app.limits import MAX_PARTICIPANTS
from app.core.access import (Access, authorize, is_live, reauthorize, require_link,
                             require_role)
from app.core.transactions import Transaction
from models.groups import Group, GroupItem, GroupStatus, Participant



def check_group(tx: Transaction, group: Group, *,
                participants: Optional[Iterable[str]] = None) -> None:
    """The head must still be ACTIVE and in the same currency when the write commits.

    ``participants``: the ids the write names. Each must exist and not be mid-transfer
    now (read after ``group``, which authorized), and the roster must still be at the
    version ``group`` carries when the write commits."""
    named = None if participants is None else _limited(participants)
    if named is not None:
        _require_roster(group.GroupId, named, None)
    tx.check(Group, *Group.key(group.GroupId), condition=_head_condition(group, named),
             on_fail=GroupChanged("The group changed while we were writing.", named))


def check_money_write(tx: Transaction, access: Access, participants: Iterable[str]) -> None:
    """:func:`check_group` naming ``participants``, with the writer's role (MEMBER+) read
    from the same roster Query: the caller's USER participant mirrors their guard row, and
    a role change moves the roster version, so the commit's head condition covers the
    writer too and no ConditionCheck of the guard rides along (see :func:`check_writer`)."""
    named = _limited(participants)
    _require_roster(access.group_id, named, access)
    if access.link_id is not None:  # no guard row vouches for a link: its row must stand
        require_link(tx, access, "MEMBER")
    tx.check(Group, *Group.key(access.group_id), condition=_head_condition(access.group, named),
             on_fail=GroupChanged("The group changed while we were writing.", named, access))


def check_commenter(tx: Transaction, access: Access) -> None:
    """The commenter must still be a participant (VIEWER+) when the comment commits, read
    from one consistent roster Query after the head that authorized, and the head update
    the comment's change log already makes conditions on the roster version read (removal,
    account deletion's guest conversion and every role change move it): no ConditionCheck
    of the guard row (2 WRU) rides along. Only the roster: a comment does not care about
    the group's currency. A link session's guest is checked on its link row, as before."""
    if access.link_id is not None:
        require_role(tx, access, "VIEWER", account_live=False)
        return
    _require_roster(access.group_id, (), access, "VIEWER")
    tx.check(Group, *Group.key(access.group_id), condition=_roster_condition(access.group),
             on_fail=GroupChanged("The group changed while we were writing.", (), access))


def _live_head(group_id: str) -> Group:
    """The group's head read again after a failed roster condition; 404 when it is gone."""
    try:
        head = Group.get(*Group.key(group_id), consistent_read=True)
    except (Group.DoesNotExist, ValueError):
        head = None
    if not is_live(head):
        raise group_not_found() from None
    return head


def commit_comment(tx: Transaction, group: Group) -> None:
    """Commit a comment checked by :func:`check_commenter`; when the roster moved but the
    commenter still stands (a guest added elsewhere), resend on the new version."""
    for _ in range(ROSTER_RESENDS + 1):
        try:
            tx.commit()
            return
        except GroupChanged as changed:
            head = _live_head(group.GroupId)
            _require_roster(group.GroupId, (), changed.writer, "VIEWER")
            tx.recondition(Group, *Group.key(group.GroupId), condition=_roster_condition(head))
    raise concurrent_update()


def _roster_condition(group: Group):
    return Group.roster_unchanged(None if group.RosterVersion is None
                                  else int(group.RosterVersion))


def _head_condition(group: Group, named: Optional[tuple]):
    condition = (Group.Status == GroupStatus.ACTIVE) & (Group.Currency == group.Currency)
    if named is not None:
        version = None if group.RosterVersion is None else int(group.RosterVersion)
        condition &= Group.roster_unchanged(version)
    return condition


def _limited(participant_ids: Iterable[str]) -> tuple:
    ids = tuple(sorted(set(participant_ids)))
    if len(ids) > MAX_PARTICIPANTS:
        raise Invalid(f"At most {MAX_PARTICIPANTS} participants per expense.",
                      details={"participants": [f"At most {MAX_PARTICIPANTS} distinct."]})
    return ids


def _require_roster(group_id: str, participant_ids: tuple, writer: Optional[Access],
                    min_role: str = "MEMBER") -> None:
    """One consistent roster Query (cheaper than a BatchGetItem of the rows: a Query is
    billed on the bytes it reads, a batch per item): 409 PARTICIPANT_UNAVAILABLE for the
    first id absent or mid-transfer; the writer, if given, must still hold ``min_role``
    (MEMBER+ to move money; VIEWER: still the caller's own participant)."""
    found = {row.ParticipantId: row for row in Participant.roster(group_id, consistent_read=True)}
    for participant_id in participant_ids:
        row = found.get(participant_id)
        if row is None or not row.nameable:
            raise participant_unavailable(participant_id)
    if writer is not None:
        mine = found.get(writer.participant_id)
        if writer.link_id is not None:  # a link session writes as its guest, if still one
            if mine is None or mine.Type != "GUEST" or not writer.at_least("MEMBER"):
                reauthorize(writer, "MEMBER")  # raises its 401 / 404 / 403
                raise concurrent_update()
        elif mine is None or mine.UserId != writer.user_id or (
                min_role == "MEMBER" and not mine.may_write_money):
            authorize(writer.user_id, writer.group_id, min_role)  # raises its 404 / 403
            raise concurrent_update()  # changed and changed back meanwhile


def check_writer(tx: Transaction, access: Access) -> None:
    """The caller must still be allowed to write money (MEMBER+) when the write commits.

    The guard row is the account check too: the deletion removes it with the conversion to a
    guest (app.core.live), so no PROFILE ConditionCheck rides along. Writes that
    move money use :func:`check_money_write` instead (no check item at all)."""
    require_role(tx, access, "MEMBER", account_live=False)


def check_participants(tx: Transaction, group_id: str, participant_ids: Iterable[str]) -> None:
    """Each participant must exist and not be mid-transfer when the write commits (one
    ConditionCheck each: for writes that hold no head read, see the module's note)."""
    for participant_id in _limited(participant_ids):
        tx.check(Participant, group_id, Participant.sort_key(participant_id),
                 condition=Participant.SK.exists() & Participant.TransferTarget.does_not_exist(),
                 on_fail=participant_unavailable(participant_id))


def stale_version(what: str) -> Callable[[Optional[dict]], DomainError]:
    """The on_fail of a version-conditioned update, judged on the row as it was at commit:
    absent is NotFound (deleted meanwhile), else VERSION_CONFLICT with the current version."""
    def error(old: Optional[dict]) -> DomainError:
        row = GroupItem.from_raw(old)
        if row is None:
            return not_found(what)
        return version_conflict(what.lower(), int(row.Version))
    return error


# Resends after the roster moved under a write whose participants all still stand.
ROSTER_RESENDS = 3


def commit(tx: Transaction, group: Group) -> None:
    """Commit; a failed head check becomes 404 (group gone) or 409 CURRENCY_CHANGED.

    When the roster moved but every participant the write names still stands (read again
    after the head), the write is resent conditioned on the new version: a guest added
    elsewhere in the group does not fail an expense."""
    expected = group.RosterVersion
    for _ in range(ROSTER_RESENDS + 1):
        try:
            tx.commit()
            return
        except GroupChanged as changed:
            head = _live_head(group.GroupId)
            if head.Currency != group.Currency:
                raise currency_changed() from None
            if changed.participant_ids is None or head.RosterVersion == expected:
                raise concurrent_update() from None  # changed and changed back meanwhile
            _require_roster(group.GroupId, changed.participant_ids, changed.writer)
            tx.recondition(Group, *Group.key(group.GroupId),
                           condition=_head_condition(head, changed.participant_ids))
            expected = head.RosterVersion
    raise concurrent_update()
