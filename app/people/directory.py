"""The discovery directory: one row per searchable text of a discoverable user.

Rows live in the user's People partition (``DIR#NAME``, ``DIR#HANDLE``) and are indexed by
DirectoryIndex on the folded text's first two characters, so a prefix search is one Query.
Every change of a name, handle or opt-in rewrites them in the same transaction as the
PROFILE change, and a search re-checks the profiles it found (one consistent BatchGetItem),
so an index lagging behind an opt-out never shows a user who left. The rows are written
with the profile (app.users.directory_rows), by a rename there and by a handle or opt-in
change here."""
from __future__ import annotations

from typing import Optional

from app.errors import Invalid
from models.people import DIR_KEY_LENGTH, DirectoryEntry, fold
from models.users import Profile

SEARCH_LIMIT = 25


def search(caller_user_id: str, query: str, *, limit: Optional[int] = None) -> list:
    """Discoverable users whose name or handle starts with ``query``: ``[{userId, displayName,
    handle}]``, each once, never an e-mail. Two calls: the index Query and one BatchGetItem."""
    folded = fold(query or "")
    if len(folded) < DIR_KEY_LENGTH:
        raise Invalid("Search for at least two characters.",
                      details={"q": ["Must be at least 2 characters."]})
    size = min(limit or SEARCH_LIMIT, SEARCH_LIMIT)
    found: dict = {}
    for row in DirectoryEntry.search(folded, limit=size * 2):
        if row.UserId != caller_user_id:
            found.setdefault(row.UserId, row)
        if len(found) >= size:
            break
    if not found:
        return []
    # The index is eventually consistent: the profiles decide who is discoverable right now.
    profiles = {p.UserId: p for p in Profile.batch_get([Profile.key(uid) for uid in found],
                                                       consistent_read=True)}
    results = []
    for user_id in found:
        profile = profiles.get(user_id)
        if profile is None or not profile.Discoverable or not _matches(profile, folded):
            continue
        results.append({"userId": user_id, "displayName": profile.DisplayName,
                        "handle": profile.Handle})
    return results


def _matches(profile: Profile, folded_query: str) -> bool:
    return any(fold(text).startswith(folded_query)
               for text in (profile.DisplayName, profile.Handle) if text)


def is_discoverable(user_id: str) -> bool:
    try:
        return bool(Profile.get(*Profile.key(user_id), consistent_read=True).Discoverable)
    except Profile.DoesNotExist:
        return False
