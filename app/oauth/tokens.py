"""POST /oauth/token and /oauth/revoke: the token half of the grant chain.

Code exchange, in one transaction: the code claim is marked Used (once), the still-PENDING
grant becomes ACTIVE and binds a new token family, and the first refresh hash is written
with its cleanup pointer. Refresh, in one transaction: the presented refresh hash is claimed
(Used, once), the grant must still be ACTIVE with the same family, and the next refresh hash
and pointer are written. A code or refresh token presented again revokes the grant (and so
the whole family: one grant binds one family). Errors are RFC 6749 §5.2 ``OAuthError``s."""
from __future__ import annotations

from typing import Callable, Optional

from app.errors import OAuthError, concurrent_update
from app.oauth.errors import (oauth_invalid_client, oauth_invalid_grant, oauth_invalid_request,
                              oauth_unsupported_grant_type)
from app.core.clock import epoch, now_iso
from app.core.transactions import Transaction
from app.oauth import access_tokens, clients, grants, secrets
from app.oauth.flow import ACTIVE, PENDING, scopes_of
from models.users import McpCleanupPointer, McpCodeClaim, McpGrant, McpRefreshHash

REFRESH_TTL_S = 30 * 24 * 3600
ACCESS_TTL_S = 3600
VERIFIER_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


Spend = Callable[[str], None]  # one request from a client's or grant's rate-limit window


def _unmetered(subject: str) -> None:
    """No rate limit (direct callers: tests, scripts)."""


def token(form: dict, *, resource: str, spend: Spend = _unmetered) -> dict:
    """Dispatch on grant_type; the RFC 6749 §5.1 reply.

    ``spend`` is called once with whose request this is: ``client:<client_id>`` for a code
    exchange (and any refusal before a grant is known), ``grant:<grantId>`` for a refresh,
    so a busy host's many users never share one address's window."""
    grant_type = form.get("grant_type")
    if grant_type == "refresh_token":
        return refresh(form, resource=resource, spend=spend)
    spend(f"client:{form.get('client_id') or '-'}")
    if not grant_type:
        raise oauth_invalid_request("grant_type is required.")
    if grant_type == "authorization_code":
        return exchange_code(form, resource=resource)
    raise oauth_unsupported_grant_type()


def revocation_subject(value: str, client_id: Optional[str]) -> str:
    """Whose window a revocation spends: its client's, else its token's own."""
    return f"client:{client_id}" if client_id else f"token:{secrets.digest(value or '')[:32]}"


def _known_client(client_id: str) -> None:
    """invalid_client (401) for a client_id we never issued, which tells a host to register
    again; metadata-document ids (URLs) are checked where the code or grant binds them."""
    if not clients.is_metadata_url(client_id) and not clients.registered(client_id):
        raise oauth_invalid_client("Unknown client_id: register again.")


def _required(form: dict, *names: str) -> None:
    missing = [n for n in names if not form.get(n)]
    if missing:
        raise oauth_invalid_request(f"Missing {', '.join(missing)}.")


def _check_resource(form: dict, resource: str) -> None:
    if form.get("resource", resource) != resource:
        raise OAuthError("invalid_target", f"The only resource here is {resource}.")


def exchange_code(form: dict, *, resource: str) -> dict:
    _required(form, "code", "code_verifier", "redirect_uri", "client_id")
    _check_resource(form, resource)
    verifier = form["code_verifier"]
    if not 43 <= len(verifier) <= 128 or not set(verifier) <= VERIFIER_CHARS:
        raise oauth_invalid_request("code_verifier must be 43-128 unreserved characters.")
    try:
        claim = McpCodeClaim.get(*McpCodeClaim.key(secrets.digest(form["code"])),
                                 consistent_read=True)
    except McpCodeClaim.DoesNotExist:
        _known_client(form["client_id"])
        raise oauth_invalid_grant() from None
    if claim.ClientId != form["client_id"]:
        _known_client(form["client_id"])
    if claim.Used:  # RFC 6749 §4.1.2: a replayed code revokes what it granted
        grants.revoke(claim.OwnerUserId, claim.GrantId)
        raise oauth_invalid_grant()
    if (claim.ExpiresAt or 0) <= epoch() or claim.ClientId != form["client_id"] \
            or claim.RedirectUri != form["redirect_uri"] or claim.Resource != resource:
        raise oauth_invalid_grant()
    if not secrets.same(secrets.s256_challenge(verifier), claim.CodeChallenge):
        raise oauth_invalid_grant("PKCE verification failed.")
    family_id = secrets.new_secret()[:22]
    grant = McpGrant(*McpGrant.key(claim.OwnerUserId, claim.GrantId))
    refresh_token, row = _new_refresh(claim.OwnerUserId, claim.GrantId, family_id,
                                      claim.ClientId, claim.Scopes, claim.Resource)
    now = now_iso()
    (Transaction()
     .require_live_account(claim.OwnerUserId, on_fail=oauth_invalid_grant())
     .update(McpCodeClaim(claim.UserId, claim.SK), [McpCodeClaim.Used.set(True)],
             condition=McpCodeClaim.UserId.exists() & McpCodeClaim.Used.does_not_exist(),
             on_fail=oauth_invalid_grant())
     .update(grant, [McpGrant.Status.set(ACTIVE), McpGrant.FamilyId.set(family_id),
                     McpGrant.LastUsedAt.set(now), McpGrant.UpdatedAt.set(now)],
             condition=(McpGrant.Status == PENDING) & McpGrant.FamilyId.does_not_exist(),
             on_fail=oauth_invalid_grant("The connection was revoked."))
     .put(row, condition=McpRefreshHash.UserId.does_not_exist(), on_fail=concurrent_update())
     .put(McpCleanupPointer.for_target(claim.OwnerUserId, claim.GrantId, row))
     .commit())
    access_tokens.forget_grant(claim.OwnerUserId, claim.GrantId)
    return _reply(claim.OwnerUserId, claim.GrantId, claim.Scopes, claim.Resource,
                  claim.ClientId, refresh_token)


def refresh(form: dict, *, resource: str, spend: Spend = _unmetered) -> dict:
    if not form.get("refresh_token"):
        spend(f"client:{form.get('client_id') or '-'}")
    _required(form, "refresh_token")
    key = McpRefreshHash.key(secrets.digest(form["refresh_token"]))
    try:
        row = McpRefreshHash.get(*key, consistent_read=True)
    except McpRefreshHash.DoesNotExist:
        spend(f"client:{form.get('client_id') or '-'}")
        if form.get("client_id"):
            _known_client(form["client_id"])
        raise oauth_invalid_grant() from None
    spend(f"grant:{row.GrantId}")  # per connection: each user's refreshes stand alone
    _check_resource(form, resource)
    if form.get("client_id", row.ClientId) != row.ClientId:
        _known_client(form["client_id"])
        raise oauth_invalid_grant()
    if row.Used:
        _replayed(row)
    if (row.ExpiresAt or 0) <= epoch():
        raise oauth_invalid_grant()
    scopes = _narrowed(row.Scopes, form.get("scope"))
    try:
        grant = McpGrant.get(*McpGrant.key(row.OwnerUserId, row.GrantId), consistent_read=True)
    except McpGrant.DoesNotExist:
        raise oauth_invalid_grant() from None
    if grant.Status != ACTIVE or grant.FamilyId != row.FamilyId:
        raise oauth_invalid_grant("The connection was revoked.")
    replay = oauth_invalid_grant()  # the claim below lost to another rotation of this token
    new_token, new_row = _new_refresh(row.OwnerUserId, row.GrantId, row.FamilyId, row.ClientId,
                                      row.Scopes, row.Resource)
    now = now_iso()
    try:
        (Transaction()
         .require_live_account(row.OwnerUserId, on_fail=oauth_invalid_grant())
         .update(McpRefreshHash(*key), [McpRefreshHash.Used.set(True)],
                 condition=McpRefreshHash.UserId.exists() & McpRefreshHash.Used.does_not_exist(),
                 on_fail=replay)
         .update(grant, [McpGrant.LastUsedAt.set(now)],
                 condition=(McpGrant.Status == ACTIVE) & (McpGrant.FamilyId == row.FamilyId),
                 on_fail=oauth_invalid_grant("The connection was revoked."))
         .put(new_row, condition=McpRefreshHash.UserId.does_not_exist(),
              on_fail=concurrent_update())
         .put(McpCleanupPointer.for_target(row.OwnerUserId, row.GrantId, new_row))
         .commit())
    except OAuthError as error:
        if error is replay:
            _replayed(row)
        raise
    return _reply(row.OwnerUserId, row.GrantId, scopes, row.Resource, row.ClientId, new_token)


def _replayed(row: McpRefreshHash) -> None:
    """A refresh token used twice: revoke the family (its grant) and refuse."""
    grants.revoke(row.OwnerUserId, row.GrantId)
    raise oauth_invalid_grant("The refresh token was already used; the connection is revoked.")


def _narrowed(granted: str, asked: Optional[str]) -> str:
    if not asked:
        return granted
    if not set(scopes_of(asked)) <= set(scopes_of(granted)):
        raise OAuthError("invalid_scope", "A refresh may only narrow the granted scopes.")
    return asked


def _new_refresh(user_id, grant_id, family_id, client_id, scopes, resource) -> tuple:
    value = secrets.new_secret()
    row = McpRefreshHash(*McpRefreshHash.key(secrets.digest(value)), OwnerUserId=user_id,
                         GrantId=grant_id, FamilyId=family_id, ClientId=client_id,
                         Scopes=scopes, Resource=resource, CreatedAt=now_iso(),
                         ExpiresAt=epoch() + REFRESH_TTL_S)
    return value, row


def _reply(user_id, grant_id, scopes, resource, client_id, refresh_token) -> dict:
    grant_scopes = scopes_of(scopes) or []
    client_name = access_tokens.grant_cache.lookup(user_id, grant_id)[1]
    access = access_tokens.mint_access_token(user_id=user_id, grant_id=grant_id,
                                             scopes=grant_scopes, client_name=client_name,
                                             resource=resource, lifetime_s=ACCESS_TTL_S,
                                             client_id=client_id)
    return {"access_token": access, "token_type": "Bearer", "expires_in": ACCESS_TTL_S,
            "refresh_token": refresh_token, "scope": " ".join(grant_scopes)}


def revoke_token(value: str) -> None:
    """RFC 7009: a refresh or access token of ours revokes its grant; anything else is ignored."""
    if not value or len(value) > 4096:
        return
    try:
        row = McpRefreshHash.get(*McpRefreshHash.key(secrets.digest(value)), consistent_read=True)
        grants.revoke(row.OwnerUserId, row.GrantId)
        return
    except McpRefreshHash.DoesNotExist:
        pass
    try:
        claims = access_tokens.decode(value, resource=None)
    except Exception:  # noqa: BLE001 (not ours, malformed or expired: nothing to revoke)
        return
    grants.revoke(str(claims["sub"]), str(claims["gid"]))
