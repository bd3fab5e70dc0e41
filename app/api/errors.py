"""The one place errors become HTTP: domain errors, validation, HTTP errors and crashes."""
from __future__ import annotations

import logging

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from app.errors import DomainError, OAuthError, RateLimited, oauth_rate_limited

log = logging.getLogger("tailspend.errors")
OAUTH_PATHS = ("/oauth/",)  # the authorization server's endpoints and pages: RFC 6749 errors

_HTTP_CODES = {400: "VALIDATION_ERROR", 401: "UNAUTHENTICATED", 403: "FORBIDDEN",
               404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 409: "CONFLICT", 411: "LENGTH_REQUIRED",
               413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE", 422: "VALIDATION_ERROR",
               429: "RATE_LIMITED"}


def envelope(status: int, code: str, message: str, details=None, headers=None):
    response = jsonify({"error": {"code": code, "message": message, "details": details or {}}})
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def handle_domain_error(error: DomainError):
    if isinstance(error, RateLimited) and request.path.startswith(OAUTH_PATHS):
        return handle_oauth_error(oauth_rate_limited(error))  # OAuth clients parse error
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, RateLimited) else None
    return envelope(error.status, error.code, error.message, error.details, headers)


def handle_oauth_error(error: OAuthError):
    """RFC 6749 §5.2 / RFC 7591 §3.2.2 bodies: OAuth clients read ``error`` as a string."""
    response = jsonify({"error": error.error, "error_description": error.message})
    response.status_code = error.status
    response.headers["Cache-Control"] = "no-store"
    if error.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer error="invalid_client"'
    if getattr(error, "retry_after", None):
        response.headers["Retry-After"] = str(error.retry_after)
    return response


def handle_http_exception(error: HTTPException):
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    headers = {}
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        # flask-smorest's handler drops Allow; a 405 without it breaks HTTP semantics.
        headers["Allow"] = ", ".join(sorted(error.valid_methods))
    if status >= 500:
        return envelope(500, "INTERNAL", "Something went wrong on our side.")
    details = {}
    message = error.description or "Request failed."
    if data.get("messages") == {"json": ["Invalid JSON body."]}:
        message = "The request body is not valid JSON."
    elif "messages" in data:  # webargs validation errors: {location: {field: [msg]}}
        details = _flatten_locations(data["messages"])
        message = "The request has invalid fields."
    status = 400 if status == 422 else status  # validation is a 400 in our contract
    return envelope(status, _HTTP_CODES.get(status, "ERROR"), message, details, headers)


def _flatten_locations(messages):
    if isinstance(messages, dict) and set(messages) <= {"json", "query", "path", "headers",
                                                        "form", "view_args"}:
        merged = {}
        for location_errors in messages.values():
            if isinstance(location_errors, dict):
                merged.update(location_errors)
        return merged
    return messages if isinstance(messages, dict) else {"_": messages}


def handle_unexpected(error: Exception):
    log.exception("unhandled_error")
    return envelope(500, "INTERNAL", "Something went wrong on our side.")


def register(app: Flask) -> None:
    app.register_error_handler(OAuthError, handle_oauth_error)
    app.register_error_handler(DomainError, handle_domain_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
