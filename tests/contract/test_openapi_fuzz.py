"""Every documented operation, fed generated input in-process: no 5xx, replies match the document.

Runs with a signed-in caller who owns a real group, so group routes are reached with a mix of
real and generated ids. New routes are covered automatically once they are documented."""
from __future__ import annotations

import collections
import json
import re
import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from app import create_app
from app.config import Settings
from app.developer.limits import Limiter, Limits
from tests.conftest import STAGE

# The schema is read at collection time (no database needed for /openapi.json); requests run
# inside the `aws` fixture, which the caller fixture activates for each operation.
SETTINGS = Settings(stage=STAGE, region="us-east-1", local_mode=True,
                    data_dir=tempfile.mkdtemp(prefix="tailspend-fuzz-"), cursor_secret=b"fuzz")
APP = create_app(SETTINGS)
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP)
# The fuzzer sends floods of missing and bad credentials from one address (and OAuth requests
# from one client), which the per-IP and per-client limits rightly turn into 429
# (tests/developer covers the limits); here every reply is judged, so those two are lifted.
# Every other limit stays as the app is deployed: the per-user window is off by default (it
# costs a DynamoDB write per request, app/developer/quotas.py), so it stays off here. Lifted
# to 10**6 when it was on by default, it had become a window the deployed app does not have,
# and a quarter of this module's CPU.
LIFTED = {"ip_per_minute": 10**6, "oauth_per_minute": 10**6}
APP.extensions["developer"].limiter = Limiter(Limits.from_settings(SETTINGS)._replace(**LIFTED))
# Opaque signed cursors and ids that must name existing rows cannot be described by a
# schema: a well-formed but forged cursor is rightly a 400. Every other check stays on.
positive_data_acceptance = schemathesis.checks.positive_data_acceptance
# A generated body past the 64 KiB cap is rightly refused with 413 before it is parsed;
# schemathesis does not count 413 as a rejection, so that one check is skipped for it.
negative_data_rejection = schemathesis.checks.negative_data_rejection


# The coverage phase sends one valid request per value of every enum: with the ~160 ISO 4217
# codes in a dozen bodies and queries that was ~5,000 of the run's ~9,300 requests (most of
# its time), each the same code path with another code. A currency's code is judged by one
# table (app/money/currencies.py, proven over every code in tests/property/test_fx.py and
# tests/ledger); here each enum keeps its first ENUM_VALUES values, plus codes whose minor
# units differ from the usual two. Every other coverage case, and the fuzzing phase (which
# draws any code), stays.
ENUM_VALUES = 12
ODD_EXPONENTS = {"JPY", "KRW", "BHD", "KWD", "CLF", "UYW"}
# schemathesis names a body property's case "Object with valid '<property>' value: Enum value",
# and a parameter's case scenario "enum_value" with the parameter named;
# test_the_enum_sample_sees_the_coverage_phase fails if either changes.
ENUM_CASE = re.compile(r"valid '([^']+)' value: Enum value$")
enum_cases = collections.Counter()


@schema.hook
def filter_case(context, case):
    data = getattr(getattr(case.meta, "phase", None), "data", None)
    match = ENUM_CASE.search(getattr(data, "description", "") or "")
    if match is not None:
        name = match.group(1)
    elif str(getattr(data, "scenario", "")) == "enum_value" and getattr(data, "parameter", None):
        name = data.parameter  # a query or path parameter's enum: "Enum value" alone
    else:
        return True
    enum_cases[(case.operation.label, name)] += 1
    named = [part.get(name) for part in (case.body, case.query) if isinstance(part, dict)]
    return enum_cases[(case.operation.label, name)] <= ENUM_VALUES or \
        any(value in ODD_EXPONENTS for value in named)


def test_the_fuzzed_app_has_the_deployed_limits_but_the_two_lifted():
    assert APP.extensions["developer"].limits == \
        Limits.from_settings(SETTINGS)._replace(**LIFTED)
    assert APP.extensions["developer"].limits.app_per_minute == 0  # off, as deployed


def test_the_enum_sample_sees_the_coverage_phase():
    """Collecting this module built every operation's coverage cases through the hook above."""
    assert enum_cases[("POST /groups", "currency")] > 100  # one per ISO 4217 code
    assert enum_cases[("GET /fx/rates", "base")] > 100


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
