"""The HourlyTick and bucket-worker handlers fed the canned events in events/."""
from __future__ import annotations

import copy
import importlib
import json
import sys

import boto3
import pytest

import models
from app.local.triggers import canned_event
from app.recurring import templates
from models.groups import DUE_BUCKETS, RecurringExpense
from tests.ledger.helpers import assert_balance_matches_rows, make_group, make_user
from tests.recurring.helpers import as_request, slots, template_body
from tests.support.lambda_context import lambda_context

SCHEDULED_AT = canned_event("schedule_hourly.json")["time"]  # 2025-01-01T13:00:00Z


QUEUE_URL_ENV = "RECURRING_BUCKET_QUEUE_URL"


def _cold_start():
    """Load both handlers as a cold start does: their settings are read then, once."""
    loaded = {}
    for name in ("hourly", "recurring_bucket"):
        module_name = f"app.handlers.{name}"
        loaded[name] = (importlib.reload(sys.modules[module_name]) if module_name in sys.modules
                        else importlib.import_module(module_name))
    models.configure(stage="test", region="us-east-1", host=None)
    return loaded


@pytest.fixture
def handlers(aws, monkeypatch, tmp_path):
    monkeypatch.setenv("TAILSPEND_LOCAL", "1")
    monkeypatch.setenv("TAILSPEND_DATA_DIR", str(tmp_path))
    monkeypatch.delenv(QUEUE_URL_ENV, raising=False)
    return _cold_start()


@pytest.fixture
def due_group(aws):
    access, ids = make_group(make_user("handler@example.com"), guests=1)
    made = templates.create_template(access, as_request(template_body(ids[0], 500, ids, start="2025-01-01",
                                                           frequency="DAILY")))
    return access, made.RecurringId


def _sqs_event(bodies):
    template = canned_event("recurring_bucket_sqs.json")["Records"][0]
    records = []
    for index, body in enumerate(bodies):
        record = copy.deepcopy(template)
        record["messageId"] = f"m-{index}"
        record["body"] = body
        records.append(record)
    return {"Records": records}


def test_scheduled_event_runs_every_bucket_in_process_as_of_its_time(handlers, due_group):
    access, recurring_id = due_group
    result = handlers["hourly"].lambda_handler(canned_event("schedule_hourly.json"), lambda_context())
    json.dumps(result)
    assert result["created"] == 1 and result["now"] == "2025-01-01T13:00:00.000Z"
    assert slots(access.group_id) == ["2025-01-01"]
    assert_balance_matches_rows(access.group_id)


def test_deployed_tick_queues_one_message_per_bucket_and_the_worker_records_them(
        handlers, due_group, monkeypatch):
    access, _ = due_group
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="tailspend-test-recurring-buckets")["QueueUrl"]
    monkeypatch.setenv(QUEUE_URL_ENV, url)
    handlers = _cold_start()
    result = handlers["hourly"].lambda_handler(canned_event("schedule_hourly.json"), lambda_context())
    assert result == {"now": "2025-01-01T13:00:00.000Z", "bucketsSent": DUE_BUCKETS}
    assert slots(access.group_id) == []  # the tick itself records nothing
    bodies = []
    while True:
        batch = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
        if not batch:
            break
        bodies += [m["Body"] for m in batch]
    assert sorted(json.loads(b)["bucket"] for b in bodies) == sorted(RecurringExpense.buckets())
    mine = [b for b in bodies
            if json.loads(b)["bucket"] == RecurringExpense.bucket_of(access.group_id)]
    reply = handlers["recurring_bucket"].lambda_handler(_sqs_event(mine), lambda_context())
    assert reply == {"batchItemFailures": []}
    assert slots(access.group_id) == ["2025-01-01"]


def test_worker_takes_the_canned_sqs_event(handlers):
    reply = handlers["recurring_bucket"].lambda_handler(canned_event("recurring_bucket_sqs.json"),
                                                        lambda_context())
    assert reply == {"batchItemFailures": []}


def test_worker_reports_only_the_failed_bucket_for_redelivery(handlers):
    good = json.dumps({"bucket": "RECURRING#1", "now": "2025-01-01T13:00:00Z"})
    bad = json.dumps({"bucket": "RECURRING#2", "now": "not a time"})
    reply = handlers["recurring_bucket"].lambda_handler(_sqs_event([good, bad]), lambda_context())
    assert reply == {"batchItemFailures": [{"itemIdentifier": "m-1"}]}
