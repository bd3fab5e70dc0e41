"""Per-type switches and muted groups, in the caller's PREFS row.

MutedGroupIds is only ever changed with atomic ADD/DELETE of single ids, so two devices
muting two groups at once both win; PATCH applies a desired set as such ADDs and DELETEs."""
from __future__ import annotations

from typing import Iterable, Mapping, Optional

from app.services.core.access import authorize
from app.services.core.outbox import EVENT_TYPES
from models.notifications import NotificationItem, Preferences


def _row(user_id: str) -> Optional[Preferences]:
    raw = NotificationItem.raw_get(*Preferences.key(user_id))
    return NotificationItem.from_raw_data(raw) if raw else None


def _ensure_actions() -> list:
    """Create the row on first write with its kind and an empty switch map."""
    return [Preferences.EntityType.set(Preferences), Preferences.Types.set(Preferences.Types | {})]


def view(prefs: Optional[Preferences]) -> dict:
    stored = prefs.Types.as_dict() if prefs is not None and prefs.Types is not None else {}
    return {"types": {name: stored.get(name, True) is not False for name in EVENT_TYPES},
            "mutedGroupIds": sorted(prefs.MutedGroupIds or ()) if prefs is not None else []}


def get_preferences(user_id: str) -> dict:
    return view(_row(user_id))


def _update(user_id: str, actions: list) -> None:
    Preferences(*Preferences.key(user_id)).update(actions=_ensure_actions() + actions)


def mute(user_id: str, group_id: str) -> None:
    """Mute a group the caller belongs to (404 otherwise, like every group route)."""
    authorize(user_id, group_id)
    _update(user_id, [Preferences.MutedGroupIds.add({group_id})])


def unmute(user_id: str, group_id: str) -> None:
    """Unmute; allowed after leaving the group too, so a stale mute can always be cleared."""
    _update(user_id, [Preferences.MutedGroupIds.delete({group_id})])


def update_preferences(user_id: str, *, types: Optional[Mapping[str, bool]] = None,
                       muted_group_ids: Optional[Iterable[str]] = None) -> dict:
    """Set the given switches; bring the muted set to ``muted_group_ids`` by ADD/DELETE."""
    current = _row(user_id)
    if muted_group_ids is not None:
        wanted = set(muted_group_ids)
        had = set(current.MutedGroupIds or ()) if current is not None else set()
        for group_id in sorted(wanted - had):
            authorize(user_id, group_id)
        actions = []
        if wanted - had:
            actions.append(Preferences.MutedGroupIds.add(wanted - had))
        if had - wanted:
            actions.append(Preferences.MutedGroupIds.delete(had - wanted))
        if actions:
            _update(user_id, actions)
    if types:
        _update(user_id, [])  # the map must exist before its entries can be set
        Preferences(*Preferences.key(user_id)).update(
            actions=[Preferences.Types[name].set(bool(on)) for name, on in sorted(types.items())])
    return get_preferences(user_id)
