"""Rows a request has already read strongly consistently, for a later step of the same
request to reuse instead of reading again:
- GET /users/me: the liveness read of the caller's profile is the profile the view returns;
- whether that read found the account live, whichever call made it: a view that folds the
  read into a batch of its own (app.api.needs: liveness_in_view) asks here that it was made;
- a route under /groups/{groupId}: the liveness read also read the group's head, the
  caller's guard row and the rows the view declared (one BatchGetItem,
  app.core.live.is_live_in_group); the request's first authorization in that group
  uses them instead of reading again (once: a later one reads afresh);
- a /changes page: its Query of the CHANGE rows runs before that BatchGetItem, so the
  rows they name join it (:func:`hold`, app.changes.feed.read_page); balances:
  the roster's Query runs first, so its users' payment methods join it (:func:`hold_rows`).

Context variables, reset when each request starts (app.factory), so nothing read for one
request is ever seen by another. No model import: the factory imports this at start-up."""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Mapping, Optional, Tuple

_profile: ContextVar[Optional[Any]] = ContextVar("tailspend_request_profile", default=None)
# (user id, whether the account is live) once this request has read the caller's profile
_live: ContextVar[Optional[Tuple[str, bool]]] = ContextVar("tailspend_request_live", default=None)
# (user id, group id, sort keys read, raw rows by (group id, sort key)) or None
_group: ContextVar[Optional[Tuple[str, str, frozenset, Mapping]]] = ContextVar(
    "tailspend_request_group_rows", default=None)
_held: ContextVar[Optional[Mapping]] = ContextVar("tailspend_request_held", default=None)
# The guest a share-link session acts as in this request (app.core.access.authorize_link)
_by_link: ContextVar[Optional[str]] = ContextVar("tailspend_request_by_link", default=None)
# The group this request was authorized to write in (app.core.access.refuse_archived)
_writing: ContextVar[Optional[str]] = ContextVar("tailspend_request_writing", default=None)


def forget() -> None:
    """A request starts: nothing is known yet."""
    _profile.set(None)
    _live.set(None)
    _group.set(None)
    _held.set(None)
    _by_link.set(None)
    _writing.set(None)


def remember_writing(group_id: str) -> None:
    """This request was authorized to write in ``group_id`` while it was not archived."""
    _writing.set(group_id)


def writes_in(group_id: str) -> bool:
    """Whether this request's writes in ``group_id`` passed the archive check, so an
    archive landing before they commit must refuse them (app.core.changelog)."""
    return _writing.get() == group_id


def remember_link_guest(participant_id: str) -> None:
    """This request acts by a share link, as ``participant_id``. The change log reads it
    (app.core.changelog.record) so every write a session makes says "by link" without
    each of the many write paths passing the link along."""
    _by_link.set(participant_id)


def acts_by_link(participant_id: Optional[str]) -> bool:
    """Whether ``participant_id`` is the guest this request's share-link session acts as."""
    return participant_id is not None and _by_link.get() == participant_id


def remember_profile(user_id: str, profile: Optional[Any]) -> None:
    """The caller's profile as the liveness read found it (None: absent)."""
    _profile.set(profile)
    _live.set((user_id, profile is not None and not profile.deleting))


def liveness_of(user_id: str) -> Optional[bool]:
    """Whether this request found ``user_id``'s account live; None if it has not read it."""
    held = _live.get()
    return held[1] if held is not None and held[0] == user_id else None


def profile_of(user_id: str) -> Optional[Any]:
    """The profile this request read for ``user_id`` (strongly consistent), or None."""
    profile = _profile.get()
    return profile if profile is not None and profile.UserId == user_id else None


def remember_group_rows(user_id: str, group_id: str, sort_keys, rows: Mapping) -> None:
    _group.set((user_id, group_id, frozenset(sort_keys), rows))


def take_group_rows(user_id: str, group_id: str, sort_keys) -> Optional[Mapping]:
    """The group rows read with the liveness check, if they cover ``sort_keys`` for this
    caller and group; handed out once."""
    held = _group.get()
    if held is None or held[:2] != (user_id, group_id) or not set(sort_keys) <= held[2]:
        return None
    _group.set(None)
    return held[3]


def hold(key: Tuple, value: Any) -> None:
    """Keep a read under ``key`` for a later step of this request."""
    _held.set({**(_held.get() or {}), key: value})


def hold_rows(table: str, rows: Mapping) -> None:
    """Raw rows of ``table`` read for this request, by key (None: read and absent)."""
    key = ("rows", table)
    hold(key, {**((_held.get() or {}).get(key) or {}), **rows})


def take_rows(table: str, keys) -> Optional[Mapping]:
    """The present rows among ``keys`` if this request read every one of them, else None."""
    rows = (_held.get() or {}).get(("rows", table)) or {}
    if not all(key in rows for key in keys):
        return None
    return {key: rows[key] for key in keys if rows[key] is not None}


def take(key: Tuple) -> Optional[Any]:
    """What :func:`hold` kept under ``key`` in this request, or None; handed out once."""
    kept = dict(_held.get() or {})
    value = kept.pop(key, None)
    _held.set(kept)
    return value
