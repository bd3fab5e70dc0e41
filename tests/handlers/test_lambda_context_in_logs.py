"""Every Lambda handler's log lines carry its invocation (Powertools' inject_lambda_context),
and nothing their log group already says,
fed the canned events in events/ and local mode's context, as `sam local invoke -e` would."""
from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from app.handlers.time_left import LAMBDA_MAX_TIMEOUT_MS, seconds_left
from app.local.context import NO_DEADLINE_MS, LocalContext
from app.local.triggers import canned_event
from app.logs import SAME_IN_EVERY_LINE, logger
from app.realtime import publisher
from tests.handlers.test_handlers import lambda_env, load_handler  # noqa: F401
from tests.support.lambda_context import lambda_context

HANDLERS = Path(__file__).resolve().parents[2] / "app" / "handlers"


def _unreadable_message(name: str) -> dict:
    """The worker's canned SQS event with a body that is not JSON: the batch processor logs
    the failed record (the worker itself logs nothing on a message it has no row for)."""
    event = canned_event(name)
    event["Records"][0]["body"] = "not json"
    return event


# Each handler with an event that makes it log at INFO or above (a handler several schedules
# invoke with events of their own has one case per event: "<handler>:<schedule>").
CASES = {
    "account_deletion": lambda: _unreadable_message("account_deletion_sqs.json"),
    "api": lambda: canned_event("api_get_health.json"),
    "chat_worker": lambda: canned_event("chat_worker_sqs.json"),
    "hourly": lambda: canned_event("schedule_hourly.json"),
    "import_worker": lambda: canned_event("import_sqs.json"),
    "maintenance": lambda: canned_event("schedule_maintenance.json"),
    # A second schedule of the same function ("<handler>:<what>"): its constant input
    "maintenance:digests": lambda: canned_event("schedule_digests.json"),
    # A transient bounce: nothing to suppress, the count logged
    "mail_feedback": lambda: canned_event("sns_mail_feedback.json"),
    "notifications": lambda: canned_event("notifications_stream.json"),
    "profile_mirror": lambda: _unreadable_message("profile_mirror_sqs.json"),
    "projection": lambda: canned_event("realtime_groups_stream.json"),
    "provisioning": lambda: canned_event("cognito_post_confirmation.json"),
    "realtime_authorizer": lambda: canned_event("realtime_authorizer_connect.json"),
    "realtime_publisher": lambda: canned_event("realtime_groups_stream.json"),
    "receipt_worker": lambda: _unreadable_message("receipt_worker_sqs.json"),
    "recurring_bucket": lambda: canned_event("recurring_bucket_sqs.json"),
}


class _Collect(logging.Handler):
    """Formats records with the service's own JSON formatter, as CloudWatch would receive them."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logger.registered_formatter)
        self.lines: list = []

    def emit(self, record) -> None:
        self.lines.append(json.loads(self.format(record)))


class _Sink:
    def publish(self, channel, events) -> None:
        pass


def test_every_handler_module_has_a_case():
    entries = {path.stem for path in HANDLERS.glob("*.py")
               if re.search(r"^(def lambda_handler|lambda_handler =)", path.read_text(), re.M)}
    assert entries == {name.partition(":")[0] for name in CASES}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_handlers_log_lines_carry_the_lambda_context(lambda_env, name):
    handler = load_handler(name.partition(":")[0])
    context = lambda_context(function_name=f"tailspend-test-{name}")
    collect = _Collect()
    logger.addHandler(collect)
    logger.setLevel("INFO")
    publisher.use_transport(_Sink())
    try:
        handler.lambda_handler(CASES[name](), context)
    finally:
        publisher.use_transport(None)
        logger.setLevel("WARNING")
        logger.removeHandler(collect)
    assert collect.lines, f"{name} logged nothing for its canned event"
    for line in collect.lines:
        # The invocation, on every line; the function's name, ARN and memory are its log
        # group's (app.logs.GroupFormatter), so no line repeats them.
        assert line.get("function_request_id") == context.aws_request_id, line
        assert not set(SAME_IN_EVERY_LINE) & set(line), line


def test_local_mode_context_without_a_deadline_reads_as_none_to_the_handlers():
    # Maintenance keeps its own sweep budget and pushes their own timeout when nothing times
    # the invocation out: the handlers see None, not a day.
    assert NO_DEADLINE_MS > LAMBDA_MAX_TIMEOUT_MS
    assert seconds_left(LocalContext("maintenance")) is None
    assert 59 <= seconds_left(LocalContext.ending_in(60)) <= 60
    assert seconds_left(LocalContext.ending_in(-5)) == 0
