"""flask-smorest wiring: our error envelope in the document, bearer auth by default."""
from __future__ import annotations

from flask_smorest import Api
from flask_smorest import Blueprint as _Blueprint

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
    """flask-smorest Api documenting our envelope as the error schema.

    The OpenAPI document is built on first use, not at start: turning every schema into JSON
    Schema cost about 40% of a cold start, and most Lambda instances never serve /openapi.json.
    Blueprints are registered with Flask at once (routing needs them); their documentation
    waits in ``_undocumented`` until ``spec`` is read."""

    ERROR_SCHEMA = ErrorEnvelopeSchema

    def __init__(self, app=None, **kwargs):
        self._undocumented: list = []
        self._spec = None
        super().__init__(app, **kwargs)

    @property
    def spec(self):
        while self._undocumented and self._spec is not None:
            blp, name, parameters = self._undocumented.pop(0)
            blp.register_views_in_doc(self, self._app, self._spec, name=name,
                                      parameters=parameters)
            self._spec.tag({"name": name, "description": blp.description})
        return self._spec

    @spec.setter
    def spec(self, value):
        self._spec = value

    def register_blueprint(self, blp, *, parameters=None, **options):
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))

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
        OPENAPI_SWAGGER_UI_URL="https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
        API_SPEC_OPTIONS=SPEC_OPTIONS,
    )
    return TailSpendApi(app)
