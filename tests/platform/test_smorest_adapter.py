"""app/api/smorest_adapter.py: what it changes in flask-smorest keeps the document the same.

If one of these fails after a flask-smorest upgrade, the adapter (the one module bending
flask-smorest) must change: see its module doc for what each part is for."""
from __future__ import annotations

import copy
import threading

from flask import Flask, json
from flask_smorest import Api

from app import create_app
from app.api import spec
from app.api.schemas import ErrorEnvelopeSchema, PageArgsSchema
from app.factory import blueprints


def _api(app) -> spec.TailSpendApi:
    return app.extensions["flask-smorest"]["apis"][""]["ext_obj"]


def _document(api) -> str:
    return json.dumps(api.spec.to_dict(), indent=2, sort_keys=False)


def _documented_by(register, local_mode: bool) -> str:
    """The document of an app whose blueprints were registered by ``register(api, blp)``."""
    app = Flask("adapter-check", static_folder=None)
    api = spec.configure(app)
    for blueprint in blueprints(local_mode)[0]:
        register(api, blueprint)
    return _document(api)


def test_the_document_on_first_read_is_the_one_flask_smorest_builds_at_registration(aws):
    for local_mode in (True, False):
        on_demand = _documented_by(spec.TailSpendApi.register_blueprint, local_mode)
        eager = _documented_by(Api.register_blueprint, local_mode)  # documents as it registers
        assert on_demand == eager
        assert '"/groups/{groupId}/expenses"' in on_demand


def test_a_new_app_routes_at_once_and_documents_on_the_first_read(aws, settings):
    app = create_app(settings)
    api = _api(app)
    assert not api.documented
    assert any(rule.rule == "/groups/<uuid:groupId>/expenses" for rule in app.url_map.iter_rules())
    client = app.test_client()
    assert client.get("/health").status_code == 200
    assert not api.documented  # serving a request needs no document
    paths = client.get("/openapi.json").get_json()["paths"]
    assert api.documented
    assert "/groups/{groupId}/expenses" in paths


def test_readers_racing_to_the_first_read_document_each_blueprint_once(aws, settings):
    api = _api(create_app(settings))
    start = threading.Barrier(8)
    documents = []

    def read() -> None:
        start.wait()
        documents.append(_document(api))

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(documents)) == 1
    tags = [tag["name"] for tag in api.spec.to_dict()["tags"]]
    assert len(tags) == len(set(tags)) > 10  # apispec appends a tag per documenting


def test_a_blueprint_registered_after_the_first_read_is_documented_at_once(aws, settings):
    app = create_app(settings)
    api = _api(app)
    _document(api)
    late = spec.Blueprint("late", __name__, url_prefix="/late")

    @late.route("/thing")
    @late.response(200, ErrorEnvelopeSchema)
    def thing():
        return {}

    api.register_blueprint(late)
    assert "/late/thing" in api.spec.to_dict()["paths"]
    assert "late" in [tag["name"] for tag in api.spec.to_dict()["tags"]]


def test_a_schema_is_its_own_deep_copy_while_the_documentation_around_it_is_copied():
    schema = ErrorEnvelopeSchema()
    assert copy.deepcopy(schema) is schema
    blp = spec.Blueprint("copies", __name__)

    @blp.arguments(PageArgsSchema, location="query")
    def inner(args):
        return args

    outer = blp.response(200, schema)(inner)
    # The decorator's deep copy still protects the inner view's documentation ...
    assert "response" not in inner._apidoc and "response" in outer._apidoc
    assert outer._apidoc["arguments"] is not inner._apidoc["arguments"]
    # ... and the schema instances in it are shared, not rebuilt field by field.
    assert (outer._apidoc["arguments"]["parameters"][0]["schema"]
            is inner._apidoc["arguments"]["parameters"][0]["schema"])
    assert outer._apidoc["response"]["responses"][200][0]["schema"] is schema
