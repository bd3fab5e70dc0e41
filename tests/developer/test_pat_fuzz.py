"""Schemathesis over every documented operation with a PAT holding every scope: no 5xx.

One moto DynamoDB and one token for the whole module: building tables per operation made this
file take minutes; the property (no 5xx) does not depend on a clean database."""
from __future__ import annotations

import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from app import create_app
from app.config import Settings
from app.developer.limits import Limiter, Limits
from tests.conftest import STAGE
from tests.support.tables import shared_moto_tables

APP = create_app(Settings(stage=STAGE, region="us-east-1", local_mode=True,
                          data_dir=tempfile.mkdtemp(prefix="tailspend-patfuzz-"), cursor_secret=b"fuzz"))
# Limits lifted: one token sends every request here, and a 429 would hide the route behind it.
APP.extensions["developer"].limiter = Limiter(Limits(pat_per_minute=10**6, ip_per_minute=10**6,
                                                     daily_requests=10**6, daily_creates=10**6))
# Examples and generated cases only: schemathesis's coverage phase (hundreds of boundary and
# negative cases per operation, ~90% of this file's time, built again by every xdist worker at
# collection) is what tests/contract/test_openapi_fuzz.py runs on every operation. What only
# this file proves, that a PAT with every scope reaches each operation without a 5xx, needs
# no boundary values.
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP, config=schemathesis.Config.from_dict(
    {"phases": {"coverage": {"enabled": False}}}))


@pytest.fixture(scope="module")
def pat_headers():
    with shared_moto_tables(STAGE):
        yield _mint_pat()


def _mint_pat() -> dict:
    APP.extensions["tailspend"].authenticator.identities.clear()
    APP.extensions["developer"].verifier.clear()
    client = APP.test_client()
    token = client.post("/dev/tokens", json={"email": "patfuzz@example.com"}).get_json()
    headers = {"Authorization": f"Bearer {token['accessToken']}"}
    assert client.post("/groups", headers=headers, json={"name": "F", "currency": "EUR"}).status_code == 201
    pat = client.post("/developer/tokens", headers=headers, json={
        "name": "fuzz", "scopes": ["groups:read", "expenses:write", "settlements:write"]}).get_json()
    return {"Authorization": f"Bearer {pat['token']}"}


@schema.parametrize()
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_no_operation_answers_a_pat_with_a_5xx(case, pat_headers):
    reply = case.call(headers=pat_headers)
    assert reply.status_code < 500, (case.method, case.path, reply.text)
