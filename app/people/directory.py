"""The discovery directory: one row per searchable text of a discoverable user.

Rows live in the user's People partition (``DIR#NAME``, ``DIR#HANDLE``) and are indexed by
DirectoryIndex on the folded text's first two characters, so a prefix search is one Query.
Every change of a name, handle or opt-in rewrites them in the same transaction as the
PROFILE change, and a search re-checks the profiles it found (one consistent BatchGetItem),
so an index lagging behind an opt-out never shows a user who left."""
from __future__ import annotations

from typing import Optional

from app.errors import Invalid
from app.core.transactions import Transaction
from models.people import DIR_KEY_LENGTH, DirectoryEntry, fold
from models.users import Profile

SEARCH_LIMIT = 25
NAME, HANDLE = "NAME", "HANDLE"


def write_entries(tx: Transaction, user_id: str, *, discoverable: bool, display_name: str,
                  handle: Optional[str]) -> None:
    """Add to ``tx`` the directory rows this profile state calls for (and drop the rest)."""
    name_row = DirectoryEntry(*DirectoryEntry.key(user_id, NAME))
    handle_row = DirectoryEntry(*DirectoryEntry.key(user_id, HANDLE))
    if not discoverable:
        tx.delete(name_row)
        tx.delete(handle_row)
        return
    tx.put(DirectoryEntry.build(user_id, NAME, display_name, display_name=display_name,
                                handle=handle))
    if handle:
        tx.put(DirectoryEntry.build(user_id, HANDLE, handle, display_name=display_name,
                                    handle=handle))
    else:
        tx.delete(handle_row)


def rename_in_directory(tx: Transaction, profile: Profile, display_name: str) -> None:
    """Public hook for a profile rename: keep this user's rows in step within ``tx``.

    The caller conditions its PROFILE update on the Handle and Discoverable it read, so the
    rows written here match what the profile says once ``tx`` commits."""
    write_entries(tx, profile.UserId, discoverable=bool(profile.Discoverable),
                  display_name=display_name, handle=profile.Handle)


def profile_condition(profile: Profile):
    """PROFILE still holds what the directory rows were derived from."""
    condition = Profile.DisplayName == profile.DisplayName
    condition &= (Profile.Handle == profile.Handle) if profile.Handle else Profile.Handle.does_not_exist()
    if profile.Discoverable:
        condition &= Profile.Discoverable == True  # noqa: E712
    else:
        condition &= Profile.Discoverable.does_not_exist() | (Profile.Discoverable == False)  # noqa: E712
    return condition


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
