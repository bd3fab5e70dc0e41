"""Which channels a token opens, and the one check every subscribe passes.

Every subscribe passes it (app/realtime/admission.py: the AWS Lambda authorizer's and
local mode's server's one check), so the two refuse the same things: a channel the token
does not list, any wildcard (the seed's named gap: AppSync accepts ``/groups/*`` as a
subscription, which would hear every group), a malformed path, an expired or forged token."""
from __future__ import annotations

import re
from typing import Iterable, List

GROUPS, USERS = "groups", "users"  # the channel namespaces (template.yaml)
# One namespace and one id segment: the ids we mint are [A-Za-z0-9_-]; nothing else matches.
CHANNEL = re.compile(r"/(groups|users)/[A-Za-z0-9_-]{1,128}")


def group_channel(group_id: str) -> str:
    return f"/{GROUPS}/{group_id}"


def user_channel(user_id: str) -> str:
    return f"/{USERS}/{user_id}"


def channels_for(user_id: str, group_ids: Iterable[str]) -> List[str]:
    return [group_channel(g) for g in sorted(set(group_ids))] + [user_channel(user_id)]


class ChannelRefused(Exception):
    """A subscribe the token does not allow (the message is safe to show the client)."""


def check_subscribe(allowed: Iterable[str], channel: object) -> str:
    """The channel, when ``allowed`` (the token's list) names it exactly; else ChannelRefused."""
    if not isinstance(channel, str) or "*" in channel:
        raise ChannelRefused("Wildcard subscriptions are not allowed.")
    if not CHANNEL.fullmatch(channel):
        raise ChannelRefused("Not a channel: /groups/{groupId} or /users/{userId}.")
    if channel not in set(allowed):
        raise ChannelRefused("The token does not list this channel.")
    return channel
