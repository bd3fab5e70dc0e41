"""The edge's proof of passage: CloudFront adds ``X-Origin-Verify``; a request without it is 403.

The HTTP API's execute-api URL cannot be switched off while CloudFront uses it as its origin, so
anyone who learns it could skip WAF. CloudFront adds a secret header to every request it
forwards (template.yaml, ApiDistribution); the Lambda handler refuses, before the app runs (no
rate-limit write, no token check), any request whose header does not match. The secret is a
key ring ``{"current": v, "previous": v}`` in Secrets Manager (ORIGIN_VERIFY_SECRET_ARN):
CloudFront sends ``current``, either value passes, so a rotation refuses nothing
(docs/rotation.md). Unconfigured (local mode, tests) the check is off.

Behind CloudFront the gateway's source IP is an edge server's, so the client's address comes
from ``CloudFront-Viewer-Address``, trusted only on a request that proved it came through
CloudFront (:func:`viewer_ip`)."""
from __future__ import annotations

import hmac
import json
import threading
import time
from typing import Callable, Optional, Tuple

from app.logs import logger
from app.errors import Forbidden

HEADER = "X-Origin-Verify"
_ENVIRON_KEY = "HTTP_X_ORIGIN_VERIFY"
VIEWER_ADDRESS = "HTTP_CLOUDFRONT_VIEWER_ADDRESS"  # as aws-wsgi names it (see app.api.lambda_adapter)
VERIFIED = "tailspend.via_edge"  # environ flag: the request came through CloudFront
REREAD_SECONDS = 60.0  # a mismatch re-reads the secret at most this often (a rotation's new value)

_REFUSED = json.dumps({"error": {"code": Forbidden.code,
                                 "message": "Call the API through its public URL.",
                                 "details": {}}}).encode()


def _ring(text: str) -> Tuple[str, ...]:
    """The accepted values: a JSON ``{"current", "previous"}`` ring, or one plain value."""
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    if isinstance(value, dict):
        values = (value.get("current"), value.get("previous"))
    else:
        values = (value,)
    return tuple(v for v in values if isinstance(v, str) and v)


class OriginSecret:
    """The current ring, read once and re-read (at most every REREAD_SECONDS) on a mismatch."""

    def __init__(self, read: Callable[[], str], clock: Callable[[], float] = time.monotonic) -> None:
        self._read, self._clock = read, clock
        self._values: Tuple[str, ...] = ()
        self._read_at: Optional[float] = None
        self._lock = threading.Lock()

    def accepts(self, presented: str) -> bool:
        if self._matches(presented, self._current()):
            return True
        with self._lock:
            if self._read_at is not None and self._clock() - self._read_at < REREAD_SECONDS:
                return False
            self._load()
        return self._matches(presented, self._values)

    def _current(self) -> Tuple[str, ...]:
        with self._lock:
            if self._read_at is None:
                self._load()
            return self._values

    def _load(self) -> None:
        self._read_at = self._clock()
        values = _ring(self._read())
        if not values:
            raise RuntimeError("the origin-verify secret holds no value")  # never accept ""
        self._values = values

    @staticmethod
    def _matches(presented: str, values: Tuple[str, ...]) -> bool:
        given = presented.encode()
        # Every value compared, each in constant time: the reply time tells nothing.
        found = False
        for value in values:
            found |= hmac.compare_digest(given, value.encode())
        return found


def secret_from_arn(arn: str) -> OriginSecret:
    from app.config import forget_secret, secret_string

    def read() -> str:
        forget_secret(arn)  # each (rate-limited) read is a fresh GetSecretValue
        return secret_string(arn)

    return OriginSecret(read)


def require_origin_secret(wsgi_app, secret: Optional[OriginSecret]):
    """WSGI wraps the app: a request without the edge's header never reaches it."""
    if secret is None:
        return wsgi_app

    def middleware(environ, start_response):
        presented = environ.pop(_ENVIRON_KEY, "")  # popped: nothing after this sees or logs it
        if not (isinstance(presented, str) and presented and secret.accepts(presented)):
            logger.warning("origin.refused", extra={"path": environ.get("PATH_INFO")})
            start_response("403 Forbidden", [("Content-Type", "application/json"),
                                             ("Content-Length", str(len(_REFUSED)))])
            return [_REFUSED]
        environ[VERIFIED] = True
        return wsgi_app(environ, start_response)

    return middleware


def viewer_ip(environ) -> Optional[str]:
    """The client's address as CloudFront saw it (``ip:port``, IPv6 unbracketed), when the
    request came through CloudFront; else None (the caller falls back to the gateway's)."""
    if not environ.get(VERIFIED):
        return None
    address = environ.get(VIEWER_ADDRESS) or ""
    host, _, port = address.rpartition(":")
    return host if host and port.isdigit() else None
