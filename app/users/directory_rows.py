"""The discovery directory's rows, derived from the PROFILE and written in its transaction.

A profile change that moves what the rows show (a rename here, a handle or opt-in change in
app.people.handles) adds them to its own TransactWrite, conditioned on the PROFILE still
holding what they were derived from. The users area owns them because the profile does:
people (the search, handles) sits above users and reads them (app.people.directory)."""
from __future__ import annotations

from typing import Optional

from app.core.transactions import Transaction
from models.people import DirectoryEntry
from models.users import Profile

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
    """For a profile rename: keep this user's rows in step within ``tx``.

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
