"""flask-smorest wiring: our error envelope in the document, bearer auth by default."""
from __future__ import annotations

from flask_smorest import Api
from flask_smorest import Blueprint as _Blueprint

from app.api import docs_ui
from app.schemas.common import ErrorEnvelopeSchema

SPEC_OPTIONS = {
    "info": {"description": "TailSpend: group expenses, balances and settle-up. "
                            "Money is integer minor units of the group currency."},
    "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                                      "bearerFormat": "JWT"}}},
    "security": [{"bearerAuth": []}],
}


NOT_FOUND = (404, "Not a participant of the group (or it is being deleted), or no such id in it.")
FORBIDDEN = (403, "The caller's role is too low.")


def errors(blueprint, *replies):
    """Document the error envelopes a route may answer with, beside its success reply."""

    def document(view):
        for status, description in replies:
            view = blueprint.alt_response(status, schema=ErrorEnvelopeSchema,
                                          description=description)(view)
        return view

    return document


class TailSpendApi(Api):
    """flask-smorest Api documenting our envelope as the error schema."""

    ERROR_SCHEMA = ErrorEnvelopeSchema

    def _register_error_handlers(self):
        """Our own handlers (app.api.errors) own every error response."""


class Blueprint(_Blueprint):
    """Validation failures are 400 in our contract (webargs defaults to 422), and unknown
    query parameters are refused as the document's additionalProperties: false says."""

    ARGUMENTS_PARSER = _Blueprint.ARGUMENTS_PARSER.__class__()
    ARGUMENTS_PARSER.DEFAULT_VALIDATION_STATUS = 400
    ARGUMENTS_PARSER.DEFAULT_UNKNOWN_BY_LOCATION = {
        **ARGUMENTS_PARSER.DEFAULT_UNKNOWN_BY_LOCATION, "query": None, "querystring": None}


def configure(app) -> TailSpendApi:
    app.config.update(
        API_TITLE="TailSpend", API_VERSION="1.0", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        # Swagger UI's files come from our own server (app.api.docs_ui), never a CDN:
        # /docs must work with no internet.
        OPENAPI_SWAGGER_UI_URL=docs_ui.ASSETS_URL,
        OPENAPI_SWAGGER_UI_CONFIG=docs_ui.SWAGGER_UI_CONFIG,
        API_SPEC_OPTIONS=SPEC_OPTIONS,
    )
    app.register_blueprint(docs_ui.blp)
    return TailSpendApi(app)
