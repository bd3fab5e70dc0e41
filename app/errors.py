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
