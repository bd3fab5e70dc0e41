"""Per-request context for views: the caller, the group access, the services' settings."""
from __future__ import annotations

import functools
from typing import Iterable

from flask import current_app, g

from app.api import conditional
from app.auth.principal import Principal
from app.config import Settings
from app.errors import account_deleting
from app.core import request_reads
from app.core.access import Access, authorize, authorize_link
from app.core.live import is_live


def principal() -> Principal:
    """The authenticated caller (set before the view runs)."""
    return g.principal


def group_access(group_id, min_role: str = "VIEWER", *,
                 prefetch: Iterable[str] = (), writing: bool = False) -> Access:
    """The caller's access to a group (404 non-member, 403 role too low), authorized once per
    request, role and prefetch: the one way a view authorizes in a group.

    The idempotency guard authorizes before any replay; the view then reuses that answer
    instead of reading the guard row a second time. ``prefetch`` (sort keys read in the same
    BatchGetItem, see :func:`authorize`) is part of the key: an answer read without a row is
    never handed to a view that needs it. The head it reads carries the group's revision,
    which conditional reads (app.api.conditional) compare with If-None-Match.
    ``writing``: the caller is about to write (409 GROUP_ARCHIVED in an archived group,
    app.core.access.refuse_archived)."""
    cache = g.setdefault("group_access", {})
    key = (str(group_id), min_role, tuple(prefetch), writing)
    if key not in cache:
        caller = principal()
        cache[key] = (authorize_link(caller.link, caller.user_id, str(group_id), min_role,
                                     prefetch=key[2], writing=writing)
                      if caller.link is not None else
                      authorize(caller.user_id, str(group_id), min_role, prefetch=key[2],
                                writing=writing))
    conditional.on_access(cache[key])  # a conditional read (ETag) may end here with a 304
    return cache[key]


def checked_live(view):
    """``@needs(liveness_in_view=True)``: the view's service reads the caller's profile in a
    batch it makes anyway (app.core.live.read_live_with) and refuses a caller who is
    not live: the authenticator reads nothing for it (app.factory). Whatever the view does,
    it ends here with that verdict: if its service did not read it (nothing to batch, an
    error first), it is read now (one GetItem), so a deleting account is refused (401) and
    never served."""
    @functools.wraps(view)
    def checked(*args, **kwargs):
        try:
            reply = view(*args, **kwargs)
        except Exception:
            _require_live()
            raise
        _require_live()
        return reply
    return checked


def _require_live() -> None:
    user_id = principal().user_id
    live = request_reads.liveness_of(user_id)
    if not (is_live(user_id) if live is None else live):
        raise account_deleting()


def reader_locale() -> str:
    """The language the caller reads: their profile's ``locale`` (the profile this request's
    liveness check read: no extra call), else the best match of the browser's
    Accept-Language (a share-link guest has no profile)."""
    from flask import request

    from app.core.i18n import DEFAULT, negotiate, supported

    caller = principal()
    profile = request_reads.profile_of(caller.user_id) if caller.link is None else None
    if profile is not None:
        return supported(profile.Locale) if profile.Locale else DEFAULT
    return negotiate(request.headers.get("Accept-Language"))


def settings() -> Settings:
    return current_app.extensions["tailspend"].settings


def scope(name: str) -> str:
    """A cursor scope binding a list to its route and caller."""
    return f"{name}:{principal().user_id}"
