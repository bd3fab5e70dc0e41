"""A live account: its PROFILE row exists and is not DELETING.

Account deletion marks the profile DELETING before it removes anything, and removes the
profile last. Two things make "deleted" take effect everywhere at that moment:

- every request reads the profile (:func:`is_live`, one strongly consistent GetItem) after
  its credential is verified, whatever the credential and whatever a cache remembers, so no
  warm instance serves the account once the mark is written. On a route under
  /groups/{groupId} that read is :func:`is_live_in_group`: the same BatchGetItem also reads
  the group rows the request's authorization needs, so the check costs no call of its own.
  The cross-group reads (/users/me/people, /users/me/expenses, /users/me/groups,
  /users/me/stats) fold it into their own first BatchGetItem instead (:func:`read_live_with`;
  app.api.needs: liveness_in_view makes sure every such request ends with the verdict);
- every write that creates a row owned by a user holds :data:`LIVE` on that user's profile
  in the same transaction (:meth:`Transaction.require_live_account`) or, when the write
  updates the profile itself, in its own condition; a request that passed the read just
  before the mark therefore writes nothing, and what the deletion sweeps stays swept.
  Money and comment writes in a group are the exception (they hold the caller's guard row,
  or for money the roster version that vouches for the caller's role, instead;
  app.ledger.guards): the rows they add are the group's history, which outlives
  the account as a guest's; the deletion turns the caller's participant into a guest,
  removes that guard row and moves the roster version in one transaction, and scrubs the
  caller's logged changes again after it (app.groups.departure), so a write
  racing the mark either lands before the conversion and is scrubbed, or fails.
  The notification worker's history rows are the exception: it reads the recipients'
  profiles (one strongly consistent BatchGetItem) and the deletion's sweeps remove a row
  that races the mark (app.notifications.dispatch.live_recipients).
"""
from __future__ import annotations

from typing import Dict, Iterable, Sequence

from app.errors import account_deleting
from app.core import request_reads
from models.base import BATCH_GET_LIMIT, batch_get_across
from models.groups import Group, GroupItem, UserMember
from models.users import Profile, UserItem

# The condition a live account's PROFILE satisfies (the model owns it).
LIVE = Profile.live_condition()


def is_live(user_id: str) -> bool:
    """The profile exists and is not being deleted (one strongly consistent GetItem). The
    row read is kept for the rest of the request (request_reads): GET /users/me returns it."""
    try:
        profile = Profile.get(*Profile.key(user_id), consistent_read=True)
    except Profile.DoesNotExist:
        request_reads.remember_profile(user_id, None)
        return False
    request_reads.remember_profile(user_id, profile)
    return not profile.deleting


def is_live_in_group(user_id: str, group_id: str, prefetch: Iterable = ()) -> bool:
    """:func:`is_live` joined with the group reads of a route under /groups/{groupId}: one
    strongly consistent BatchGetItem of the caller's profile, the group head, the caller's
    guard row and ``prefetch`` (sort keys of the group, or (model, key) of another table's
    rows). The group rows are kept for the request's first authorization in that group
    (app.core.access.authorize), the others for whoever takes them
    (request_reads.take_rows)."""
    prefetch = tuple(prefetch)
    others = [entry for entry in prefetch if not isinstance(entry, str)]
    sort_keys = (Group.key(group_id)[1], UserMember.sort_key(user_id),
                 *(entry for entry in prefetch if isinstance(entry, str)))
    profile_key = Profile.key(user_id)
    keys = ([(UserItem, profile_key)] + [(GroupItem, (group_id, sk)) for sk in sort_keys]
            + others)
    rows = batch_get_across(keys, consistent_read=True)
    for model, key in others:
        request_reads.hold_rows(model.Meta.table_name, {key: rows.get((model, key))})
    raw = rows.get((UserItem, profile_key))
    profile = Profile.from_raw(raw)
    request_reads.remember_profile(user_id, profile)
    request_reads.remember_group_rows(
        user_id, group_id, sort_keys,
        {(group_id, sk): rows[(GroupItem, (group_id, sk))] for sk in sort_keys
         if (GroupItem, (group_id, sk)) in rows})
    return profile is not None and not profile.deleting


def read_live_with(user_id: str, model, keys: Sequence[tuple]) -> Dict[tuple, dict]:
    """Raw rows of ``keys`` ((hash, range) of ``model``'s table, eventually consistent, 100 a
    BatchGetItem) with :func:`is_live` folded into the first batch: the caller's profile,
    strongly consistent (BatchGetItem sets ConsistentRead per table), so a route that reads
    a batch anyway checks the account for no call of its own (the authenticator leaves it
    to the route: app.api.needs: liveness_in_view). A caller not live is refused (401);
    a request that has read the profile already (a PAT's or MCP token's own check) does not
    read it again. Absent keys are left out."""
    keys = list(dict.fromkeys(keys))
    if request_reads.liveness_of(user_id) is not None:
        first, rest, rows = [], keys, {}
    else:
        first, rest = keys[:BATCH_GET_LIMIT - 1], keys[BATCH_GET_LIMIT - 1:]
        profile_key = Profile.key(user_id)
        found = batch_get_across([(UserItem, profile_key)] + [(model, key) for key in first],
                                 consistent=(UserItem,))
        request_reads.remember_profile(user_id, Profile.from_raw(found.get((UserItem,
                                                                            profile_key))))
        rows = {key: found[(model, key)] for key in first if (model, key) in found}
    if not request_reads.liveness_of(user_id):
        raise account_deleting()
    if rest:
        rows.update(model.raw_batch_get(rest))
    return rows
