"""Profiles, linked identities and the admin user list."""
from __future__ import annotations

from typing import Optional

from app.errors import (Conflict, Invalid, NotFound, account_deleting,
                        concurrent_update)
from app.users.errors import identity_linked
from app.core import paging, request_reads
from app.core.clock import now_iso
from app.core.transactions import Transaction
from app.users import directory_rows, mirror
from app.core.live import LIVE
from models.identities import COGNITO, LOCAL, Identity
from models.users import Profile


def get_profile(user_id: str) -> Profile:
    """The caller's profile; one being deleted answers 401. The request's liveness check
    already read it strongly consistently (request_reads): that read is the answer, so
    GET /users/me makes one DynamoDB call."""
    profile = request_reads.profile_of(user_id)
    if profile is not None:
        if profile.deleting:
            raise account_deleting()
        return profile
    try:
        profile = Profile.get(*Profile.key(user_id))
    except (Profile.DoesNotExist, ValueError):
        raise NotFound("No profile for this account.") from None
    if profile.deleting:
        raise account_deleting()
    return profile


def update_profile(user_id: str, *, display_name: Optional[str] = None,
                   default_currency: Optional[str] = None,
                   locale: Optional[str] = None) -> Profile:
    """Change the profile; a rename is then mirrored onto the caller's USER participants by
    a worker (app.users.mirror), so the reply does not wait for the account's groups."""
    profile = get_profile(user_id)
    now = now_iso()
    actions = [Profile.UpdatedAt.set(now)]
    condition = LIVE  # a rename rewrites the user's directory rows: none once deleting
    tx = Transaction()
    if display_name is not None:
        actions += [Profile.DisplayName.set(display_name), Profile.NameVersion.add(1)]
        # The directory rows follow the name in the same transaction, derived from the
        # handle and opt-in read here, which the condition pins.
        condition &= directory_rows.profile_condition(profile)
        directory_rows.rename_in_directory(tx, profile, display_name)
    if default_currency is not None:
        actions.append(Profile.DefaultCurrency.set(default_currency))
    if locale is not None:
        actions.append(Profile.Locale.set(locale))
    gone = NotFound("No profile for this account.")
    changed = gone if display_name is None else concurrent_update(
        "The profile changed meanwhile; try again.")
    tx.update(Profile(*Profile.key(user_id)), actions, condition=condition,
              on_fail=lambda old: (gone if not old else account_deleting()
                                   if old.get("Status") else changed))
    tx.commit()
    profile.UpdatedAt = now
    if display_name is not None:
        profile.DisplayName = display_name
        profile.NameVersion = (profile.NameVersion or 0) + 1
    if default_currency is not None:
        profile.DefaultCurrency = default_currency
    if locale is not None:
        profile.Locale = locale
    if display_name is not None:
        mirror.mirror_later(user_id)
    return profile


SIGN_IN_PROVIDERS = (COGNITO, LOCAL)


def list_identities(user_id: str) -> list:
    return list(Identity.for_user(user_id))


def link_identity(user_id: str, provider: str, subject: str) -> Identity:
    """Link (provider, subject) to this user, unverified; linked to anyone else -> 409.

    Nothing proves the caller owns the identity, so the row is marked unverified: it never
    grants sign-in, and the identity's real owner signing in replaces it. Request-time
    identities (cognito, local) are created only by signing in."""
    if provider in SIGN_IN_PROVIDERS:
        raise Invalid(f"{provider} identities are linked by signing in, not by this route.",
                      details={"provider": [f"{provider} cannot be linked by hand."]})
    key = Identity.key(provider, subject)
    row = Identity(key, UserId=user_id, Provider=provider.lower(), Subject=subject,
                   CreatedAt=now_iso(), Verified=False)
    taken = identity_linked("That identity is linked already.")
    try:
        (Transaction().require_live_account(user_id)
         .put(row, condition=Identity.IdentityKey.does_not_exist(), on_fail=taken).commit())
        return row
    except Conflict as error:
        if error is not taken:
            raise
    existing = Identity.get(key, consistent_read=True)
    if existing.UserId != user_id:
        raise identity_linked() from None
    return existing


def list_users(*, include_test_accounts: bool, limit: Optional[int], cursor: Optional[str],
               scope: str) -> paging.Page:
    """Admin list of profiles; test accounts (IsTestAccount, stamped at provisioning) hidden
    unless asked for."""
    condition = None if include_test_accounts else Profile.IsTestAccount.does_not_exist()
    rows = Profile.scan(condition, limit=paging.clamp_limit(limit),
                        last_evaluated_key=paging.decode(cursor, scope))
    return paging.page_of(rows, scope)
