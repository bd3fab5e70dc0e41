"""Handles: one owner per handle, through a conditional put of its ``HANDLE#<handle>`` row.

Claiming, mirroring Handle and Discoverable onto PROFILE, releasing the previous handle and
rewriting the directory rows are one TransactWrite: two users racing for one handle get one
winner (the loser's put fails its attribute_not_exists), and no state between is visible."""
from __future__ import annotations

import re

from app.errors import Invalid, account_deleting, concurrent_update, not_found
from app.people.errors import handle_reserved, handle_taken
from app.core.live import LIVE
from app.core.clock import now_iso
from app.core.transactions import Transaction
from app.users.directory_rows import profile_condition, write_entries
from models.people import HandleClaim
from models.users import Profile

HANDLE_PATTERN = re.compile(r"^[a-z0-9_]{3,30}$")
# Words that would let someone pass for the service, its staff or a mention-everyone.
RESERVED = frozenset({
    "admin", "administrator", "root", "system", "support", "help", "helpdesk", "staff",
    "moderator", "mod", "security", "official", "tailspend", "team", "billing", "noreply",
    "no_reply", "everyone", "here", "channel", "all", "me", "you", "null", "undefined",
    "api", "www", "mail", "owner", "owners", "guest", "guests", "user", "users"})


def normalise(handle: str) -> str:
    """The stored form: trimmed, lowercase; refuses malformed and reserved handles (400)."""
    value = (handle or "").strip().lower()
    if not HANDLE_PATTERN.match(value):
        raise Invalid("A handle is 3-30 characters of a-z, 0-9 and _.",
                      details={"handle": ["Must match [a-z0-9_]{3,30}."]})
    if value in RESERVED:
        raise handle_reserved()
    return value


def _profile(user_id: str) -> Profile:
    try:
        return Profile.get(*Profile.key(user_id), consistent_read=True)
    except Profile.DoesNotExist:
        raise not_found("Profile") from None


def set_handle(user_id: str, handle: str, *, discoverable: bool) -> Profile:
    """Claim ``handle`` (or keep it) and set the search opt-in; 409 HANDLE_TAKEN if it is
    someone else's. The previous handle is released in the same transaction."""
    handle = normalise(handle)
    profile = _profile(user_id)
    previous, now = profile.Handle, now_iso()
    tx = Transaction()
    if handle != previous:
        # A claim row left by an interrupted change of our own is ours to keep.
        tx.put(HandleClaim(*HandleClaim.key(handle), UserId=user_id, CreatedAt=now),
               condition=HandleClaim.PK.does_not_exist() | (HandleClaim.UserId == user_id),
               on_fail=handle_taken())
        if previous:
            tx.delete(HandleClaim(*HandleClaim.key(previous)),
                      condition=HandleClaim.PK.does_not_exist() | (HandleClaim.UserId == user_id),
                      on_fail=concurrent_update())
    tx.update(Profile(*Profile.key(user_id)),
              [Profile.Handle.set(handle), Profile.Discoverable.set(discoverable),
               Profile.UpdatedAt.set(now)],
              # LIVE: the claim and the directory rows are the user's, so none once the
              # account's deletion has begun (this update is the profile's check too).
              condition=LIVE & profile_condition(profile),
              on_fail=lambda old: account_deleting() if not old or old.get("Status")
              else concurrent_update())
    write_entries(tx, user_id, discoverable=discoverable, display_name=profile.DisplayName,
                  handle=handle)
    tx.commit()
    profile.Handle, profile.Discoverable, profile.UpdatedAt = handle, discoverable, now
    return profile


def owner_of(handle: str):
    """The user id holding ``handle``, or None."""
    try:
        return HandleClaim.get(*HandleClaim.key(handle.lower()), consistent_read=True).UserId
    except HandleClaim.DoesNotExist:
        return None
