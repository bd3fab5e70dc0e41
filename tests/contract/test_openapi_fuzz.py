"""Every documented operation, fed generated input in-process: no 5xx, replies match the document.

Runs with a signed-in caller who owns a real group, so group routes are reached with a mix of
real and generated ids. New routes are covered automatically once they are documented."""
from __future__ import annotations

import json
import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from app import create_app
from app.config import Settings
from app.services.developer.limits import Limiter, Limits
from tests.conftest import STAGE

# The schema is read at collection time (no database needed for /openapi.json); requests run
# inside the `aws` fixture, which the caller fixture activates for each operation.
APP = create_app(Settings(stage=STAGE, region="us-east-1", local_mode=True,
                          data_dir=tempfile.mkdtemp(prefix="tailspend-fuzz-"),
                          cursor_secret=b"fuzz"))
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP)
# The fuzzer sends floods of missing and bad credentials from one address, which the per-IP
# limit rightly turns into 429 (tests/developer covers the limits); here every reply is judged.
APP.extensions["developer"].limiter = Limiter(Limits(app_per_minute=10**6, ip_per_minute=10**6,
                                                    oauth_per_minute=10**6))
# Opaque signed cursors and ids that must name existing rows cannot be described by a
# schema: a well-formed but forged cursor is rightly a 400. Every other check stays on.
positive_data_acceptance = schemathesis.checks.positive_data_acceptance
# A generated body past the 64 KiB cap is rightly refused with 413 before it is parsed;
# schemathesis does not count 413 as a rejection, so that one check is skipped for it.
negative_data_rejection = schemathesis.checks.negative_data_rejection


@pytest.fixture
def caller(aws):
    APP.extensions["tailspend"].authenticator.identities.clear()  # users of earlier tables
    client = APP.test_client()
    token = client.post("/dev/tokens", json={"email": "fuzz@example.com", "admin": True})
    headers = {"Authorization": f"Bearer {token.get_json()['accessToken']}"}
    reply = client.post("/groups", headers=headers, json={"name": "Fuzz", "currency": "EUR"})
    assert reply.status_code == 201
    return headers


@schema.parametrize()
@settings(max_examples=15, deadline=None, derandomize=True,  # CI runs the same cases every time
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_every_operation_handles_generated_input(case, caller):
    excluded = [positive_data_acceptance]
    body = case.body if isinstance(case.body, (dict, list)) else None
    if body is not None and len(json.dumps(body)) > APP.config["MAX_CONTENT_LENGTH"] // 2:
        excluded.append(negative_data_rejection)  # may be refused with 413, unparsed
    case.call_and_validate(headers=caller, excluded_checks=excluded)
