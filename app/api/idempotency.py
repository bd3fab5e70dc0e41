"""``Idempotency-Key`` support for create routes (POST returning 201)."""
from __future__ import annotations

from functools import wraps

from flask import current_app, request

from app.api.context import group_access, principal
from app.errors import Invalid
from app.services.core import idempotency

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"


def idempotent(view=None, *, group_role=None):
    """Replay the first 2xx response for a repeated key; a failed first attempt frees the key.

    With ``group_role``, the caller must hold that role in the route's group *before* any
    replay: someone who has since lost access gets 404/403, never their old 201."""
    if view is None:
        return lambda inner: idempotent(inner, group_role=group_role)

    @wraps(view)
    def wrapper(*args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return view(*args, **kwargs)
        if group_role is not None:
            group_access(kwargs["group_id"], group_role)
        if not 1 <= len(key) <= 128 or not key.isprintable():
            raise Invalid("Idempotency-Key must be 1-128 printable characters.",
                          details={HEADER: ["Invalid length or characters."]})
        credential = principal().credential_id
        fingerprint = idempotency.request_hash(request.method, request.path,
                                               request.get_data(cache=True))
        replay = idempotency.begin(credential, key, fingerprint, owner=principal().user_id)
        if replay is not None:
            response = current_app.response_class(replay.body, status=replay.status,
                                                   mimetype="application/json")
            response.headers[REPLAYED] = "true"
            return response
        try:
            response = current_app.make_response(view(*args, **kwargs))
        except BaseException:
            idempotency.abandon(credential, key)
            raise
        if 200 <= response.status_code < 300:
            idempotency.complete(credential, key, response.status_code,
                                 response.get_data(as_text=True))
        else:
            idempotency.abandon(credential, key)
        return response

    return wrapper
