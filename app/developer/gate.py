"""Per-request developer checks, installed once by the app factory.

Order for every request:
1. (before authentication) a request with no Authorization header, or to a public view, spends
   from its source IP's window; except views that need ``metered=False`` (static documents) or
   ``client_limited=True`` (the OAuth endpoints hosts call, which spend from their client's or
   grant's window instead, app.oauth.views);
2. (after authentication) the caller's PAT policy for the view (app.api.pat.enforce), then its
   own window: USER#<id> for app sign-ins, PAT#<tokenId> plus the owner's daily budget for PATs;
3. (after the reply) a failed sign-in (401) spends from the IP's window too, turning into 429
   once it is full, and a PAT request is counted in the owner's usage rows when the reply is
   closed (best effort, never failing the request).
"""
from __future__ import annotations

import logging
import threading
from typing import Optional

from flask import Flask, current_app, g, request

from app import config
from app.api import needs, pat
from app.auth.principal import Principal
from app.errors import RateLimited
from app.developer import pepper
from app.developer.quotas import WINDOW_SECONDS, Limits

log = logging.getLogger("tailspend.developer")
EXTENSION = "developer"


class DeveloperRuntime:
    """The app's rate limits, its limiter and its PAT verifier.

    The limiter (with the rate-limit and developer-budget tables) loads with the first request
    that spends from a window, and the verifier (PAT parsing) with the first PAT: a signed-in
    app user's request, most traffic, needs neither, so a cold start does not pay for them."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._limiter = None
        self._verifier = None
        self._lock = threading.Lock()

    def _once(self, attribute: str, build):
        """The value in ``attribute``, built by ``build()`` on the first read (once per app)."""
        if getattr(self, attribute) is None:
            with self._lock:
                if getattr(self, attribute) is None:
                    setattr(self, attribute, build())
        return getattr(self, attribute)

    @property
    def limiter(self):
        def build():
            from app.developer.limits import Limiter
            return Limiter(self.limits)
        return self._once("_limiter", build)

    @limiter.setter
    def limiter(self, limiter) -> None:
        """Swap the limiter (tests tighten or lift the limits)."""
        self._limiter, self.limits = limiter, limiter.limits

    @property
    def verifier(self):
        def build():
            from app.developer.verify import TokenVerifier
            return TokenVerifier()
        return self._once("_verifier", build)


def runtime() -> DeveloperRuntime:
    return current_app.extensions[EXTENSION]


def start(authenticator, *, local_data_dir: Optional[str] = None,
          limits: Optional[Limits] = None) -> DeveloperRuntime:
    """Once per process: the pepper, the limits, and PAT verification in the authenticator."""
    pepper.configure(local_data_dir=local_data_dir)
    state = DeveloperRuntime(limits or Limits.from_settings(config.current()))
    authenticator.accept_pats(lambda credential: _principal(state.verifier.verify(credential)))
    return state


def install(app: Flask, state: DeveloperRuntime, *, authenticate) -> None:
    """The checks around every request of this app, in the order of the module doc, with the
    app's ``authenticate`` hook between the anonymous and the caller's checks (Flask runs
    before_request hooks in the order they are registered)."""
    app.extensions[EXTENSION] = state
    app.before_request(_limit_anonymous)
    app.before_request(authenticate)
    app.before_request(_check_caller)
    app.after_request(_after)


def _principal(token) -> Principal:
    g.developer_token_name = token.name  # for the usage row, written after the reply
    return Principal(user_id=token.user_id, identity_key=f"pat#{token.token_id}", kind="pat",
                     scopes=token.scopes, credential_id=token.token_id)


def _view():
    return current_app.view_functions.get(request.endpoint or "")


def source_ip() -> str:
    """The client's address: CloudFront's viewer address on a request that came through it
    (app/api/origin.py), else API Gateway's observed one (X-Forwarded-For is the client's to
    forge)."""
    from app.api.origin import viewer_ip
    viewer = viewer_ip(request.environ)
    if viewer:
        return viewer
    event = request.environ.get("awsgi.event") or {}
    identity = (event.get("requestContext") or {}).get("identity") or {}
    return identity.get("sourceIp") or request.remote_addr or "unknown"


# flask-smorest's own views: the OpenAPI document and the /docs page, served from memory.
_UNMETERED_ENDPOINTS = frozenset({"api-docs.openapi_json", "api-docs.openapi_swagger_ui"})


def _limit_anonymous() -> None:
    if request.method == "OPTIONS" or request.endpoint in _UNMETERED_ENDPOINTS:
        return
    view = _view()
    declared = needs.of(view)
    if not declared.metered or declared.client_limited:
        return
    if view is None or declared.public or not request.headers.get("Authorization"):
        g.ip_limited = True
        _spend_ip()


def _spend_ip() -> None:
    state = runtime()
    state.limiter.spend_ip(source_ip())


def _is_create() -> bool:
    return request.method == "POST"


def _check_caller() -> None:
    caller: Optional[Principal] = g.get("principal")
    if caller is None:
        return
    pat.enforce(needs.of(_view()).pat, caller)
    state = runtime()
    if caller.kind == "pat":
        state.limiter.spend_pat(caller.credential_id, caller.user_id, create=_is_create())
    elif state.limits.app_per_minute:  # off by default: then the limiter is not even loaded
        state.limiter.spend_user(caller.user_id)


def _after(response):
    caller: Optional[Principal] = g.get("principal")
    if (response.status_code == 401 and caller is None and not g.get("ip_limited")
            and not needs.of(_view()).client_limited):  # OAuth invalid_client
        try:
            _spend_ip()
        except RateLimited as error:
            from app.api.errors import handle_domain_error
            response = handle_domain_error(error)
            g.rate_limited = error
    if response.status_code == 429:
        _rate_limit_headers(response)
    if caller is not None and caller.kind == "pat":
        from app.developer import usage  # PATs only: the users table, on first use
        created = _is_create() and response.status_code == 201
        failed = response.status_code >= 400
        user_id, token_id = caller.user_id, caller.credential_id
        name = g.get("developer_token_name")
        response.call_on_close(lambda: usage.record(user_id, token_id, name=name,
                                                    create=created, error=failed))
    return response


def _rate_limit_headers(response) -> None:
    """IETF RateLimit fields on a refusal: the limit, nothing left, seconds until reset."""
    body = response.get_json(silent=True)
    error = body.get("error") if isinstance(body, dict) else None  # a string in OAuth's shape
    details = (error.get("details") if isinstance(error, dict) else None) or {}
    reset = response.headers.get("Retry-After", "60")
    limit = details.get("limit")
    if limit is not None:
        window = WINDOW_SECONDS if details.get("policy") == "minute" else 86400
        response.headers["RateLimit-Policy"] = f"{limit};w={window}"
        response.headers["RateLimit"] = f"limit={limit}, remaining=0, reset={reset}"
