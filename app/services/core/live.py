"""A live account: its PROFILE row exists and is not DELETING.

Account deletion marks the profile DELETING before it removes anything, and removes the
profile last. Two things make "deleted" take effect everywhere at that moment:

- every request reads the profile (:func:`is_live`, one strongly consistent GetItem) after
  its credential is verified, whatever the credential and whatever a cache remembers, so no
  warm instance serves the account once the mark is written;
- every write that creates a row owned by a user holds :data:`LIVE` on that user's profile
  in the same transaction (:meth:`Transaction.require_live_account`) or, when the write
  updates the profile itself, in its own condition; a request that passed the read just
  before the mark therefore writes nothing, and what the deletion sweeps stays swept.
  The notification worker's history rows are the exception: it reads the recipients'
  profiles (one strongly consistent BatchGetItem) and the deletion's sweeps remove a row
  that races the mark (app.services.notifications.dispatch.live_recipients).
"""
from __future__ import annotations

from app.services.core import request_reads
from models.users import Profile

# The condition a live account's PROFILE satisfies (the model owns it).
LIVE = Profile.live_condition()


def is_live(user_id: str) -> bool:
    """The profile exists and is not being deleted (one strongly consistent GetItem). The
    row read is kept for the rest of the request (request_reads): GET /users/me returns it."""
    try:
        profile = Profile.get(*Profile.key(user_id), consistent_read=True)
    except Profile.DoesNotExist:
        request_reads.remember_profile(None)
        return False
    request_reads.remember_profile(profile)
    return not profile.deleting
