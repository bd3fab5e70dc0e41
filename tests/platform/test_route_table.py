"""The deployed API builds one app per area on first use (app.api.dispatch): the rule table is
current, start-up imports no area (nor the tables only areas use, nor the PAT verifier), a
request imports only its own, and every route reaches an app that serves it as the app of every
area does."""
from __future__ import annotations

import uuid

import pytest

from app.api import dispatch, route_table, routes
from app.factory import create_app
from tests.support.probe import probe

# Fixed, not uuid4(): parametrize ids must be the same in every xdist worker.
FIXED_ID = "3f0c2a9e-6b1d-4c57-9a2e-8d4b7f1e0c63"


def test_the_rule_table_is_what_the_blueprints_declare():
    assert route_table.RULES == routes.scan(), (
        "app/api/route_table.py is stale: run `.venv/bin/python -m app.api.routes`")


def test_every_area_is_declared_under_its_blueprints_name():
    for area in routes.AREAS:
        assert area.blueprint().name == area.name


@pytest.fixture
def dispatcher(app):
    """The deployed arrangement on the tests' runtime: one app per area, built on first use."""
    runtime = app.extensions["tailspend"]
    return dispatch.AreaDispatcher(runtime, lambda areas: create_app(areas=areas,
                                                                     runtime=runtime))


def _fill(rule: str) -> str:
    return dispatch._CONVERTER.sub(lambda m: str(uuid.uuid4()) if m.group("converter") == "uuid"
                                   else "some-name", rule)


def test_every_route_of_the_whole_app_reaches_an_app_that_serves_it(app, dispatcher):
    for rule in app.url_map.iter_rules():
        path = _fill(rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            served_by = dispatcher.app_for(path)
            endpoint, _ = served_by.url_map.bind("api.example").match(path, method)
            assert endpoint == rule.endpoint, (path, method)
    areas = {name for name in dispatcher.apps if name is not None}
    assert areas == {area.name for area in routes.AREAS}  # the test app is in local mode


def test_each_area_app_serves_only_its_area_and_what_it_needs(dispatcher):
    balances = dispatcher.app("balances")
    assert {rule.endpoint.split(".")[0] for rule in balances.url_map.iter_rules()} == {
        "balances"}
    oauth = dispatcher.app("oauth")
    assert {rule.endpoint.split(".")[0] for rule in oauth.url_map.iter_rules()} == {
        "oauth", "oauth_ui"}


@pytest.mark.parametrize("method, path", [
    ("GET", "/nowhere"), ("GET", "/groups/not-a-uuid/balances"), ("GET", "/users//me"),
    ("PUT", "/health"), ("OPTIONS", "/groups"), ("GET", "/groups/"), ("GET", "/Health"),
    ("GET", "/openapi.json"), ("GET", "/docs"), ("GET", "/docs/"),
    ("GET", "/docs/assets/swagger-ui.css"),
    ("GET", "/docs/assets/../../etc/passwd"), ("GET", "/groups/%s/balances" % FIXED_ID),
    ("POST", "/groups/%s/expenses" % FIXED_ID), ("GET", "/oauth/consent")])
def test_odd_and_plain_requests_get_the_whole_apps_reply(client, dispatcher, method, path):
    whole = client.open(path, method=method, headers={"Origin": "https://nowhere.invalid"})
    split = dispatcher.test_client().open(path, method=method,
                                          headers={"Origin": "https://nowhere.invalid"})
    assert (split.status_code, split.headers.get("Location"), split.get_data()) == (
        whole.status_code, whole.headers.get("Location"), whole.get_data())
    assert sorted(split.headers.get("Allow", "").split(", ")) == sorted(
        whole.headers.get("Allow", "").split(", "))


def test_areas_share_the_runtime(dispatcher):
    runtime = dispatcher.runtime
    for name in ("users", "developer"):
        assert dispatcher.app(name).extensions["tailspend"] is runtime
        assert dispatcher.app(name).extensions["developer"] is runtime.developer


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
                and m not in ("models.base", "models.pynamodb_adapter"))
own = sorted(m for m in ("app.services.developer.verify", "app.services.developer.limits",
                         "app.services.developer.usage", "app.services.core.access")
             if m in sys.modules)
apps = len(handler.app.apps)
reply = handler.app.test_client().get("/health")
print(json.dumps({"before": before, "third_party": third_party, "tables": tables, "own": own,
                  "apps": apps, "status": reply.status_code, "after": loaded(),
                  "built": sorted(handler.app.apps)}))
"""
# What a signed-in app user's request needs before its area runs: the caller's identity. The
# rate-limit windows and developer budgets load with the first request that spends from them
# (anonymous callers, PATs), the other tables with the areas that use them.
START_UP_TABLES = ["models.identities"]


def test_start_up_imports_no_area_and_a_request_only_its_own(tmp_path):
    seen = probe(PROBE, {"TAILSPEND_LOCAL": "1", "TAILSPEND_STAGE": "probe",
                         "TAILSPEND_DATA_DIR": str(tmp_path), "AWS_DEFAULT_REGION": "us-east-1"})
    assert seen["before"] == [] and seen["third_party"] == [] and seen["apps"] == 0
    assert seen["tables"] == START_UP_TABLES
    assert seen["own"] == []  # the PAT checks and the limiter wait for their first use
    assert seen["status"] == 200
    assert seen["after"] == ["app.api.health"] and seen["built"] == ["health"]


def test_pages_render_when_their_area_is_the_first_one_loaded(dispatcher):
    """/oauth/authorize renders an HTML page whose template lives in the oauth_ui area."""
    reply = dispatcher.test_client().get(
        "/oauth/authorize?client_id=https%3A%2F%2Fnowhere.invalid%2Fc")
    assert reply.status_code == 400 and reply.mimetype == "text/html"
    assert sorted(dispatcher.apps) == ["oauth"]
