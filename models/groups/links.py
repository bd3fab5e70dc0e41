"""Share links (docs/share-links.md): a link acting for one guest of its group, and the
group's count of live links. Both live in the group's partition, so deleting the group
sweeps them with everything else (app.groups.delete) and every session ends with them."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import BooleanAttribute, NumberAttribute, UnicodeAttribute

from models.groups.base import GroupItem
from models.groups.keys import LINK_COUNT, LINK_PREFIX


class ShareLink(GroupItem, discriminator="LINK"):
    """One live link. Revoking deletes the row: a session verifies nothing but its own
    signature, so the row being read on every request is what revocation ends.

    Only hashes are kept: ``SecretHash`` (the PAT pepper scheme, app.developer.pepper) and
    ``PinHash`` (scrypt with ``PinSalt``, a per-link salt). Wrong PINs are counted in one
    15-minute window (``PinWindowStart``, ``PinFailures``); the 5th sets ``LockedUntil``."""

    LinkId = UnicodeAttribute()
    Role = UnicodeAttribute()  # VIEWER | MEMBER
    SecretHash = UnicodeAttribute()
    ParticipantId = UnicodeAttribute(null=True)  # the bound guest, if any
    PinHash = UnicodeAttribute(null=True)
    PinSalt = UnicodeAttribute(null=True)
    # When it stops working (ISO-8601 UTC); not ExpiresAt, the table's TTL attribute: an
    # expired link keeps its row (and its slot) until an owner revokes it or a recount.
    ValidUntil = UnicodeAttribute(null=True)
    Label = UnicodeAttribute(null=True)
    CreatedBy = UnicodeAttribute(null=True)  # the owner's participant id
    PinWindowStart = NumberAttribute(null=True)  # unix seconds
    PinFailures = NumberAttribute(null=True)
    LockedUntil = NumberAttribute(null=True)  # unix seconds
    # Made by an invitation by e-mail (app.people.email_invitations): not counted toward the
    # group's LinkCount (LINK_LIMIT), which those invitations' own daily limit bounds.
    ByEmail = BooleanAttribute(null=True)

    @staticmethod
    def sort_key(link_id: str) -> str:
        return LINK_PREFIX + link_id

    @classmethod
    def of_group(cls, group_id: str, **kwargs) -> Iterator["ShareLink"]:
        return cls.query(group_id, cls.SK.startswith(LINK_PREFIX), **kwargs)


class LinkCount(GroupItem, discriminator="LINKCOUNT"):
    """How many links of the group are live: a create adds one only while below the cap
    (a conditional update in the create's transaction, so racing creates never pass it)."""

    Live = NumberAttribute(null=True)

    @staticmethod
    def key(group_id: str) -> tuple:
        return group_id, LINK_COUNT
