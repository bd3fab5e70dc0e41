"""Liveness and local-mode auth helpers (JWKS, dev tokens)."""
from __future__ import annotations

from flask import current_app

from app.api.context import settings
from app.api.needs import needs
from app.api.spec import NOT_FOUND, Blueprint, errors
from app.api.schemas import PageArgsSchema
from app.errors import not_found
from app.health.schemas import DevMailPageSchema, DevMailSchema
from app.users.schemas import DevTokenRequestSchema, DevTokenSchema, HealthSchema, JwksSchema
from app.users import local_auth

blp = Blueprint("health", __name__, description="Service health")
local_blp = Blueprint("local", __name__, description="Local mode only: token issuer, mailbox")


@blp.route("/health")
@needs(public=True, metered=False)
@blp.response(200, HealthSchema)
@blp.doc(security=[])
def health():
    """The service is up."""
    return {"status": "ok"}


@local_blp.route("/.well-known/jwks.json")
@needs(public=True)
@local_blp.response(200, JwksSchema)
@local_blp.doc(security=[])
def jwks():
    """The local issuer's public keys."""
    return current_app.extensions["tailspend"].issuer.jwks()


@local_blp.route("/dev/tokens", methods=["POST"])
@needs(public=True)
@local_blp.arguments(DevTokenRequestSchema)
@local_blp.response(201, DevTokenSchema)
@local_blp.doc(security=[])
def mint_dev_token(body):
    """Mint a local access token for any e-mail, provisioning the user on first use (a new
    account reads in the browser's language: Accept-Language)."""
    from flask import request

    from app.core.i18n import negotiate

    runtime = current_app.extensions["tailspend"]
    asked = request.headers.get("Accept-Language")
    return local_auth.mint_token(runtime.issuer, email=body["email"],
                                 display_name=body.get("displayName"), admin=body["admin"],
                                 test_domain=settings().test_account_domain,
                                 locale=negotiate(asked) if asked else None)


@local_blp.route("/dev/mail")
@needs(public=True)
@local_blp.arguments(PageArgsSchema, location="query")
@local_blp.response(200, DevMailPageSchema)
@local_blp.doc(security=[])
def list_mail(args):
    """What the embedded SMTP server received, newest first."""
    from app.local import smtp_server  # local mode only: app/local is not in the Lambda package

    items, next_cursor = smtp_server.MAILBOX.page(args["limit"] or 50, args["cursor"])
    server = smtp_server.running()
    return {"smtp": {"host": server.host, "port": server.port} if server else None,
            "items": items, "nextCursor": next_cursor}


@local_blp.route("/dev/mail/<mailId>")
@needs(public=True)
@local_blp.response(200, DevMailSchema)
@local_blp.doc(security=[])
@errors(local_blp, NOT_FOUND)
def get_mail(mail_id):
    """One received message."""
    from app.local import smtp_server  # local mode only (see list_mail)

    return smtp_server.MAILBOX.get(mail_id) or _no_mail()


def _no_mail():
    raise not_found("Mail")
