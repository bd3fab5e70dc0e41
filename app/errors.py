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
# An area's own errors go in app/<area>/errors.py; here only the ones the kernel or several
# areas raise or tell apart (tests/platform/test_declared_once.py checks each has such users).
# A named class is an error some code tells apart (``isinstance``), not only answers with.

class ConcurrentUpdate(Conflict):
    """Another writer got there first; retrying the same request is safe."""

    code = "CONCURRENT_UPDATE"


class VersionConflict(Conflict):
    """A write conditioned on a version (or revision) the data no longer has."""

    code = "VERSION_CONFLICT"


class DuplicateEvent(Conflict):
    """The outbox already holds this change's event: the change was recorded before."""

    code = "DUPLICATE_EVENT"


class ParticipantUnavailable(Conflict):
    code = "PARTICIPANT_UNAVAILABLE"


class GroupArchived(Conflict):
    """The group is archived, so read-only: its owner unarchives it to write again."""

    code = "GROUP_ARCHIVED"


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


def participant_unavailable(participant_id: str) -> Conflict:
    return ParticipantUnavailable("A participant does not exist in this group or is being "
                                  "transferred.", details={"participantId": participant_id})


def group_archived() -> GroupArchived:
    return GroupArchived("The group is archived and read-only; an owner can unarchive it.")


def already_member(who: str = "You are") -> Conflict:
    return Conflict(f"{who} already a participant of this group.", code="ALREADY_MEMBER")


def target_not_guest() -> Conflict:
    return Conflict("The participant is no longer a guest anyone can claim.",
                    code="TARGET_NOT_GUEST")


def sole_owner(groups: list) -> Conflict:
    """The caller is the only OWNER of groups other users are in; ``groups`` lists them."""
    return SoleOwner("You are the only owner of groups other people use; make someone else an "
                     "owner (or remove them) first.", details={"groups": groups})


def account_deleting() -> Unauthenticated:
    return Unauthenticated("This account has been deleted.")


# --- OAuth 2.1: the HTTP kernel answers these (and any limit on /oauth/) in RFC 6749's shape ---

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
