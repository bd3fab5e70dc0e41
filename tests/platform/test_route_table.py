"""Areas load on first use (app.api.routing): the rule table is current, start-up imports no
area (nor the tables only areas use, nor the PAT verifier), a request imports only its own, and
the app answers as with every blueprint up front."""
from __future__ import annotations

import sys
import types

import pytest
from flask import Flask

from app import create_app
from app.api import route_table, routes
from app.api.routing import Area, AreaLoader, KeepsViews
from tests.support.probe import probe

AREA_MODULES = sorted({area.module for area in routes.AREAS})


def test_the_rule_table_is_what_the_blueprints_declare():
    assert route_table.RULES == routes.scan(), (
        "app/api/route_table.py is stale: run `.venv/bin/python -m app.api.routes`")


def test_every_area_is_declared_under_its_blueprints_name():
    for area in routes.AREAS:
        assert area.blueprint().name == area.name


def test_the_lazy_app_has_the_rules_an_eager_registration_gives(app):
    eager = Flask("eager", static_folder=None)
    for area in routes.AREAS:
        eager.register_blueprint(area.blueprint())

    def shape(flask_app):
        return sorted((r.rule, r.endpoint, sorted(r.methods), r.provide_automatic_options,
                       r.strict_slashes) for r in flask_app.url_map.iter_rules()
                      if r.endpoint not in ("api-docs.openapi_json", "api-docs.openapi_swagger_ui",
                                            "docs-ui.asset"))

    assert shape(app) == shape(eager)  # the test app runs in local mode: every area is there


PROBE = """
import json, sys
from app.api import routes
areas = {area.module for area in routes.AREAS}
def loaded():
    return sorted(m for m in areas if m in sys.modules)
import app.handlers.api as handler
before = loaded()
third_party = sorted(m for m in ("authlib", "mcp", "jinja2.ext", "pywebpush") if m in sys.modules)
tables = sorted(m for m in sys.modules if m.count(".") == 1 and m.startswith("models.")
                and m != "models.base")
own = sorted(m for m in ("app.services.developer.verify", "app.services.developer.limits",
                         "app.services.developer.usage", "app.services.core.access")
             if m in sys.modules)
reply = handler.app.test_client().get("/health")
print(json.dumps({"before": before, "third_party": third_party, "tables": tables, "own": own,
                  "status": reply.status_code, "after": loaded()}))
"""
# What a signed-in app user's request needs before its area runs: the caller's identity. The
# rate-limit windows and developer budgets load with the first request that spends from them
# (anonymous callers, PATs), the other tables with the areas that use them.
START_UP_TABLES = ["models.identities"]


def test_start_up_imports_no_area_and_a_request_only_its_own(tmp_path):
    seen = probe(PROBE, {"TAILSPEND_LOCAL": "1", "TAILSPEND_STAGE": "probe",
                         "TAILSPEND_DATA_DIR": str(tmp_path), "AWS_DEFAULT_REGION": "us-east-1"})
    assert seen["before"] == [] and seen["third_party"] == []
    assert seen["tables"] == START_UP_TABLES
    assert seen["own"] == []  # the PAT checks and the limiter wait for their first use
    assert seen["status"] == 200
    assert seen["after"] == ["app.api.health"]


def test_pages_render_when_their_area_is_the_first_one_loaded(aws, settings):
    """/oauth/authorize renders an HTML page whose template lives in the oauth_ui area."""
    fresh = create_app(settings)
    reply = fresh.test_client().get("/oauth/authorize?client_id=https%3A%2F%2Fnowhere.invalid%2Fc")
    assert reply.status_code == 400 and reply.mimetype == "text/html"


def _fake_area(monkeypatch, build) -> Area:
    module = types.ModuleType("tests_fake_area")
    module.blp = KeepsViews("fake", __name__)
    build(module.blp)
    monkeypatch.setitem(sys.modules, "tests_fake_area", module)
    return Area("fake", "tests_fake_area")


def test_an_area_with_a_hook_the_loader_cannot_attach_is_refused(monkeypatch):
    def build(blp):
        blp.route("/fake")(lambda: "ok")
        blp.before_request(lambda: None)

    area = _fake_area(monkeypatch, build)
    loader = AreaLoader(Flask("probe"), area, {})
    with pytest.raises(RuntimeError, match="before_request"):
        loader.attach()


def test_an_area_brings_its_error_handlers_and_views(monkeypatch):
    class Boom(Exception):
        pass

    def build(blp):
        @blp.route("/fake")
        def fake():
            raise Boom()

        blp.errorhandler(Boom)(lambda error: ("handled by the area", 418))

    area = _fake_area(monkeypatch, build)
    flask_app = Flask("probe")
    loader = AreaLoader(flask_app, area, {})
    flask_app.add_url_rule("/fake", "fake.fake", loader.lazy_view("fake.fake"))
    reply = flask_app.test_client().get("/fake")
    assert (reply.status_code, reply.text) == (418, "handled by the area")
    real = sys.modules["tests_fake_area"].blp.views["fake"]
    assert flask_app.view_functions["fake.fake"] is real
