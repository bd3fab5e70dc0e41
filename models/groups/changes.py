"""The group's change log: one CHANGE row per changed resource, numbered by the revision.

The counter itself is ``Revision`` on the group head (``META``), read by every access check
and by the home screen at no extra call; each row is written in the same TransactWrite as
the change it records and expires after 90 days through the table's TTL (``ExpiresAt``)."""
from __future__ import annotations

import base64
import json
import zlib
from typing import Any, Iterator, Optional

from pynamodb.attributes import (Attribute, BooleanAttribute, JSONAttribute, NumberAttribute,
                                 UnicodeAttribute)
from pynamodb.constants import BINARY

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


class PackedJSONAttribute(Attribute[Any]):
    """JSON stored deflated in a binary value. An edit's diff repeats every participant id
    of its splits before and after (a 6-way amount edit: ~1.1 KB of JSON, ~0.3 KB deflated),
    and the CHANGE row is written in the edit's TransactWrite at 2 write units per started
    KB: packed, the row stays in one KB."""

    attr_type = BINARY

    def serialize(self, value: Any) -> Optional[bytes]:
        if value is None:
            return None
        return zlib.compress(json.dumps(value, separators=(",", ":")).encode(), 9)

    def deserialize(self, value: Any) -> Any:
        if isinstance(value, str):  # a stream record's JSON image carries base64 text
            value = base64.b64decode(value)
        return json.loads(zlib.decompress(bytes(value)))


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
    # [{field, before, after}] for an edit (the activity feed's per-field diff), packed.
    Diff = PackedJSONAttribute(null=True, attr_name="PackedDiff")
    # The same, as JSON text, on rows written before the packing (gone with their 90-day
    # TTL): read through :attr:`edits`, removed by a rewrite (app.core.scrub).
    TextDiff = JSONAttribute(null=True, attr_name="Diff")
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

    @property
    def edits(self) -> Optional[list]:
        """The per-field diff, packed or (an older row) as text."""
        return self.Diff if self.Diff is not None else self.TextDiff

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
