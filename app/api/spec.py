"""flask-smorest wiring: our error envelope in the document, bearer auth by default."""
from __future__ import annotations

from apispec import BasePlugin
from flask import json
from flask_smorest import Blueprint as _Blueprint

from app.api import docs_ui, openapi_links
from app.api import errors as error_replies
from app.api.needs import DocumentPlugin
from app.api.schemas import ErrorEnvelopeSchema
from app.api.smorest_adapter import DocumentedOnDemand

SPEC_OPTIONS = {
    "info": {"description": "TailSpend: group expenses, balances and settle-up. "
                            "Money is integer minor units of the group currency."},
    "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                                      "bearerFormat": "JWT"}}},
    "security": [{"bearerAuth": []}],
    # Relative to the document's own URL (OAS 3.0 "Server Object"), so one deterministic
    # document is right on a laptop (http://127.0.0.1:3000) and under an API Gateway stage
    # prefix (https://…/Prod) alike.
    "servers": [{"url": ".", "description": "Where this document is served from"}],
}


# One instance for every error reply documented: flask-smorest builds an instance of a
# schema class at each decorator (about 250 here), and the document names the class alone.
ERROR_ENVELOPE = ErrorEnvelopeSchema()
NOT_FOUND = (404, "Not a participant of the group (or it is being deleted), or no such id in it.")
FORBIDDEN = (403, "The caller's role is too low.")


def errors(blueprint, *replies):
    """Document the error envelopes a route may answer with, beside its success reply."""

    def document(view):
        for status, description in replies:
            view = blueprint.alt_response(status, schema=ERROR_ENVELOPE,
                                          description=description)(view)
        return view

    return document


ROOT_COMBINATORS = ("anyOf", "oneOf", "allOf", "not")
BODY_RULE = "x-body-rule"
ERROR_REF = {"$ref": "#/components/schemas/ErrorEnvelope"}
COMMON_ERRORS = {
    400: "VALIDATION_ERROR: a field breaks the schema or a rule the schema cannot express; "
         "details maps each field to its messages.",
    401: "UNAUTHENTICATED: no bearer access token, or one that cannot be verified.",
    404: "NOT_FOUND: no such id, or it is not visible to the caller.",
    413: "PAYLOAD_TOO_LARGE: the body is over 64 KiB.",
}


class ContractPlugin(BasePlugin):
    """What every route shares, documented once instead of on each view.

    Bearer-secured routes may answer 401, routes with a body or query may answer 400 (and 413
    for a body), routes with an id in the path may answer 404. A schema class may add JSON
    Schema keywords marshmallow cannot express as ``OPENAPI_EXTRA`` (root combinators such
    as ``anyOf`` are served as the ``x-body-rule`` extension, see ``schema_helper``)."""

    def schema_helper(self, name, definition, **kwargs):
        extra = dict(getattr(kwargs.get("schema"), "OPENAPI_EXTRA", None) or {})
        # A root combinator turns a body into a union that typed generators cannot type
        # (openapi-python-client makes it `Any`): the schema stays a plain object, its
        # description says the rule, and the rule itself, as the JSON Schema the server's
        # check obeys, is served under BODY_RULE for fuzzers and validators that want it.
        rule = {key: extra.pop(key) for key in ROOT_COMBINATORS if key in extra}
        if rule:
            assert extra.get("description"), f"{name}: say the body rule in the description"
            extra[BODY_RULE] = rule
        return extra

    def operation_helper(self, path=None, operations=None, **kwargs):
        for operation in (operations or {}).values():
            responses = operation.setdefault("responses", {})
            wanted = []
            if operation.get("security") != []:
                wanted.append(401)
            if "requestBody" in operation:
                wanted += [400, 413]
            if any(p.get("in") == "query" for p in operation.get("parameters", [])
                   if isinstance(p, dict)):
                wanted.append(400)
            if "{" in (path or ""):
                wanted.append(404)
            for status in wanted:
                current = responses.get(str(status), responses.get(status))
                # flask-smorest's own 400 is a reference to a bare "Bad Request": ours says more.
                if current is None or isinstance(current, str) or "$ref" in current:
                    responses.pop(status, None)
                    responses[str(status)] = {"description": COMMON_ERRORS[status],
                                              "content": {"application/json": {
                                                  "schema": ERROR_REF}}}


class TailSpendApi(DocumentedOnDemand):
    """flask-smorest Api documenting our envelope as the error schema; our handler
    (app.api.errors) answers every HTTP error, as in an app without this Api. The document
    is built on its first read (app.api.smorest_adapter), not at cold start."""

    ERROR_SCHEMA = ERROR_ENVELOPE

    def handle_http_exception(self, error):
        return error_replies.handle_http_exception(error)


def null_in_a_branch(self, field, ret, **kwargs) -> dict:
    """apispec marks every ``allow_none`` field ``nullable: true``, typed or not. OAS 3.0
    honours nullable only beside a ``type`` in the same schema, so a typeless field (an
    ``anyOf`` of shapes) declares null in one of its branches instead: there the sibling
    ``nullable`` would be dead and is dropped (``redocly lint``: nullable-type-sibling)."""
    branches = ret.get("anyOf", []) + ret.get("oneOf", [])
    if "type" not in ret and any(branch.get("nullable") for branch in branches):
        ret.pop("nullable", None)
    return {}


def default_in_words(self, field, ret, **kwargs) -> dict:
    """A field's default goes in its description, not in a ``default`` keyword: typed
    generators read ``default`` as "the server always sends it" and make the field required
    in the request type too (openapi-typescript's default settings: its issues #1741 and
    #2012), while the server accepts a body or query without it. A null default is the
    field's absence and says nothing."""
    if "default" not in ret:
        return {}
    value = ret.pop("default")
    if value is None:
        return {}
    words = f"Default: {json.dumps(value)}."
    return {"description": f"{ret['description'].rstrip()} {words}" if ret.get("description")
            else words}


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
    api = TailSpendApi(app, spec_kwargs={"extra_plugins": [ContractPlugin(),
                                                            DocumentPlugin(app),
                                                            openapi_links.LinksPlugin()]})
    # apispec's documented hook, run after its own attribute functions (field2nullable last).
    api.ma_plugin.converter.add_attribute_function(null_in_a_branch)
    api.ma_plugin.converter.add_attribute_function(default_in_words)
    return api
