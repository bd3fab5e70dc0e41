"""A lone surrogate in a Lambda event's query string is a 400 envelope, not a crashed invoke."""
from __future__ import annotations

import json

from app.local.triggers import canned_event
from tests.handlers.test_handlers import api, lambda_env  # noqa: F401 — fixtures
from tests.support.lambda_context import lambda_context


def test_lone_surrogate_in_query_string_is_400_through_the_lambda_handler(api):
    event = canned_event("api_get_health.json")
    event["queryStringParameters"] = {"q": "\ud800"}
    event["multiValueQueryStringParameters"] = {"q": ["\ud800"]}
    reply = api.lambda_handler(event, lambda_context())
    assert reply["statusCode"] in ("400", 400)
    assert json.loads(reply["body"])["error"]["code"] == "VALIDATION_ERROR"
