"""Lambda entry points fed the canned events in events/, as `sam local invoke -e` would."""
from __future__ import annotations

import copy
import importlib
import json
import sys
import uuid

import pytest
from moto import mock_aws

import models
from app.auth.local_issuer import subject_for_email
from app.local.triggers import canned_event
from models.groups import Group
from tests.support.tables import create_all_tables
from tests.support.lambda_context import lambda_context

STAGE = "test"


@pytest.fixture(scope="module")
def lambda_env(tmp_path_factory):
    """The environment a deployed local-mode function sees, and moto tables behind it."""
    with pytest.MonkeyPatch.context() as patch, mock_aws():
        patch.setenv("TAILSPEND_LOCAL", "1")
        patch.setenv("TAILSPEND_STAGE", STAGE)
        patch.setenv("TAILSPEND_DATA_DIR", str(tmp_path_factory.mktemp("lambda")))
        patch.delenv("DYNAMODB_ENDPOINT", raising=False)
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        yield
    models.configure(stage=STAGE, host=None)


def load_handler(name: str):
    """Import (or re-import) a handler module so its import-time setup reads lambda_env."""
    module_name = f"app.handlers.{name}"
    module = (importlib.reload(sys.modules[module_name]) if module_name in sys.modules
              else importlib.import_module(module_name))
    models.configure(stage=STAGE, region="us-east-1", host=None)
    return module


@pytest.fixture(scope="module")
def api(lambda_env):
    return load_handler("api")


@pytest.fixture(scope="module")
def token(api):
    """A real local token for a user provisioned through the handler's own app."""
    reply = api.app.test_client().post("/dev/tokens", json={"email": "lambda@example.com",
                                                            "displayName": "Lambda User"})
    assert reply.status_code == 201, reply.get_json()
    user_id = reply.get_json()["userId"]
    issuer = api.app.extensions["tailspend"].issuer
    return issuer.mint(subject_for_email("lambda@example.com"),
                       email="lambda@example.com"), user_id


def with_token(event: dict, token: str) -> dict:
    event = copy.deepcopy(event)
    # HTTP APIs hand Lambda lower-case header names.
    event["headers"]["authorization"] = f"Bearer {token}"
    event["multiValueHeaders"]["authorization"] = [f"Bearer {token}"]
    return event


def call(api, event: dict) -> tuple:
    """(status, headers, parsed JSON body) of an API Gateway proxy response."""
    response = api.lambda_handler(event, lambda_context())
    assert set(response) >= {"statusCode", "headers", "body"}
    assert response.get("isBase64Encoded") in (False, None)
    return int(response["statusCode"]), response["headers"], json.loads(response["body"])


# -- API --------------------------------------------------------------------------------------

def test_api_handler_serves_health_from_the_canned_event(api):
    status, headers, body = call(api, canned_event("api_get_health.json"))
    assert status == 200
    assert body == {"status": "ok"}
    assert headers["Content-Type"].startswith("application/json")


def test_api_handler_uses_the_api_gateway_request_id(api):
    event = canned_event("api_get_health.json")
    _, headers, _ = call(api, event)
    assert headers.get("X-Request-Id") == event["requestContext"]["requestId"]


def test_api_handler_logs_the_platform_id_the_clients_apart_and_the_latency(api):
    import logging

    from app.logs import logger

    lines = []

    class Collect(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(logger.registered_formatter.format(record)))

    event = copy.deepcopy(canned_event("api_get_health.json"))
    event["headers"]["x-request-id"] = "client-chosen"
    event["multiValueHeaders"]["x-request-id"] = ["client-chosen"]
    handler = Collect()
    logger.addHandler(handler)
    logger.setLevel("INFO")
    try:
        _, headers, _ = call(api, event)
    finally:
        logger.setLevel("WARNING")
        logger.removeHandler(handler)
    (line,) = [entry for entry in lines if entry.get("message") == "request"]
    assert line["request_id"] == event["requestContext"]["requestId"] == headers["X-Request-Id"]
    assert line["client_request_id"] == "client-chosen"
    assert line["latency_ms"] >= 0 and line["status"] == 200


def test_api_handler_get_users_me_with_a_real_local_token(api, token):
    status, _, body = call(api, with_token(canned_event("api_get_users_me.json"), token[0]))
    assert status == 200
    assert body["userId"] == token[1]
    assert body["email"] == "lambda@example.com"
    assert body["displayName"] == "Lambda User"


def test_api_handler_get_users_me_with_the_placeholder_token_is_401(api):
    status, _, body = call(api, canned_event("api_get_users_me.json"))
    assert status == 401
    assert body["error"]["code"] == "UNAUTHENTICATED"


def test_api_handler_post_groups_creates_the_group(api, token):
    status, _, body = call(api, with_token(canned_event("api_post_groups.json"), token[0]))
    assert status == 201, body
    assert (body["name"], body["currency"], body["createdBy"]) == ("Flat 3B", "EUR", token[1])
    assert body["myRole"] == "OWNER"
    stored = Group.get(*Group.key(body["groupId"]))
    assert (stored.Name, stored.CreatedBy) == ("Flat 3B", token[1])


def test_api_handler_post_groups_replays_with_an_idempotency_key(api, token):
    event = with_token(canned_event("api_post_groups.json"), token[0])
    event["headers"]["idempotency-key"] = "lambda-key-1"
    status, headers, first = call(api, event)
    assert status == 201
    status, headers, again = call(api, event)
    assert status == 201 and headers.get("Idempotent-Replayed") == "true"
    assert again == first


def test_api_handler_unknown_path_is_404_envelope(api, token):
    status, _, body = call(api, with_token(canned_event("api_get_missing.json"), token[0]))
    assert status == 404
    assert body["error"]["code"] == "NOT_FOUND"
    status, _, body = call(api, canned_event("api_get_missing.json"))  # placeholder token
    assert status == 404


def test_api_handler_single_valued_query_parameters_reach_the_app(api, token):
    event = with_token(canned_event("api_get_users_me.json"), token[0])
    event["path"] = "/admin/users"
    event["queryStringParameters"] = {"limit": "0"}
    status, _, body = call(api, event)
    assert status == 400  # the parameter arrived and was validated (limit >= 1)
    assert "limit" in body["error"]["details"]


def test_the_canned_api_events_are_http_api_payload_1_0_through_cloudfront():
    for name in ("api_get_health.json", "api_get_missing.json", "api_get_users_me.json",
                 "api_post_groups.json"):
        event = canned_event(name)
        assert event["version"] == "1.0" and event["requestContext"]["stage"] == "$default", name
        assert event["path"] == event["requestContext"]["path"], name  # no stage prefix
        assert event["headers"]["x-origin-verify"] and event["headers"]["cloudfront-viewer-address"]


@pytest.fixture
def edge_api(lambda_env):
    """The API handler as deployed behind CloudFront: ORIGIN_VERIFY_SECRET_ARN set, the secret
    a key ring whose current value is the one the canned events carry."""
    import boto3

    arn = boto3.client("secretsmanager", region_name="us-east-1").create_secret(
        Name=f"origin-verify-{uuid.uuid4().hex}",
        SecretString=json.dumps({"current": "canned-origin-secret", "previous": "last-one"}))["ARN"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORIGIN_VERIFY_SECRET_ARN", arn)
        yield load_handler("api")
    load_handler("api")  # back to the unconfigured handler the other tests use


def test_behind_cloudfront_a_request_with_the_origin_header_is_served(edge_api):
    status, _, body = call(edge_api, canned_event("api_get_health.json"))
    assert (status, body) == (200, {"status": "ok"})
    event = canned_event("api_get_health.json")
    event["headers"]["x-origin-verify"] = "last-one"  # the ring's previous value: a rotation
    assert call(edge_api, event)[0] == 200


@pytest.mark.parametrize("value", [None, "", "canned-origin-secret-but-longer", "wrong"])
def test_a_direct_call_to_the_api_url_is_refused_with_a_403_envelope(edge_api, token, value):
    event = with_token(canned_event("api_get_users_me.json"), token[0])
    event["headers"].pop("x-origin-verify")
    if value is not None:
        event["headers"]["x-origin-verify"] = value
    status, headers, body = call(edge_api, event)
    assert status == 403 and headers["Content-Type"] == "application/json"
    assert body == {"error": {"code": "FORBIDDEN", "message": "Call the API through its public URL.",
                              "details": {}}}


def test_without_the_setting_the_origin_header_is_not_needed(api):
    event = canned_event("api_get_health.json")
    del event["headers"]["x-origin-verify"]
    assert call(api, event)[0] == 200


# -- schedules --------------------------------------------------------------------------------

@pytest.mark.parametrize("name,event_file", [("hourly", "schedule_hourly.json"),
                                             ("maintenance", "schedule_maintenance.json")])
def test_schedule_handlers_return_a_json_serialisable_dict(lambda_env, name, event_file):
    handler = load_handler(name)
    result = handler.lambda_handler(canned_event(event_file), lambda_context())
    assert isinstance(result, dict)
    json.dumps(result)


# -- notifications stream ---------------------------------------------------------------------

@pytest.fixture
def notifications(lambda_env):
    return load_handler("notifications")


def sequence_numbers(event: dict) -> list:
    return [record["dynamodb"]["SequenceNumber"] for record in event["Records"]]


def test_notifications_handler_reports_no_failures_for_the_canned_batch(notifications):
    result = notifications.lambda_handler(canned_event("notifications_stream.json"), lambda_context())
    assert result == {"batchItemFailures": []}


def failures(notifications, event: dict) -> list:
    result = notifications.lambda_handler(event, lambda_context())
    return [failure["itemIdentifier"] for failure in result["batchItemFailures"]]


@pytest.mark.parametrize("corrupt_index", [0, 1])
def test_notifications_record_with_unknown_entity_type_fails_alone(notifications,
                                                                   corrupt_index):
    event = canned_event("notifications_stream.json")
    event["Records"][corrupt_index]["dynamodb"]["NewImage"]["EntityType"] = {"S": "BOGUS"}
    assert failures(notifications, event) == [sequence_numbers(event)[corrupt_index]]


def test_notifications_record_without_new_image_fails_alone(notifications):
    event = canned_event("notifications_stream.json")
    del event["Records"][1]["dynamodb"]["NewImage"]
    assert failures(notifications, event) == [sequence_numbers(event)[1]]


def test_notifications_record_without_entity_type_fails_alone(notifications):
    """A NewImage that is not recognisably an outbox EVENT must not be acknowledged."""
    event = canned_event("notifications_stream.json")
    del event["Records"][0]["dynamodb"]["NewImage"]["EntityType"]
    assert failures(notifications, event) == [sequence_numbers(event)[0]]


# -- metrics (EMF) ------------------------------------------------------------------------------

def emitted(stdout: str) -> dict:
    """Metric name -> summed value over the EMF lines a handler printed, with their namespace."""
    found = {}
    for line in stdout.splitlines():
        if line.startswith("{") and '"_aws"' in line:
            document = json.loads(line)
            for directive in document["_aws"]["CloudWatchMetrics"]:
                for metric in directive["Metrics"]:
                    value = document[metric["Name"]]
                    total = sum(value) if isinstance(value, list) else value
                    key = (directive["Namespace"], metric["Name"])
                    found[key] = found.get(key, 0) + total
    return found


def test_the_api_handler_counts_an_expense_written_in_its_invocation(api, token, capsys):
    """The alarm count is flushed as an EMF line by the handler that wrote the expense."""
    status, _, group = call(api, with_token(canned_event("api_post_groups.json"), token[0]))
    assert status == 201, group
    event = with_token(canned_event("api_post_groups.json"), token[0])
    event["path"] = f"/groups/{group['groupId']}/expenses"
    me = group["myParticipantId"]
    event["body"] = json.dumps({"description": "Dinner", "date": "2026-11-28", "amount": 1200,
                                "payments": [{"participantId": me, "amount": 1200}],
                                "splitMode": "EQUAL", "splits": [{"participantId": me}]})
    for headers in (event["headers"], event["multiValueHeaders"]):
        headers.pop("content-length", None)
    capsys.readouterr()

    status, _, body = call(api, event)

    assert status == 201, body
    assert emitted(capsys.readouterr().out) == {("TailSpend", "ExpensesWritten"): 1}

