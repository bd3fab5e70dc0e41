"""Every function that dispatches events builds one push router, from the settings push declares.

The outbox sweep (the maintenance function) dispatches exactly as the stream worker does, so it
needs the same settings and permissions (push.PUSH_ENVIRONMENT, push.PUSH_AWS_ACTIONS): given
them, a recovered event is pushed through SNS; the template test checks each function gets them."""
from __future__ import annotations

import json

import boto3
import pytest

from app.config import Settings
from app.notifications import push, redispatch
from tests.support.settings import cold_start
from tests.notifications.conftest import pending_records, run_worker
from tests.notifications.test_handlers_and_sweeps import maintenance
from tests.notifications.test_push_providers import endpoints
from tests.notifications.test_worker import add_expense, duo  # noqa: F401


@pytest.fixture
def deployed_push(app, monkeypatch):
    """The environment a deployed function gets: no local mode, SNS platform applications,
    the VAPID key as an SSM SecureString; the process builds its router on first use."""
    sns = boto3.client("sns", region_name="us-east-1")
    ios = sns.create_platform_application(Name="tailspend-ios", Platform="APNS",
                                          Attributes={})["PlatformApplicationArn"]
    from app.notifications import vapid
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name="/tailspend/test/vapid", Value=vapid.new_private_key(), Type="SecureString")
    env = {"SNS_IOS_APPLICATION_ARN": ios, "VAPID_PRIVATE_KEY_PARAMETER": "/tailspend/test/vapid",
           "VAPID_SUBJECT": "mailto:ops@example.com"}
    previous = push._current.pop("provider", None)
    monkeypatch.delenv("TAILSPEND_LOCAL", raising=False)
    monkeypatch.delenv("VAPID_PRIVATE_KEY", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with cold_start():  # this process, and any handler the test loads, read them at start
        yield ios
    push._current.pop("provider", None)
    if previous is not None:
        push.use(previous)


def test_the_outbox_sweep_pushes_a_recovered_event_through_sns(duo, deployed_push, monkeypatch):
    assert run_worker(pending_records()) == []  # the join events
    add_expense(duo, description="Missed")  # the stream worker never saw this one
    push._current.pop("provider", None)  # a fresh maintenance container
    monkeypatch.setattr(redispatch, "STALE_SECONDS", 0)
    assert maintenance("outbox")["redispatchedEvents"] == 1
    _, published = endpoints(deployed_push)["bob-phone"]
    assert json.loads(published[-1]["APNS"])["data"]["type"] == "EXPENSE_ADDED"
    router = push.provider()
    assert isinstance(router.by_platform[push.WEB], push.WebPushProvider)


def test_the_router_reads_only_the_settings_push_declares(deployed_push):
    import ast
    import inspect

    from tests.deploy import code_needs

    router = push.provider()
    assert set(router.by_platform) == {push.IOS, push.WEB}
    fields = code_needs.settings_fields()  # Settings field -> the variables it comes from
    read = {node.attr for node in ast.walk(ast.parse(inspect.getsource(push)))
            if isinstance(node, ast.Attribute)} & set(fields)
    variables = set().union(*(fields[name] for name in read))
    assert variables == set(push.PUSH_ENVIRONMENT), variables ^ set(push.PUSH_ENVIRONMENT)


def test_a_deployed_router_without_any_setting_says_so(caplog):
    import logging
    with caplog.at_level(logging.WARNING):
        router = push.for_settings(Settings())
    assert router.by_platform == {}
    assert "push.unconfigured" in caplog.text
