"""Atomic signup: a profile and its identity rows appear together or not at all.

Used by the Cognito PostConfirmation/PostAuthentication trigger and by local mode's
``POST /dev/tokens``. Every path is safe to replay."""
from __future__ import annotations

import json
import logging
from typing import List, Optional


from app import names
from app.core.i18n import canonical
from app.errors import Conflict, account_deleting
from app.users.errors import identity_linked, provisioning_race
from app.logs import logger
from app.core.clock import new_id, now_iso
from app.core.conditional import update_if
from app.core.transactions import Transaction
from models.identities import Identity
from models.users import Profile

log = logging.getLogger(__name__)

# Cognito's providerName -> our lowercase provider token.
_PROVIDERS = {"google": "google", "signinwithapple": "apple", "facebook": "facebook",
              "loginwithamazon": "amazon"}
_ATTEMPTS = 3


def upstream_identities(identities_attribute: Optional[str]) -> List[tuple]:
    """(provider, subject) pairs from Cognito's ``identities`` user attribute (a JSON string)."""
    if not identities_attribute:
        return []
    try:
        entries = json.loads(identities_attribute)
    except (TypeError, ValueError):
        log.warning("provisioning.identities_unparseable")
        return []
    pairs = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        name, subject = entry.get("providerName"), entry.get("userId")
        if isinstance(name, str) and isinstance(subject, str) and name and subject:
            pairs.append((_PROVIDERS.get(name.lower(), name.lower()), subject))
    return pairs


def is_test_email(email: str, test_domain: str) -> bool:
    return email.strip().lower().endswith("@" + test_domain.lower())


def provision_user(*, provider: str, subject: str, email: str, display_name: Optional[str],
                   identities_attribute: Optional[str] = None, test_domain: str,
                   email_verified: bool = True, locale: Optional[str] = None) -> str:
    """The UserId for this sign-in, creating the account on first sight (idempotent); a new
    account reads in ``locale`` (a supported tag: the sign-up's language) until it sets one."""
    request_key = Identity.key(provider, subject)
    anchors = [Identity.key(p, s) for p, s in upstream_identities(identities_attribute)]
    for _ in range(_ATTEMPTS):
        known = _user_of(request_key)
        if known:
            return known
        anchored = next(filter(None, (_user_of(key, verified_only=True) for key in anchors)),
                        None)
        if anchored:
            if _link(request_key, provider, subject, anchored):
                return anchored
            continue
        user_id = new_id()
        if _create_account(user_id, request_key, provider, subject, anchors, email,
                           display_name, test_domain, email_verified, locale):
            return user_id
    raise provisioning_race()


def _user_of(identity_key: str, verified_only: bool = False) -> Optional[str]:
    try:
        row = Identity.get(identity_key, consistent_read=True)
    except Identity.DoesNotExist:
        return None
    if verified_only and row.Verified is False:
        return None  # hand-linked, never vouched for by the IdP: it must not capture a sign-in
    if row.Deleting:
        # No sign-in (nor a new pool subject linked to it) while the account is being deleted.
        raise account_deleting()
    return row.UserId


def _identity_row(key: str, user_id: str, created_at: str) -> Identity:
    provider, _, subject = key.partition("#")
    return Identity(key, UserId=user_id, Provider=provider, Subject=subject, CreatedAt=created_at,
                    Verified=True)


def _link(identity_key: str, provider: str, subject: str, user_id: str) -> bool:
    """A returning human with a new pool subject: add only the request-time mapping."""
    # False: a concurrent replay linked it first; the caller re-reads. The account must be
    # live when the row lands (a deletion begun since the read refuses it: 401).
    raced = identity_linked("Identity already linked.")
    try:
        (Transaction().require_live_account(user_id)
         .put(_identity_row(identity_key, user_id, now_iso()),
              condition=Identity.IdentityKey.does_not_exist(), on_fail=raced).commit())
    except Conflict as error:
        if error is not raced:
            raise
        return False
    return True


def _create_account(user_id: str, request_key: str, provider: str, subject: str,
                    anchors: List[str], email: str, display_name: Optional[str],
                    test_domain: str, email_verified: bool = True,
                    locale: Optional[str] = None) -> bool:
    now = now_iso()
    email = email.strip()
    profile = Profile(*Profile.key(user_id), Email=email,
                      DisplayName=(names.clean(display_name) or email.split("@")[0]
                                   or "New user")[:100],
                      CreatedAt=now, UpdatedAt=now, Discoverable=False,
                      EmailVerified=bool(email_verified), Locale=canonical(locale or ""))
    if is_test_email(email, test_domain):
        profile.IsTestAccount = True  # omitted entirely for real users
    tx = Transaction()
    raced = identity_linked("Identity already linked.")
    tx.put(profile, condition=Profile.UserId.does_not_exist())
    tx.put(_identity_row(request_key, user_id, now),
           condition=Identity.IdentityKey.does_not_exist(), on_fail=raced)
    for key in anchors:
        # A hand-linked (unverified) claim on this anchor is replaced by the real owner.
        tx.put(_identity_row(key, user_id, now),
               condition=Identity.IdentityKey.does_not_exist() | (Identity.Verified == False),  # noqa: E712
               on_fail=raced)
    try:
        tx.commit()
        return True
    except Conflict:
        return False  # someone provisioned one of these identities first; re-read and link


def record_email_verified(user_id: str, email: str, verified: bool) -> bool:
    """Bring the profile's EmailVerified to what the identity provider says now (True when it
    changed): accounts provisioned before the flag existed have none, and an address verified
    after sign-up reads False until then. One conditional UpdateItem (1 WRU), written only
    when the flag differs, the address is the profile's own (a claim about another address
    vouches for nothing here) and the account is live."""
    profile = Profile(*Profile.key(user_id))
    differs = (Profile.EmailVerified.does_not_exist()
               | (Profile.EmailVerified != bool(verified)))
    return update_if(profile, [Profile.EmailVerified.set(bool(verified))],
                     Profile.live_condition() & (Profile.Email == email.strip()) & differs)


SIGN_IN = "PostAuthentication_Authentication"
COGNITO_TRIGGERS = ("PostConfirmation_ConfirmSignUp", "PostConfirmation_ConfirmForgotPassword",
                    SIGN_IN)


def provision_from_cognito(event: dict, *, test_domain: str) -> dict:
    """Make sure a Cognito trigger's user exists; Cognito requires the event back.

    Provisioning is idempotent, so a replayed trigger is harmless."""
    if event.get("triggerSource") in COGNITO_TRIGGERS:
        attributes = event["request"]["userAttributes"]
        verified = str(attributes.get("email_verified", "")).lower() == "true"
        user_id = provision_user(
            provider="cognito", subject=attributes["sub"], email=attributes.get("email", ""),
            display_name=attributes.get("name") or attributes.get("preferred_username"),
            identities_attribute=attributes.get("identities"), test_domain=test_domain,
            email_verified=verified,
            locale=attributes.get("locale"))  # Cognito's standard attribute, when set
        if event["triggerSource"] == SIGN_IN and attributes.get("email"):
            # The backfill: an existing account's flag follows the IdP's at each sign-in
            # (a new account was just written with it; only the sign-in trigger writes here).
            record_email_verified(user_id, attributes["email"], verified)
        logger.info("provisioning.done", extra={"user_id": user_id,
                                                "trigger": event["triggerSource"]})
    return event
