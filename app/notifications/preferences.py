"""Per-type switches and muted groups, in the caller's PREFS row.

MutedGroupIds is only ever changed with atomic ADD/DELETE of single ids, so two devices
muting two groups at once both win; PATCH applies a desired set as such ADDs and DELETEs."""
from __future__ import annotations

from typing import Iterable, Mapping, Optional

from app.errors import Conflict
from app.core import request_reads
from app.core.access import authorize
from app.core.transactions import Transaction
from app.core.outbox import EVENT_TYPES
from models.notifications import (DIGEST_PERIODS, DigestSubscriber, NotificationItem,
                                  Preferences)
from models.users import Profile

DIGESTS = ("NONE", "DAILY", "WEEKLY")
PERIODS = DIGEST_PERIODS
# The one-click unsubscribe of a digest e-mail names this instead of an event type.
DIGEST_TYPE = "DIGEST"


def _row(user_id: str) -> Optional[Preferences]:
    raw = NotificationItem.raw_get(*Preferences.key(user_id))
    return NotificationItem.from_raw_data(raw) if raw else None


def _ensure_actions() -> list:
    """Create the row on first write with its kind and an empty switch map."""
    return [Preferences.EntityType.set(Preferences), Preferences.Types.set(Preferences.Types | {})]


def view(prefs: Optional[Preferences], email_verified: bool = False) -> dict:
    stored = prefs.Types.as_dict() if prefs is not None and prefs.Types is not None else {}
    emailed = set(prefs.EmailOn or ()) if prefs is not None else set()
    return {"types": {name: {"push": stored.get(name, True) is not False,
                             "email": name in emailed} for name in EVENT_TYPES},
            "mutedGroupIds": sorted(prefs.MutedGroupIds or ()) if prefs is not None else [],
            "digest": (prefs.Digest if prefs is not None else None) or "NONE",
            "emailVerified": email_verified}


def _email_verified(user_id: str) -> bool:
    """From the profile the request's liveness check read (no extra call), else a read."""
    profile = request_reads.profile_of(user_id)
    if profile is None:
        try:
            profile = Profile.get(*Profile.key(user_id))
        except Profile.DoesNotExist:
            return False
    return bool(profile.EmailVerified)


def get_preferences(user_id: str) -> dict:
    return view(_row(user_id), _email_verified(user_id))


def unsubscribe(user_id: str, event_type: str) -> None:
    """One-click unsubscribe: that type's e-mail channel off (push unchanged). Idempotent; an
    account gone meanwhile has nothing left to switch off."""
    if event_type == DIGEST_TYPE:
        actions, digest = [Preferences.Digest.remove()], "NONE"
    elif event_type in EVENT_TYPES:
        actions, digest = [Preferences.EmailOn.delete({event_type})], None
    else:
        return
    try:
        _update(user_id, actions, digest)
    except Conflict:
        pass  # the account is gone or going: it gets no e-mail anyway


def _subscribe(tx: Transaction, user_id: str, digest: Optional[str]) -> Transaction:
    """With a digest change, the user's subscriber rows follow it in the same TransactWrite:
    a row in the chosen period's partition, none in the other (NONE: none at all). Two items
    more (4 WRU) on a PATCH that names ``digest``; nothing on any other write."""
    if digest is not None:
        for period in PERIODS:
            row = DigestSubscriber(*DigestSubscriber.key(period, user_id), UserId=user_id)
            tx.put(row) if period == digest else tx.delete(row)
    return tx


def _update(user_id: str, actions: list, digest: Optional[str] = None) -> None:
    """Apply ``actions`` (creating the row if needed) while the account is live (one
    TransactWrite, which returns no image: a caller needing the row reads it back)."""
    tx = (Transaction().require_live_account(user_id)
          .update(Preferences(*Preferences.key(user_id)), _ensure_actions() + actions))
    _subscribe(tx, user_id, digest).commit()


def _set_switches(user_id: str, types: Mapping[str, bool], actions: list,
                  digest: Optional[str] = None) -> Preferences:
    """Set switches, plus ``actions``, in one write once the Types map exists.

    DynamoDB can't create a map and set entries in it in one expression (the paths overlap),
    so the first PATCH of a row writes the whole map instead: each attempt is conditioned on
    the map being there or not, and a lost race to create it retries on the other path. The
    row is the user's, so each attempt also holds their account live (one TransactWrite)."""
    entries = [Preferences.Types[name].set(bool(on)) for name, on in sorted(types.items())]
    whole = Preferences.Types.set({name: bool(on) for name, on in types.items()})
    kind = Preferences.EntityType.set(Preferences)
    for _attempt in range(2):
        if _update_if_live(user_id, [kind, *entries, *actions], Preferences.Types.exists(),
                           digest):
            return _row(user_id)
        if _update_if_live(user_id, [kind, whole, *actions], Preferences.Types.does_not_exist(),
                           digest):
            return _row(user_id)
    raise RuntimeError("the PREFS row's switch map kept appearing and vanishing")  # row deleted


class _MapState(Conflict):
    """The Types map is (not) there, unlike the attempt assumed: try the other path."""


def _update_if_live(user_id: str, actions: list, condition, digest: Optional[str]) -> bool:
    retry = _MapState("The preferences changed meanwhile.")
    try:
        tx = (Transaction().require_live_account(user_id)
              .update(Preferences(*Preferences.key(user_id)), actions, condition=condition,
                      on_fail=retry))
        _subscribe(tx, user_id, digest).commit()
    except _MapState as error:
        if error is not retry:
            raise
        return False
    return True


def mute(user_id: str, group_id: str) -> None:
    """Mute a group the caller belongs to (404 otherwise, like every group route)."""
    authorize(user_id, group_id)
    _update(user_id, [Preferences.MutedGroupIds.add({group_id})])


def unmute(user_id: str, group_id: str) -> None:
    """Unmute; allowed after leaving the group too, so a stale mute can always be cleared."""
    _update(user_id, [Preferences.MutedGroupIds.delete({group_id})])


def _channel_actions(types: Mapping[str, Mapping[str, bool]], digest: Optional[str]) -> list:
    """The e-mail switches (ADD/DELETE of names in one set) and the digest period."""
    email = {name: bool(channels["email"]) for name, channels in types.items()
             if "email" in channels}
    actions = []
    if any(email.values()):
        actions.append(Preferences.EmailOn.add({name for name, on in email.items() if on}))
    if not all(email.values()):
        actions.append(Preferences.EmailOn.delete({name for name, on in email.items()
                                                   if not on}))
    if digest == "NONE":
        actions.append(Preferences.Digest.remove())
    elif digest is not None:
        actions.append(Preferences.Digest.set(digest))
    return actions


def update_preferences(user_id: str, *, types: Optional[Mapping[str, Mapping[str, bool]]] = None,
                       muted_group_ids: Optional[Iterable[str]] = None,
                       digest: Optional[str] = None) -> dict:
    """Set the given channels (``{type: {push?, email?}}``) and digest; bring the muted set to
    ``muted_group_ids`` by ADD/DELETE.

    One TransactWrite (the account live, the row updated), then the row read back for the
    reply; reading the row first only when the muted set
    is given (the ADD/DELETE are relative to it)."""
    types = types or {}
    actions = _channel_actions(types, digest)
    push = {name: channels["push"] for name, channels in types.items() if "push" in channels}
    if muted_group_ids is not None:
        current = _row(user_id)
        wanted = set(muted_group_ids)
        had = set(current.MutedGroupIds or ()) if current is not None else set()
        for group_id in sorted(wanted - had):
            authorize(user_id, group_id)
        if wanted - had:
            actions.append(Preferences.MutedGroupIds.add(wanted - had))
        if had - wanted:
            actions.append(Preferences.MutedGroupIds.delete(had - wanted))
        if not push and not actions:
            return view(current, _email_verified(user_id))
    if push:
        return view(_set_switches(user_id, push, actions, digest), _email_verified(user_id))
    _update(user_id, actions, digest)
    return view(_row(user_id), _email_verified(user_id))
