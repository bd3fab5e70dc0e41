"""Domain errors raised by services; one HTTP error handler maps them to the API envelope."""
from __future__ import annotations

from typing import Any, Mapping, Optional


class DomainError(Exception):
    """Base for every error a service may raise on purpose."""

    status = 400
    code = "BAD_REQUEST"

    def __init__(self, message: str, *, code: Optional[str] = None,
                 details: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details = dict(details or {})


class Invalid(DomainError):
    """The request is well-formed JSON but breaks a rule (400 VALIDATION_ERROR)."""

    status = 400
    code = "VALIDATION_ERROR"


class Unauthenticated(DomainError):
    """No credential, or one we cannot verify (401)."""

    status = 401
    code = "UNAUTHENTICATED"


class Forbidden(DomainError):
    """The caller is known but their role is too low (403)."""

    status = 403
    code = "FORBIDDEN"


class NotFound(DomainError):
    """Absent, or not visible to this caller (404: no existence leak)."""

    status = 404
    code = "NOT_FOUND"


class Conflict(DomainError):
    """The current state forbids the change (409 with a specific code)."""

    status = 409
    code = "CONFLICT"


class Unprocessable(DomainError):
    """Understood but refused, e.g. an idempotency key reused with another body (422)."""

    status = 422
    code = "UNPROCESSABLE"


class RateLimited(DomainError):
    """Over a budget (429 with Retry-After)."""

    status = 429
    code = "RATE_LIMITED"

    def __init__(self, message: str, *, retry_after: int = 60, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class TooLarge(DomainError):
    """The data is larger than we can take or store (413)."""

    status = 413
    code = "PAYLOAD_TOO_LARGE"


class UnsupportedMediaType(DomainError):
    """A body in a media type the route does not read, e.g. not JSON (415)."""

    status = 415
    code = "UNSUPPORTED_MEDIA_TYPE"


# --- The catalogue: every error a service raises by name, its code and message written once ---
# An area's own errors go in app/<area>/errors.py; here the ones several areas raise or tell
# apart, then the sections of areas whose errors have not moved to their folder yet. A named
# class is an error some code tells apart (``isinstance``), not only answers with.

class ConcurrentUpdate(Conflict):
    """Another writer got there first; retrying the same request is safe."""

    code = "CONCURRENT_UPDATE"


class VersionConflict(Conflict):
    """A write conditioned on a version (or revision) the data no longer has."""

    code = "VERSION_CONFLICT"


class DuplicateEvent(Conflict):
    """The outbox already holds this change's event: the change was recorded before."""

    code = "DUPLICATE_EVENT"


class LastOwner(Conflict):
    code = "LAST_OWNER"


class NotPending(Conflict):
    code = "NOT_PENDING"


class ParticipantUnavailable(Conflict):
    code = "PARTICIPANT_UNAVAILABLE"


class SoleOwner(Conflict):
    code = "SOLE_OWNER"


class IdempotencyKeyReused(Unprocessable):
    code = "IDEMPOTENCY_KEY_REUSED"


class IdempotencyInProgress(Conflict):
    code = "IDEMPOTENCY_IN_PROGRESS"


def not_found(what: str) -> NotFound:
    """``what`` is absent or invisible to the caller ("Group", "Expense", ...)."""
    return NotFound(f"{what} not found.")


def group_not_found() -> NotFound:
    return not_found("Group")


def invite_not_found() -> NotFound:
    return NotFound("No invite with this code.")


def web_push_disabled() -> NotFound:
    return NotFound("This deployment sends no Web Push (no VAPID key is configured).",
                    code="WEB_PUSH_DISABLED")


def version_conflict(what: str, current_version: Optional[int] = None) -> Conflict:
    """A write conditioned on a version the row no longer has; ``details`` says the current one."""
    details = {"currentVersion": current_version} if current_version is not None else None
    return VersionConflict(f"The {what} changed since you read it; reload and try again.",
                           details=details)


def concurrent_update(message: str = "The data changed while we were writing; try again.") -> Conflict:
    """Another writer got there first; retrying the same request is safe."""
    return ConcurrentUpdate(message)


def duplicate_event() -> DuplicateEvent:
    return DuplicateEvent("This change was already recorded.")


def idempotency_key_reused() -> IdempotencyKeyReused:
    return IdempotencyKeyReused("This Idempotency-Key was used with a different request.")


def idempotency_in_progress() -> IdempotencyInProgress:
    return IdempotencyInProgress("A request with this Idempotency-Key is still in progress.")


def id_collision() -> Conflict:
    return concurrent_update("Id collision; try again.")


def participant_changed() -> Conflict:
    return concurrent_update("The participant changed meanwhile; reload and try again.")


def last_owner() -> Conflict:
    return LastOwner("A group needs at least one owner; make someone else an owner first.")


def currency_locked() -> Conflict:
    return Conflict("The currency is fixed once the group has an expense or settlement.",
                    code="CURRENCY_LOCKED")


def participant_unavailable(participant_id: str) -> Conflict:
    return ParticipantUnavailable("A participant does not exist in this group or is being "
                                  "transferred.", details={"participantId": participant_id})


def transfer_in_progress(message: str = "This participant is being transferred; "
                                        "let the transfer finish.") -> Conflict:
    """A participant transfer holds the participant (as its source or its target)."""
    return Conflict(message, code="TRANSFER_IN_PROGRESS")


def already_member(who: str = "You are") -> Conflict:
    return Conflict(f"{who} already a participant of this group.", code="ALREADY_MEMBER")


def request_pending() -> Conflict:
    return Conflict("A request to join this group is already pending; cancel it first.",
                    code="REQUEST_PENDING")


def not_pending() -> Conflict:
    return NotPending("The request is no longer pending.")


def target_not_guest() -> Conflict:
    return Conflict("The participant is no longer a guest anyone can claim.",
                    code="TARGET_NOT_GUEST")


def group_full(limit: int) -> Conflict:
    return Conflict(f"A group holds at most {limit} participants; remove someone first.",
                    code="GROUP_FULL", details={"maxParticipants": limit})


def needs_owner() -> Forbidden:
    return Forbidden("This needs the OWNER role in the group.")


# --- People: handles, friends, direct invitations -------------------------------------------

def handle_taken() -> Conflict:
    return Conflict("That handle belongs to someone else.", code="HANDLE_TAKEN")


def handle_reserved() -> Invalid:
    return Invalid("That handle is reserved.", details={"handle": ["This handle is reserved."]})


def friend_request_pending() -> Conflict:
    return Conflict("A friend request between you is already pending.",
                    code="FRIEND_REQUEST_PENDING")


def already_friends() -> Conflict:
    return Conflict("You are already friends.", code="ALREADY_FRIENDS")


def not_yourself(field: str = "userId") -> Invalid:
    return Invalid("You cannot do this to yourself.", details={field: ["Must not be you."]})


def invitation_pending() -> Conflict:
    return Conflict("This user already has a pending invitation to the group.",
                    code="INVITATION_PENDING")


def invitation_expired() -> Conflict:
    return Conflict("The invitation has expired.", code="INVITATION_EXPIRED")


def invitation_changed() -> Conflict:
    """The invitation or its reserved guest slot changed; nothing was claimed."""
    return Conflict("The invitation or its reserved place in the group changed; "
                    "ask for a new invitation.", code="INVITATION_CHANGED")


def guest_unavailable() -> Conflict:
    return Conflict("That guest is claimed, reserved for someone else or being transferred.",
                    code="TARGET_NOT_GUEST")


# --- Reminders -------------------------------------------------------------------------------

def nothing_owed() -> Conflict:
    """The target is a guest, or pays the caller nothing in the group's settle-up plan."""
    return Conflict("This participant owes you nothing in the group's settle-up plan (or is "
                    "a guest, who can't be reminded).", code="NOTHING_OWED")


def reminder_too_soon(retry_after: int) -> RateLimited:
    return RateLimited("You reminded this person in this group less than 24 hours ago.",
                       code="REMINDER_TOO_SOON", retry_after=max(1, retry_after))


# --- Account deletion -------------------------------------------------------------------------

def sole_owner(groups: list) -> Conflict:
    """The caller is the only OWNER of groups other users are in; ``groups`` lists them."""
    return SoleOwner("You are the only owner of groups other people use; make someone else an "
                     "owner (or remove them) first.", details={"groups": groups})


def account_deleting() -> Unauthenticated:
    return Unauthenticated("This account has been deleted.")
# --- MCP connector (OAuth 2.1) -----------------------------------------------------------------

class OAuthError(DomainError):
    """An OAuth protocol error, answered as RFC 6749 §5.2 says (``{"error", "error_description"}``),
    not in the API envelope: OAuth clients parse ``error`` as a string."""

    status = 400

    def __init__(self, error: str, description: str, *, status: int = 400) -> None:
        super().__init__(description, code=error.upper())
        self.error = error
        self.status = status


def oauth_rate_limited(error: RateLimited) -> OAuthError:
    """A 429 on an OAuth endpoint, in RFC 6749's shape (the code the MCP SDKs use) with the
    limit's Retry-After."""
    refused = OAuthError("too_many_requests", error.message, status=429)
    refused.retry_after = error.retry_after
    return refused


def oauth_invalid_grant(why: str = "The code or refresh token is invalid, expired or used.") -> OAuthError:
    return OAuthError("invalid_grant", why)


def oauth_invalid_request(why: str) -> OAuthError:
    return OAuthError("invalid_request", why)


def oauth_invalid_client(why: str = "Unknown client.") -> OAuthError:
    return OAuthError("invalid_client", why, status=401)


def oauth_unsupported_grant_type() -> OAuthError:
    return OAuthError("unsupported_grant_type",
                      "Only authorization_code and refresh_token are supported.")


def oauth_invalid_client_metadata(why: str) -> OAuthError:
    return OAuthError("invalid_client_metadata", why)


def oauth_invalid_redirect_uri(why: str) -> OAuthError:
    return OAuthError("invalid_redirect_uri", why)


def mcp_token_invalid(why: str = "The MCP access token is invalid or expired.") -> Unauthenticated:
    return Unauthenticated(why)


def mcp_connection_revoked() -> Unauthenticated:
    return Unauthenticated("This connection was disconnected or is not active; connect again.")


def authorization_request_expired() -> Conflict:
    return Conflict("The authorization request expired or was already answered; start again "
                    "from the assistant.", code="AUTHORIZATION_EXPIRED")


# --- Expense chat assistant ---

class PaymentRequired(DomainError):
    """Out of a budget that only more credit buys (402)."""

    status = 402
    code = "PAYMENT_REQUIRED"


def draft_confirmed(expense_id: Optional[str] = None) -> Conflict:
    """The draft was saved already: a replay never creates a second expense."""
    details = {"expenseId": expense_id} if expense_id else None
    return Conflict("This draft was already confirmed.", code="DRAFT_CONFIRMED",
                    details=details)


def draft_discarded() -> Conflict:
    return Conflict("This draft was discarded.", code="DRAFT_DISCARDED")


def draft_incomplete(questions: list) -> Conflict:
    return Conflict("This draft is not a valid expense yet; answer its questions first.",
                    code="DRAFT_INCOMPLETE", details={"questions": questions})


def chat_session_full(limit: int) -> Conflict:
    return Conflict(f"A chat session holds at most {limit} messages; start a new one.",
                    code="CHAT_SESSION_FULL", details={"limit": limit})


# --- Currencies -------------------------------------------------------------------------------

def rate_unavailable(base: str, quote: str, date: str) -> Unprocessable:
    """No reference rate is known for this pair on or before this day: the client sends one."""
    return Unprocessable(f"No reference rate from {base} to {quote} is known for {date}.",
                         code="RATE_UNAVAILABLE",
                         details={"currency": base, "groupCurrency": quote, "date": date,
                                  "hint": "Send exchangeRate (a decimal string) or groupAmount."})

