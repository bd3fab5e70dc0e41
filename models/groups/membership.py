"""Membership rows: the group head, invite, join requests and locks, participants, guards."""
from __future__ import annotations

from typing import Iterator, Optional

from pynamodb.attributes import (BooleanAttribute, ListAttribute, MapAttribute, NumberAttribute,
                                 UnicodeAttribute)

from models.groups.base import GroupItem
from models.groups.keys import (DELETE_BUCKET, INVITE, JOINLOCK_PREFIX, JOINREQ_PREFIX, META,
                                PARTICIPANT_PREFIX, USERMEMBER_PREFIX)


class GroupStatus:
    """The group head's Status words, spelled here only. IMPORTING and DELETING hide the
    group from every reader; CLOSING (still readable) fences out joiners while a departing
    sole user's group is converted, and every membership write conditions on ACTIVE."""

    ACTIVE = "ACTIVE"
    IMPORTING = "IMPORTING"  # an import is still writing the group
    DELETING = "DELETING"  # being removed
    CLOSING = "CLOSING"
    ALL = (ACTIVE, IMPORTING, DELETING, CLOSING)


class DefaultShareMap(MapAttribute):
    """One participant of a group's default split and its value (the split mode's)."""

    ParticipantId = UnicodeAttribute(attr_name="p")
    Value = NumberAttribute(null=True, attr_name="v")


class DefaultSplitMap(MapAttribute):
    """How a create that names no splits shares its amount (EQUAL, SHARES or PERCENT)."""

    SplitMode = UnicodeAttribute(attr_name="m")
    Splits = ListAttribute(of=DefaultShareMap, attr_name="s")


class Group(GroupItem, discriminator="GROUP"):
    """The group head. Status DELETING (being removed) or IMPORTING (an import still writing
    it) means the group is gone for every reader."""

    Name = UnicodeAttribute()
    Currency = UnicodeAttribute()
    CreatedBy = UnicodeAttribute()
    OwnerCount = NumberAttribute(null=True)
    # Users and guests; absent on groups created before the cap (healed on first change).
    ParticipantCount = NumberAttribute(null=True)
    Status = UnicodeAttribute(default=GroupStatus.ACTIVE)
    # The group's content revision: +1 per change, with its CHANGE row in the same
    # transaction (app.core.changes). Absent on groups older than the log (0).
    Revision = NumberAttribute(null=True)
    # The roster's version: +1 by every change of who is in the group or may be named in
    # money (a participant added, removed, claimed, turned guest, locked for or freed from
    # a transfer). A money write conditions its head update on the version it read instead
    # of checking each participant it names. Absent until the first change (0).
    RosterVersion = NumberAttribute(null=True)
    # The group's default split (PATCH, OWNER), absent when none is set.
    DefaultSplit = DefaultSplitMap(null=True)
    # The default view of balances and /users/me/people: the simplified plan (absent: true)
    # or the pairwise debts. Copied onto the balance row (Balance.SimplifyDebts) by the
    # same TransactWrite, for the cross-group readers that read only that row.
    SimplifyDebts = BooleanAttribute(null=True)
    # How an item's leftover minor units are handed out: LIST_ORDER (absent) or FAIR (by
    # each participant's cumulative rounding, kept on the balance row: app.ledger.rounding).
    Rounding = UnicodeAttribute(null=True)
    # When an owner archived the group (absent while it is not archived): an archived group
    # is read-only (app.core.access.authorize, writing=True) and its templates do not run.
    ArchivedAt = UnicodeAttribute(null=True)
    # When it was last unarchived: the recurring tick skips every slot before that day, so
    # templates resume without backfilling the archived months.
    UnarchivedAt = UnicodeAttribute(null=True)

    @staticmethod
    def key(group_id: str) -> tuple:
        return group_id, META

    @property
    def archived(self) -> bool:
        return self.ArchivedAt is not None

    @classmethod
    def roster_unchanged(cls, version: Optional[int]):
        """The condition that the roster is still at ``version`` (None: never changed)."""
        return cls.RosterVersion.does_not_exist() if version is None \
            else cls.RosterVersion == version

    @classmethod
    def roster_bump(cls):
        """The update action recording a roster change."""
        return cls.RosterVersion.add(1)

    @classmethod
    def pending_deletes(cls, until: str, **kwargs) -> Iterator["Group"]:
        """Tombstoned heads whose sweep is due to be resumed (DueRecurringExpensesIndex)."""
        return cls.due_recurring.query(DELETE_BUCKET, cls.NextRunAt <= until, **kwargs)


class Invite(GroupItem, discriminator="INVITE"):
    """The group's invite link settings; Code is a rotatable secret."""

    Enabled = BooleanAttribute(default=True)
    Code = UnicodeAttribute()
    DefaultRole = UnicodeAttribute(default="MEMBER")

    @staticmethod
    def key(group_id: str) -> tuple:
        return group_id, INVITE


class JoinRequest(GroupItem, discriminator="JOINREQ"):
    """A request to join; PendingKey/UserPendingKey exist only while PENDING."""

    RequestId = UnicodeAttribute()
    ApplicantUserId = UnicodeAttribute()
    ApplicantDisplayName = UnicodeAttribute(null=True)
    Mode = UnicodeAttribute()
    TargetParticipantId = UnicodeAttribute(null=True)
    ProposedRole = UnicodeAttribute(default="MEMBER")
    FinalRole = UnicodeAttribute(null=True)
    Status = UnicodeAttribute(default="PENDING")
    Message = UnicodeAttribute(null=True)
    DecidedAt = UnicodeAttribute(null=True)
    DecidedBy = UnicodeAttribute(null=True)
    ParticipantId = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(request_id: str) -> str:
        return JOINREQ_PREFIX + request_id

    def mark_pending(self) -> "JoinRequest":
        """Set the keys that file a PENDING request in both pending indexes."""
        self.PendingKey, self.UserPendingKey = self.GroupId, self.ApplicantUserId
        return self

    @classmethod
    def unfile_actions(cls) -> list:
        """Update actions that take a decided request out of both pending indexes."""
        return [cls.PendingKey.remove(), cls.UserPendingKey.remove()]

    @classmethod
    def pending_for_group(cls, group_id: str, **kwargs) -> Iterator["JoinRequest"]:
        return cls.pending_join_requests.query(group_id, **kwargs)

    @classmethod
    def pending_for_applicant(cls, user_id: str, group_id: Optional[str] = None,
                              **kwargs) -> Iterator["JoinRequest"]:
        condition = cls.GroupId == group_id if group_id else None
        return cls.user_pending_join_requests.query(user_id, condition, **kwargs)


class JoinLock(GroupItem, discriminator="JOINREQ_LOCK"):
    """One per applicant: PENDING while a request is open, DENIED after a denial."""

    LockType = UnicodeAttribute()
    RequestId = UnicodeAttribute()

    @staticmethod
    def sort_key(user_id: str) -> str:
        return JOINLOCK_PREFIX + user_id


class Participant(GroupItem, discriminator="PARTICIPANT"):
    """Someone who can appear in expenses: a USER, or a GUEST that may later be claimed."""

    ParticipantId = UnicodeAttribute()
    Type = UnicodeAttribute()
    DisplayName = UnicodeAttribute()
    Role = UnicodeAttribute()
    ClaimedAt = UnicodeAttribute(null=True)
    InvitedUserId = UnicodeAttribute(null=True)
    InviteExpiresAt = UnicodeAttribute(null=True)
    TransferTarget = UnicodeAttribute(null=True)
    # Transfers under way INTO this participant: while > 0 it can be neither removed nor
    # made the source of a transfer (its lock would otherwise strand theirs).
    IncomingTransfers = NumberAttribute(null=True)
    # The profile's NameVersion its DisplayName was mirrored from (USER rows): a mirroring
    # run writes only rows showing an older one, so a late or repeated run never undoes a
    # newer rename (app/users/mirror.py).
    NameVersion = NumberAttribute(null=True)
    # The household this participant settles up with (a label, trimmed; compared
    # case-insensitively within the group), and when it was set: a household shows the
    # label of its member who set it first (app.groups.households).
    Household = UnicodeAttribute(null=True)
    HouseholdSetAt = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(participant_id: str) -> str:
        return PARTICIPANT_PREFIX + participant_id

    @classmethod
    def roster(cls, group_id: str, **kwargs) -> Iterator["Participant"]:
        return cls.query(group_id, cls.SK.startswith(PARTICIPANT_PREFIX), **kwargs)

    @property
    def nameable(self) -> bool:
        """A money write may name it: not locked for a transfer."""
        return not self.TransferTarget

    @property
    def may_write_money(self) -> bool:
        """A signed-in member (MEMBER or OWNER; its guard row mirrors the role)."""
        return self.Type == "USER" and self.Role in ("MEMBER", "OWNER")

    @classmethod
    def memberships(cls, user_id: str, group_id: Optional[str] = None,
                    **kwargs) -> Iterator["Participant"]:
        """A user's USER participants (projection: ParticipantId, Role, keys)."""
        condition = cls.GroupId == group_id if group_id else None
        return cls.user_participants.query(user_id, condition, **kwargs)


class UserMember(GroupItem, discriminator="USERMEMBER"):
    """Uniqueness guard: at most one USER participant per (group, user).

    It mirrors the participant's Role (changed in the same transaction as the participant),
    so authorization is one consistent BatchGetItem of the head and this row."""

    ParticipantId = UnicodeAttribute()
    Role = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(user_id: str) -> str:
        return USERMEMBER_PREFIX + user_id
