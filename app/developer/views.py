"""Developer API: /developer/tokens and /users/me/usage."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.api.context import principal
from app.developer.gate import runtime
from app.api.needs import needs
from app.api.spec import Blueprint, errors
from app.errors import Invalid
from app.developer.schemas import (TokenCreatedSchema, TokenCreateSchema, TokenListSchema,
                                   UsageArgsSchema, UsageSchema)
from app.developer import tokens, usage

blp = Blueprint("developer", __name__, description="Personal access tokens and their usage")

PAT_REFUSED = (403, "Personal access tokens cannot manage tokens (details.reason PAT_NOT_ALLOWED).")
DEFAULT_USAGE_DAYS = 30


@blp.route("/developer/tokens", methods=["POST"])
@needs(idempotent=True, secret_fields=("token",))
@blp.arguments(TokenCreateSchema)
@blp.response(201, TokenCreatedSchema)
@errors(blp, PAT_REFUSED)
def create_token(body):
    """Mint a personal access token; ``token`` (the secret) is in this reply only.

    At most 50 live (neither revoked nor expired) tokens per account: 403 TOO_MANY_TOKENS.
    With an Idempotency-Key, a replay answers the same status and the token's metadata
    *without* ``token``: the secret is never stored, so it cannot be shown again."""
    return tokens.create_token(principal().user_id, name=body["name"],
                               scopes=list(dict.fromkeys(body["scopes"])),
                               expires_in_days=body["expiresInDays"])


@blp.route("/developer/tokens")
@needs()
@blp.response(200, TokenListSchema)
@errors(blp, PAT_REFUSED)
def list_tokens():
    """The caller's tokens, newest first; never a secret or its hash."""
    return {"items": tokens.list_tokens(principal().user_id), "nextCursor": None}


@blp.route("/developer/tokens/<uuid:tokenId>", methods=["DELETE"])
@needs()
@blp.response(204)
@errors(blp, PAT_REFUSED, (404, "No such token of the caller."))
def revoke_token(token_id):
    """Revoke: the token is refused from the next request (other instances: within 5 s)."""
    tokens.revoke_token(principal().user_id, str(token_id))
    runtime().verifier.evict(str(token_id))


@blp.route("/users/me/usage")
@needs()
@blp.arguments(UsageArgsSchema, location="query")
@blp.response(200, UsageSchema)
@errors(blp, PAT_REFUSED)
def my_usage(args):
    """Daily developer usage per token (``from``/``to`` inclusive, default the last 30 days)."""
    today = datetime.now(timezone.utc).date()
    last = args.get("to") or today
    try:
        first = args.get("from_") or (last - timedelta(days=DEFAULT_USAGE_DAYS - 1))
    except OverflowError:  # `to` in year 1: no 30-day window before it (found by the fuzz)
        raise Invalid("`to` is too early for a default window; send `from` too.",
                      details={"to": ["Too early for the default 30-day window."]}) from None
    return {"items": usage.list_usage(principal().user_id, first, last)}
