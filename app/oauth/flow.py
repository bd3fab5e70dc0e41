"""The authorization half of the grant chain: request -> approval (pending grant) -> code.

1. :func:`start` validates the client and exact redirect URI first (a failure there is
   ``ClientRefused``: the caller shows an error page, never redirects), then the protocol
   parameters (a failure is ``RedirectableError``: sent back to the redirect URI), and stores
   an unapproved request that expires in ten minutes.
2. :func:`approve` consumes that request (it must exist and be unexpired: checked by the
   condition, not by TTL) and creates a PENDING grant, in one transaction.
3. :func:`issue_code` consumes the approval (CodeIssued set once on the still-PENDING grant)
   and writes the code-hash claim plus its cleanup pointer, in one transaction.

Why not Authlib's AuthorizationServer here: its authorization-code grant saves and reads one
code object per HTTP request, while our chain spans several requests (sign-in, consent) with
conditional multi-row transactions at each step, and it has no Client ID Metadata Documents.
We use its pieces instead (PKCE S256, client metadata claims, scope helpers, token generation)."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Iterable, Optional

from pynamodb.expressions.condition import Condition

from app.errors import OAuthError, concurrent_update
from app.oauth.errors import authorization_request_expired
from app.core.clock import epoch, now_iso
from app.core.transactions import Transaction
from app.oauth import clients, secrets
from models.users import McpAuthRequest, McpCleanupPointer, McpCodeClaim, McpGrant

REQUEST_TTL_S = 600
CODE_TTL_S = 60
SCOPES = ("groups:read", "expenses:write", "settlements:write")
PENDING, ACTIVE, REVOKED = "PENDING", "ACTIVE", "REVOKED"
MAX_STATE = 500
MAX_CHALLENGE = 128
# RFC 6749 §4.1.2.1: the only errors sent back to the (verified) redirect URI; any other
# refusal (invalid_target of RFC 8707, whose registration names no authorization-code
# response) is an error page, so the authorization endpoint redirects no more than it must.
REDIRECTABLE = frozenset({"invalid_request", "unauthorized_client", "access_denied",
                          "unsupported_response_type", "invalid_scope", "server_error",
                          "temporarily_unavailable"})


def scopes_of(text: Optional[str]) -> Optional[list]:
    """A scope parameter as a list (None for none): Authlib's reading of RFC 6749 §3.3."""
    # Imported on use: authlib.oauth2 loads its whole server, a cost no cold start should pay.
    from authlib.oauth2.rfc6749.util import scope_to_list

    return scope_to_list(text)


def scope_text(scopes: Iterable[str]) -> str:
    """Scopes as one space-separated parameter (Authlib's list_to_scope)."""
    from authlib.oauth2.rfc6749.util import list_to_scope

    return list_to_scope(scopes)


class ClientRefused(Exception):
    """The client or redirect URI cannot be trusted: show a page, never redirect."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RedirectableError(Exception):
    """A protocol error the client hears about at its (verified) redirect URI."""

    def __init__(self, error: str, description: str, redirect_uri: str,
                 state: Optional[str]) -> None:
        super().__init__(description)
        self.error, self.description = error, description
        self.redirect_uri, self.state = redirect_uri, state


@dataclass(frozen=True)
class PendingRequest:
    request_id: str
    client_id: str
    client_name: str
    redirect_uri: str
    scopes: tuple
    state: Optional[str]
    resource: str
    code_challenge: str = ""


def start(params: dict, *, resource: str, allow_private: bool,
          repeated: Iterable[str] = ()) -> PendingRequest:
    """Validate GET /oauth/authorize and store the unapproved request.

    ``repeated`` names the parameters the query sent more than once (RFC 6749 §3.1 forbids
    it): a repeated client_id or redirect_uri leaves the redirect target ambiguous, so it is
    a page; any other is invalid_request."""
    repeated = set(repeated)
    if repeated & {"client_id", "redirect_uri"}:
        raise ClientRefused("client_id and redirect_uri may be sent only once.")
    client_id = params.get("client_id") or ""
    try:
        client = clients.resolve(client_id, allow_private=allow_private)
    except OAuthError as error:
        raise ClientRefused(error.message) from None
    redirect_uri = params.get("redirect_uri") or ""
    # Strict here too: a client registered before the strict parser may hold a URI that a
    # browser reads differently (app.core.urls).
    if redirect_uri not in client.redirect_uris or not clients.valid_redirect_uri(redirect_uri):
        raise ClientRefused("The redirect_uri is not one this client registered.")
    state = params.get("state")

    def refuse(error: str, description: str) -> Exception:
        if error not in REDIRECTABLE:  # not an authorization-code error response: a page
            return ClientRefused(description)
        return RedirectableError(error, description, redirect_uri, state)

    if repeated:
        raise refuse("invalid_request", f"{', '.join(sorted(repeated))} sent more than once.")

    if state is not None and len(state) > MAX_STATE:
        raise refuse("invalid_request", "state is too long.")
    if params.get("response_type") != "code":
        raise refuse("unsupported_response_type", "Only response_type=code is supported.")
    challenge = params.get("code_challenge") or ""
    if not challenge or params.get("code_challenge_method") != "S256":
        raise refuse("invalid_request", "PKCE is required: code_challenge with "
                                        "code_challenge_method=S256.")
    if not 43 <= len(challenge) <= MAX_CHALLENGE:
        raise refuse("invalid_request", "code_challenge must be an S256 challenge.")
    # RFC 8707: a client that names a resource must name ours (absent means ours too).
    if params.get("resource", resource) != resource:
        raise refuse("invalid_target", f"The only resource here is {resource}.")
    requested = scopes_of(params.get("scope")) or list(SCOPES)
    if not set(requested) <= set(SCOPES):
        raise refuse("invalid_scope", f"Scopes are {' '.join(SCOPES)}.")
    scopes = tuple(s for s in SCOPES if s in requested)
    request_id = str(uuid.uuid4())
    McpAuthRequest(*McpAuthRequest.key(request_id), ClientId=client.client_id,
                   ClientName=client.client_name, RedirectUri=redirect_uri,
                   CodeChallenge=challenge, Scopes=scope_text(scopes), Resource=resource,
                   State=state, CreatedAt=now_iso(), ExpiresAt=epoch() + REQUEST_TTL_S).save()
    return PendingRequest(request_id, client.client_id, client.client_name, redirect_uri,
                          scopes, state, resource, challenge)


def pending(request_id: str) -> PendingRequest:
    """An unexpired, unanswered request (strongly consistent; TTL is not authorization)."""
    try:
        uuid.UUID(request_id)
        row = McpAuthRequest.get(*McpAuthRequest.key(request_id), consistent_read=True)
    except (ValueError, TypeError, McpAuthRequest.DoesNotExist):
        raise authorization_request_expired() from None
    if (row.ExpiresAt or 0) <= epoch():
        raise authorization_request_expired()
    return PendingRequest(request_id, row.ClientId, row.ClientName, row.RedirectUri,
                          tuple(scopes_of(row.Scopes)), row.State, row.Resource,
                          row.CodeChallenge)


def _request_live(_request_id: str) -> Condition:
    return (McpAuthRequest.UserId.exists()) & (McpAuthRequest.ExpiresAt > epoch())


def deny(request: PendingRequest) -> None:
    """Consume the request without a grant (the user said no)."""
    Transaction().delete(McpAuthRequest(*McpAuthRequest.key(request.request_id)),
                         condition=_request_live(request.request_id),
                         on_fail=authorization_request_expired()).commit()


def approve(request: PendingRequest, user_id: str) -> str:
    """Consume the request (read by :func:`pending`; the condition re-checks that it is still
    there and unexpired) and create a PENDING grant; its id."""
    request_id = request.request_id
    grant_id = str(uuid.uuid4())
    grant = McpGrant(*McpGrant.key(user_id, grant_id), GrantId=grant_id, Status=PENDING,
                     Client=request.client_name, ClientId=request.client_id,
                     Scopes=scope_text(request.scopes), Resource=request.resource,
                     CreatedAt=now_iso())
    (Transaction()
     .require_live_account(user_id)
     .delete(McpAuthRequest(*McpAuthRequest.key(request_id)),
             condition=_request_live(request_id), on_fail=authorization_request_expired())
     .put(grant, condition=McpGrant.SK.does_not_exist(), on_fail=concurrent_update())
     .commit())
    return grant_id


def issue_code(request: PendingRequest, user_id: str, grant_id: str) -> str:
    """Consume the approval and write the code-hash claim; the code itself is returned once."""
    code = secrets.new_secret()
    claim = McpCodeClaim(*McpCodeClaim.key(secrets.digest(code)), OwnerUserId=user_id,
                         GrantId=grant_id, ClientId=request.client_id,
                         RedirectUri=request.redirect_uri, CodeChallenge=request.code_challenge,
                         Scopes=scope_text(request.scopes), Resource=request.resource,
                         CreatedAt=now_iso(), ExpiresAt=epoch() + CODE_TTL_S)
    grant = McpGrant(*McpGrant.key(user_id, grant_id))
    (Transaction()
     .require_live_account(user_id)
     .update(grant, [McpGrant.CodeIssued.set(True)],
             condition=(McpGrant.Status == PENDING) & McpGrant.CodeIssued.does_not_exist(),
             on_fail=authorization_request_expired())
     .put(claim, condition=McpCodeClaim.UserId.does_not_exist(), on_fail=concurrent_update())
     .put(McpCleanupPointer.for_target(user_id, grant_id, claim))
     .commit())
    return code
