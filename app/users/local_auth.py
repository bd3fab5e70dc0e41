"""Local mode sign-in: the same provisioning path as the Cognito trigger, then a signed token."""
from __future__ import annotations

from typing import Optional

from app.auth.local_issuer import LocalIssuer, subject_for_email
from app.users.provisioning import provision_user


def local_user(*, email: str, display_name: Optional[str], test_domain: str) -> str:
    """The UserId for a local sign-in (the OAuth consent flow's local sign-in form)."""
    return provision_user(provider="local", subject=subject_for_email(email), email=email,
                          display_name=display_name, test_domain=test_domain)


def mint_token(issuer: LocalIssuer, *, email: str, display_name: Optional[str], admin: bool,
               test_domain: str, locale: Optional[str] = None) -> dict:
    """``{"accessToken", "userId"}``; the same e-mail always maps to the same user, a new one
    reading in ``locale`` (the signing-up browser's language)."""
    subject = subject_for_email(email)
    user_id = provision_user(provider="local", subject=subject, email=email,
                             display_name=display_name, test_domain=test_domain, locale=locale)
    token = issuer.mint(subject, email=email, groups=["admin"] if admin else [])
    return {"accessToken": token, "userId": user_id}
