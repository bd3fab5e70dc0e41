"""The Flask app factory: settings in, a configured API out."""
from __future__ import annotations

import logging
import time
import uuid
from typing import Optional

from flask import Flask, g, request

from app.api.werkzeug_adapter import BuiltOnFirstUse
from app.auth.authenticate import Authenticator, IdentityCache
from app.auth.jwks import JwksCache, http_fetch
from app.auth.local_issuer import LocalIssuer
from app.config import Settings
from app.errors import account_deleting
from app.core import request_reads
from app.bootstrap import bootstrap
from app.logs import (bind_request, bind_user, client_request_id, logger, platform_request_id,
                      unbind)


class Runtime:
    """What every app of one process shares (tests may swap its settings): the settings, the
    authenticator with its JWKS and identity caches, the local issuer, the developer gate."""

    def __init__(self, settings: Settings, authenticator: Authenticator,
                 issuer: Optional[LocalIssuer], developer=None) -> None:
        self.settings, self.authenticator, self.issuer = settings, authenticator, issuer
        self.developer = developer


def start(settings: Optional[Settings] = None) -> Runtime:
    """Once per process: models, keys and the caches every app of the process shares."""
    settings = bootstrap(settings)
    issuer = None
    if settings.local_mode:
        issuer = LocalIssuer(settings.data_dir, settings.issuer, settings.client_id)
        jwks = JwksCache(issuer.jwks, min_refresh=settings.jwks_refresh_seconds)
        provider = "local"
    else:
        jwks = JwksCache(http_fetch(settings.jwks_url), min_refresh=settings.jwks_refresh_seconds)
        provider = "cognito"
    authenticator = Authenticator(jwks=jwks, issuer=settings.issuer,
                                  client_id=settings.client_id or "", identity_provider=provider,
                                  identities=IdentityCache())
    # What the areas above the ledger and groups remove with their deletes: loading them
    # registers it (app.core.cascades).
    from app.people import invitation_rows  # noqa: F401
    from app.receipts import cleanup  # noqa: F401
    from app.oauth import keys as mcp_keys  # signs MCP access tokens (see its doc)
    mcp_keys.configure(local_key=issuer.private_key if issuer else None)
    from app.developer import gate as developer_gate  # PATs, scopes, rate limits, usage
    developer = developer_gate.start(
        authenticator, local_data_dir=settings.data_dir if settings.local_mode else None)
    # Share-link sessions are signed with the token pepper the gate has just configured.
    authenticator.accept_link_sessions(_link_session)
    return Runtime(settings, authenticator, issuer, developer)


def _link_session(credential: str):
    from app.links.sessions import principal  # on the first session, not at cold start
    return principal(credential)


def create_app(settings: Optional[Settings] = None, *, runtime: Optional[Runtime] = None) -> Flask:
    """Build the API for these settings (read from the environment when omitted): every
    area's blueprint, the OpenAPI document (/openapi.json, /docs) and the per-request hooks.
    The deployed handler, local mode and the tests all serve this one app."""
    runtime = runtime or start(settings)
    settings = runtime.settings

    app = Flask(__name__, static_folder=None)  # no /static route: this is a JSON API
    app.url_rule_class = BuiltOnFirstUse  # URL builders compile when url_for first needs one
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.json.sort_keys = False
    app.extensions["tailspend"] = runtime

    from app.developer import gate as developer_gate
    from app.api import edge, errors, spec
    errors.register(app)
    api = spec.configure(app)
    documented, pages = blueprints(settings.local_mode)
    for blueprint in documented:
        api.register_blueprint(blueprint)
    for blueprint in pages:
        app.register_blueprint(blueprint)
    app.url_value_preprocessor(_snake_case_path_ids)
    # First of all before_request hooks (Flask runs them in registration order): every reply,
    # even a 429 from the developer gate, has its ids and its latency.
    app.before_request(_begin_request)
    # Anonymous rate windows, then authentication, then the caller's PAT policy and window.
    developer_gate.install(app, runtime.developer, authenticate=_authenticate)
    app.before_request(edge.check_request)  # after auth: a stranger gets 401, not body errors
    app.wsgi_app = edge.guard_wsgi_text(app.wsgi_app)
    app.teardown_request(lambda _error: unbind())
    app.after_request(_cors)
    app.after_request(_log_request)
    return app


def blueprints(local_mode: bool) -> tuple:
    """Every blueprint the API serves: (those in /openapi.json, in the order its operations
    appear there; the HTML pages of the MCP connector's consent flow and the web app's files,
    outside it)."""
    # DELETE /users/me is account deletion's, on the users blueprint (its tag and operationId
    # are the contract's): importing the module adds the route before that blueprint is
    # registered below.
    from app.account import views as account  # noqa: F401
    from app.changes import views as changes
    from app.chat import views as chat
    from app.developer import views as developer
    from app.groups import views as groups
    from app.health import views as health
    from app.imports import views as imports
    from app.insight import views as insight
    from app.links import views as links
    from app.ledger import views as ledger
    from app.mcp import views as mcp
    from app.notifications import views as notifications
    from app.oauth import views as oauth
    from app.people import views as people
    from app.realtime import views as realtime
    from app.receipts import views as receipts
    from app.recurring import views as recurring
    from app.users import views as users
    from app.oauth import cognito, ui
    from app.web import views as web
    documented = [health.blp, users.blp, groups.home_blp, groups.groups_blp, groups.invite_blp,
                  groups.join_requests_blp, links.blp, ledger.expenses_blp, receipts.blp,
                  ledger.comments_blp, ledger.settlements_blp, ledger.trash_blp, ledger.balances_blp, insight.blp,
                  changes.blp, imports.export_blp, imports.imports_blp, recurring.blp,
                  people.blp, notifications.blp, developer.blp, oauth.blp, mcp.blp, chat.blp,
                  realtime.blp]
    if local_mode:
        documented.append(health.local_blp)  # the local token issuer
    return documented, [ui.bp, cognito.bp, web.bp]


def _snake_case_path_ids(endpoint, values) -> None:
    """Paths name ids as the contract does ({groupId}); views take them as group_id."""
    for name in [n for n in (values or {}) if n.endswith("Id")]:
        values[name[:-2] + "_id"] = values.pop(name)


def _begin_request() -> None:
    g.started = time.perf_counter()
    g.request_id = platform_request_id(request.environ.get("awsgi.event"),
                                       request.environ.get("awsgi.context")) or str(uuid.uuid4())
    bind_request(g.request_id, client_request_id(request.headers.get("X-Request-Id")))


def _authenticate() -> None:
    from flask import current_app
    from app.api import needs
    request_reads.forget()  # nothing one request read is seen by the next
    view = current_app.view_functions.get(request.endpoint or "")
    declared = needs.of(view)
    if (view is None or declared.public or declared.own_auth
            or request.method == "OPTIONS" or request.blueprint == "api-docs"):
        return
    runtime: Runtime = current_app.extensions["tailspend"]
    g.principal = runtime.authenticator.authenticate(
        request.headers.get("Authorization"), _group_read(declared),
        live_in_view=declared.liveness_in_view)
    if g.principal.link is not None:
        _admit_link_session(declared, g.principal.link)
    if g.principal.deleting and not declared.while_deleting:
        raise account_deleting()
    bind_user(g.principal.user_id)


def _admit_link_session(declared, session) -> None:
    """A share-link session reaches only views that declare it (app.api.needs: link=True),
    in its own group: another group's path is 404 as for any stranger, anything else 403.
    Its access is then read by the view's authorization (app.core.access.authorize_link)."""
    from app.errors import Forbidden, group_not_found
    group_id = (request.view_args or {}).get("group_id")
    if group_id is not None and declared.in_group and str(group_id) != session.group_id:
        raise group_not_found()
    if not (declared.link or declared.link_own_group):
        raise Forbidden("A share-link session cannot call this operation.",
                        details={"reason": "LINK_NOT_ALLOWED"})


def _group_read(declared):
    """(group id, the rows the view prefetches) for a route under /groups/{groupId}: the
    liveness read joins that group's authorization read (app.core.request_reads)."""
    from app.api import needs
    group_id = (request.view_args or {}).get("group_id")
    if group_id is None or declared.while_deleting or not declared.in_group:
        return None
    # Called once the credential is verified (a function may read, e.g. a /changes page).
    return str(group_id), lambda: needs.prefetch_keys(declared, request.view_args)


_PREFLIGHT_HEADERS = {
    "Access-Control-Allow-Methods": "GET,POST,PUT,PATCH,DELETE,OPTIONS",
    "Access-Control-Allow-Headers": "Authorization,Content-Type,Idempotency-Key",
    "Access-Control-Max-Age": "600",
}


def _cors(response):
    """Echo the Origin when it is allow-listed; API Gateway forwards preflights here too.

    Never '*' and never Allow-Credentials: tokens travel in the Authorization header.
    """
    from flask import current_app
    origin = request.headers.get("Origin")
    if origin and origin in current_app.extensions["tailspend"].settings.cors_allow_origins:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers.add("Vary", "Origin")
        if request.method == "OPTIONS" and request.headers.get("Access-Control-Request-Method"):
            response.headers.update(_PREFLIGHT_HEADERS)
    return response


def _log_request(response):
    """The one line per request: what, how it ended, how long it took (ms, in the app)."""
    started = getattr(g, "started", None)
    latency = round((time.perf_counter() - started) * 1000, 1) if started is not None else None
    logger.info("request", extra={"method": request.method, "path": request.path,
                                  "status": response.status_code, "latency_ms": latency})
    response.headers["X-Request-Id"] = getattr(g, "request_id", "")
    return response


logging.getLogger("werkzeug").setLevel(logging.WARNING)
