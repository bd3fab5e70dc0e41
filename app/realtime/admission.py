"""Who may connect and subscribe now: the token, and the account and memberships behind it.

A token lists the caller's groups as they were when it was minted, up to 15 minutes ago, so
its signature and list alone would let a member removed since (or who left, or whose account
is being deleted) keep hearing the group. Connect and subscribe therefore also read, strongly
consistent and in one BatchGetItem per 100 keys, the caller's profile and, for each group
channel the operation names, the group head and the caller's USERMEMBER guard row (the rows
app.core.access authorizes with): a deleting or deleted account is refused, and a
group channel is held only while the guard row exists and the head is live. A removal, a
leave, a group deletion and an account deletion's guest conversion each delete the guard
row; a group delete tombstones the head first.

A share-link session's token (its ``sub`` is the session's stand-in ``link:<linkId>:
<participantId>``, never an account) is admitted by its link instead: for its one group
channel, the head, the link row and the guest's participant row, in the same one
BatchGetItem; the channel is held while the head is live, the link stands and the guest is
still a guest (app.core.access.link_refusal, what every request of the session checks).

Shared by AWS's Lambda authorizer (:func:`authorize`: AppSync Events' request and reply,
app/handlers/realtime_authorizer.py) and local mode's server (:func:`connect`,
:func:`subscribe`; app/local/realtime_server.py), so the two refuse the same things."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence

from app.logs import logger
from app.auth.principal import link_of_user_id
from app.core.access import is_live, link_refusal
from app.realtime.channels import GROUPS, ChannelRefused, check_subscribe
from app.realtime.tokens import TokenRefused, verify
from models.base import BATCH_GET_LIMIT, batch_get_across
from models.groups import Group, GroupItem, Participant, ShareLink, UserMember
from models.users import Profile, UserItem

CONNECT, SUBSCRIBE = "EVENT_CONNECT", "EVENT_SUBSCRIBE"
GROUP_PREFIX = f"/{GROUPS}/"


class AccountRefused(Exception):
    """The token's account is deleted or being deleted, or the share link behind a session's
    token no longer stands (the message is safe to show)."""


# Every refusal connect or subscribe answers with; each message is safe to show the client.
REFUSED = (TokenRefused, ChannelRefused, AccountRefused)


@dataclass(frozen=True)
class Admission:
    user_id: str
    channels: List[str]  # the token's channels the caller still holds
    expires_at: int  # the token's expiry (unix seconds): nothing it opened outlives it


def held_channels(user_id: str, channels: Sequence[str]) -> List[str]:
    """The channels of ``channels`` the caller still holds; AccountRefused when the account is
    not live. One strongly consistent BatchGetItem per 100 keys (the profile in the first)."""
    groups = list(dict.fromkeys(c[len(GROUP_PREFIX):] for c in channels
                                if c.startswith(GROUP_PREFIX)))
    link = link_of_user_id(user_id)
    if link is not None:
        return _held_by_link(*link, groups)
    profile_key = Profile.key(user_id)
    keys = [(UserItem, profile_key)]
    for group_id in groups:
        keys += [(GroupItem, Group.key(group_id)),
                 (GroupItem, (group_id, UserMember.sort_key(user_id)))]
    found: dict = {}
    for start in range(0, len(keys), BATCH_GET_LIMIT):
        found.update(batch_get_across(keys[start:start + BATCH_GET_LIMIT], consistent_read=True))
    profile = Profile.from_raw(found.get((UserItem, profile_key)))
    if profile is None or profile.deleting:
        raise AccountRefused("The account is deleted or being deleted.")
    held = {group_id for group_id in groups
            if (GroupItem, (group_id, UserMember.sort_key(user_id))) in found
            and is_live(Group.from_raw(found.get((GroupItem, Group.key(group_id)))))}
    return [c for c in channels if not c.startswith(GROUP_PREFIX)
            or c[len(GROUP_PREFIX):] in held]


def _held_by_link(link_id: str, participant_id: str, groups: List[str]) -> List[str]:
    """The group channels a share-link session still holds: its link's group only (the link
    row is keyed in it, so no other group's channel can pass), or AccountRefused when none."""
    keys = []
    for group_id in groups[:1]:  # a session's token lists its one group
        keys = [(GroupItem, Group.key(group_id)),
                (GroupItem, (group_id, ShareLink.sort_key(link_id))),
                (GroupItem, (group_id, Participant.sort_key(participant_id)))]
    found = batch_get_across(keys, consistent_read=True) if keys else {}
    rows = [found.get(key) for key in keys]
    if not keys or not is_live(Group.from_raw(rows[0])):
        raise AccountRefused("This share link's group is gone.")
    refusal = link_refusal(ShareLink.from_raw(rows[1]), Participant.from_raw(rows[2]))
    if refusal is not None:
        raise AccountRefused(refusal)
    return [GROUP_PREFIX + groups[0]]


def connect(token: object) -> Admission:
    """A connection's admission: a valid token of a live account (REFUSED otherwise)."""
    grant = verify(token)
    return Admission(grant.user_id, held_channels(grant.user_id, grant.channels),
                     grant.expires_at)


def subscribe(token: object, channel: object, *, user_id: Optional[str] = None) -> Admission:
    """A subscription's admission: the token lists ``channel`` exactly, the account is live
    and, for a group, the caller is still a member of a live group (REFUSED otherwise).
    ``user_id``: the connection's, which a subscribe's own token must name too."""
    grant = verify(token)
    if user_id is not None and grant.user_id != user_id:
        raise TokenRefused("The token is not this connection's.")
    channel = check_subscribe(grant.channels, channel)
    if link_of_user_id(grant.user_id) is not None:
        held_channels(grant.user_id, [channel])  # refuses (a session holds its one or none)
    elif not held_channels(grant.user_id, [channel]):
        raise ChannelRefused("You are no longer a member of this group: ask POST "
                             "/realtime/token for a new token.")
    return Admission(grant.user_id, [channel], grant.expires_at)


def _refused(reason: str) -> dict:
    logger.info("realtime.refused", extra={"reason": reason})
    return {"isAuthorized": False, "ttlOverride": 0}


def authorize(event: Optional[dict]) -> dict:
    """AppSync Events' Lambda-authorizer reply to its request (``authorizationToken``,
    ``requestContext {operation, channel}``). Nothing is cached (ttlOverride 0): the answer
    depends on the channel and on the rows read now. Publish is never a token's to allow
    (the publisher signs with IAM)."""
    event = event or {}
    request = event.get("requestContext") or {}
    operation = request.get("operation")
    token = event.get("authorizationToken")
    try:
        if operation == CONNECT:
            admission = connect(token)
        elif operation == SUBSCRIBE:
            admission = subscribe(token, request.get("channel"))
        else:
            return _refused(f"{operation} is not allowed with a realtime token")
    except REFUSED as refusal:
        return _refused(str(refusal))
    return {"isAuthorized": True, "ttlOverride": 0,
            "handlerContext": {"userId": admission.user_id}}
