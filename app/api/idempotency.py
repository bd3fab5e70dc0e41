"""``Idempotency-Key`` support for create routes (POST returning 201)."""
from __future__ import annotations

import json
from functools import wraps
from typing import Callable, Optional, Tuple

from flask import current_app, request

from app.api.context import principal
from app.errors import Invalid
from app.core import idempotency

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"


def replayed(view, *, authorize: Optional[Callable[..., None]] = None,
             secret_fields: Tuple[str, ...] = ()):
    """Replay the first 2xx response for a repeated key; a failed first attempt frees the key
    (``@needs(idempotent=True)``, app.api.needs).

    Authorization comes before any replay, so a replay never answers someone the route would
    refuse now: the credential's scopes are checked before every view (developer gate), the
    caller's role in the route's group by ``@needs(role=...)`` around this wrapper (someone
    demoted or removed since gets 403/404, never their old 201). ``authorize(**kwargs)`` is
    the check of a route whose right lives elsewhere (a chat draft's group, the admin claim):
    it runs before any replay too, and raises 403/404.

    ``secret_fields`` are dropped from the stored reply (a token's secret exists only in
    its first reply): a replay returns the rest, with the first status."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return view(*args, **kwargs)
        if authorize is not None:
            authorize(**kwargs)
        if not 1 <= len(key) <= 128 or not key.isprintable():
            raise Invalid("Idempotency-Key must be 1-128 printable characters.",
                          details={HEADER: ["Invalid length or characters."]})
        credential = principal().credential_id
        fingerprint = idempotency.request_hash(request.method, request.path,
                                               request.get_data(cache=True))
        caller = principal()
        outcome = idempotency.once(
            credential, key, fingerprint,
            owner=None if caller.kind == "link" else caller.user_id,
            run=lambda: current_app.make_response(view(*args, **kwargs)),
            kept=lambda response: _kept(response, secret_fields))
        if isinstance(outcome, idempotency.Replay):
            outcome = current_app.response_class(outcome.body, status=outcome.status,
                                                 mimetype="application/json")
            outcome.headers[REPLAYED] = "true"
        return outcome

    return wrapper


def _kept(response, secret_fields: Tuple[str, ...]) -> Optional[Tuple[int, str]]:
    """What a 2xx reply leaves for replays (its status, its body without ``secret_fields``);
    any other reply leaves nothing, so the key is free again."""
    if not 200 <= response.status_code < 300:
        return None
    return response.status_code, _stored_body(response, secret_fields)


def _stored_body(response, secret_fields: Tuple[str, ...]) -> str:
    """The reply as it is kept for replays: without ``secret_fields``."""
    if not secret_fields:
        return response.get_data(as_text=True)
    body = response.get_json()
    return json.dumps({name: value for name, value in body.items() if name not in secret_fields},
                      separators=(",", ":"))
