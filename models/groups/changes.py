"""The group's change log: one CHANGE row per changed resource, numbered by the revision.

The counter itself is ``Revision`` on the group head (``META``), read by every access check
and by the home screen at no extra call; each row is written in the same TransactWrite as
the change it records and expires after 90 days through the table's TTL (``ExpiresAt``)."""
from __future__ import annotations

from typing import Iterator, Optional

from pynamodb.attributes import (BooleanAttribute, JSONAttribute, NumberAttribute,
                                 UnicodeAttribute)

from models.groups.base import GroupItem
from models.groups.keys import CHANGE_PREFIX


class ChangeKind:
    """The kinds of resource a change names (Change.Kind, the feed's ``kind``), spelled here
    only; ALL is their order in the API's enum."""

    GROUP = "GROUP"
    PARTICIPANT = "PARTICIPANT"
    EXPENSE = "EXPENSE"
    COMMENT = "COMMENT"
    SETTLEMENT = "SETTLEMENT"
    RECURRING = "RECURRING"
    CONVERSION = "CONVERSION"
    ALL = (GROUP, PARTICIPANT, EXPENSE, COMMENT, SETTLEMENT, RECURRING, CONVERSION)
    # A share-link session opened (docs/share-links.md): shown by /activity, never served
    # by /changes, whose data would be the link row and its hashes.
    LINK = "LINK"
    ACTIVITY_ONLY = (LINK,)
    ACTIVITY = ALL + ACTIVITY_ONLY


class Change(GroupItem, discriminator="CHANGE"):
    """What changed at one revision: the resource (kind, id, its row's SK), how, by whom."""

    Revision = NumberAttribute()
    Kind = UnicodeAttribute()  # one of ChangeKind.ACTIVITY (GROUP, ..., CONVERSION, LINK)
    ResourceId = UnicodeAttribute()
    # The changed row's sort key, so a page of changes fetches the rows in one BatchGetItem.
    ResourceKey = UnicodeAttribute()
    Op = UnicodeAttribute()  # UPSERT, DELETE
    Action = UnicodeAttribute(null=True)  # CREATE, UPDATE, DELETE (the activity verb)
    ActorParticipantId = UnicodeAttribute(null=True)
    At = UnicodeAttribute()
    # [{field, before, after}] for an edit (the activity feed's per-field diff).
    Diff = JSONAttribute(null=True)
    # What the activity sentence names ({"verb", "name", "amount", "currency", ...}): kept
    # here because a deleted resource cannot be read back. Never a person's name.
    Subject = JSONAttribute(null=True)
    ExpiresAt = NumberAttribute()  # TTL (unix seconds)
    # The actor acted through a share-link session (docs/share-links.md): "Bo (by link)".
    ByLink = BooleanAttribute(null=True)
    # An update or delete of an expense, settlement or conversion: the resource's
    # ``projected_sort`` before it (its date may move), so the cross-group projection finds
    # the row it keyed by it (app.insight.projection). Not on a create: nothing was keyed.
    SortedAs = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(revision: int) -> str:
        return f"{CHANGE_PREFIX}{int(revision):012d}"

    @classmethod
    def after(cls, group_id: str, revision: int, **kwargs) -> Iterator["Change"]:
        """Changes with a revision above ``revision``, oldest first."""
        return cls.query(group_id, cls.SK.between(cls.sort_key(revision + 1),
                                                  cls.sort_key(10 ** 12 - 1)), **kwargs)

    @classmethod
    def newest_first(cls, group_id: str, before: Optional[int] = None,
                     **kwargs) -> Iterator["Change"]:
        """Changes newest first, below revision ``before`` when given."""
        upper = cls.sort_key((before if before is not None else 10 ** 12) - 1)
        return cls.query(group_id, cls.SK.between(cls.sort_key(0), upper),
                         scan_index_forward=False, **kwargs)
