"""Push delivery under the failures only real peers show: dead SNS endpoints (moto's SNS, and
the exact errors AWS answers, injected at the botocore call), a push router that cannot be
built, and a Web Push service that hangs (a real slow HTTP server on 127.0.0.1)."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import boto3
import pytest
from botocore.exceptions import ClientError

from app.notifications import push, vapid
from tests.support.settings import installed
from tests.notifications.conftest import pending_records, run_worker
from tests.notifications.test_push_providers import _restore, _swap_provider, endpoints
from tests.notifications.test_web_push import subscribe
from tests.notifications.test_worker import add_expense, duo, history  # noqa: F401
from tests.support.lambda_context import lambda_context


def _error(code: str, message: str, operation: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": message}}, operation)


class _Inject:
    """Raise AWS's answer for chosen SNS operations before the call leaves botocore (the
    documented ``before-call`` event); every other call reaches moto."""

    def __init__(self, client) -> None:
        self.errors: dict = {}
        client.meta.events.register("before-call.sns.*", self._before)

    def _before(self, model, **_kwargs):
        error = self.errors.get(model.name)
        if error is not None:
            raise error


@pytest.fixture
def sns_push(app):
    sns = boto3.client("sns", region_name="us-east-1")
    ios = sns.create_platform_application(Name="tailspend-ios", Platform="APNS",
                                          Attributes={})["PlatformApplicationArn"]
    provider = push.SnsProvider({push.IOS: ios}, client=sns)
    previous = _swap_provider(push.PlatformRouter({push.IOS: provider}))
    yield SimpleNamespace(sns=sns, ios=ios, inject=_Inject(sns))
    _restore(previous)


def _deliver() -> None:
    assert run_worker(pending_records()) == []  # no record fails, whatever push answered


def _devices(ctx) -> list:
    from models.notifications import Device
    return [device.Token for device in Device.of_user(ctx.bob)]


def test_a_dead_endpoint_whose_delete_is_refused_still_drops_the_device_and_never_fails(
        duo, sns_push):
    _deliver()
    add_expense(duo)
    _deliver()
    endpoint, _ = endpoints(sns_push.ios)["bob-phone"]
    sns_push.sns.set_endpoint_attributes(EndpointArn=endpoint.arn,
                                         Attributes={"Enabled": "false"})
    # The worker's role lacked sns:DeleteEndpoint: the delete is refused.
    sns_push.inject.errors["DeleteEndpoint"] = _error(
        "AuthorizationError", "not authorized to perform: SNS:DeleteEndpoint", "DeleteEndpoint")
    add_expense(duo, description="Second")
    _deliver()
    assert "bob-phone" not in _devices(duo)
    assert any("Second" in item["body"] for item in history(duo.client, duo.bob_h))


@pytest.mark.parametrize("code,message", [
    ("InvalidParameter",
     "Invalid parameter: TargetArn Reason: No endpoint found for the target arn specified"),
    ("EndpointDisabled", "Endpoint is disabled"),
])
def test_publish_naming_a_dead_endpoint_removes_device_and_endpoint(duo, sns_push, code, message):
    _deliver()
    sns_push.inject.errors["Publish"] = _error(code, message, "Publish")
    add_expense(duo)
    _deliver()
    assert "bob-phone" not in _devices(duo)
    assert "bob-phone" not in endpoints(sns_push.ios)  # sns:DeleteEndpoint
    sns_push.inject.errors.clear()
    add_expense(duo, description="Later")
    _deliver()  # nothing left to try for Bob: no failure, no push
    assert "bob-phone" not in endpoints(sns_push.ios)


def test_publish_deleted_under_us_is_gone_too(duo, sns_push):
    """Another worker deleted the endpoint between our Create and Publish: moto's own NotFound."""
    _deliver()

    def delete_first(params, **_kwargs):
        boto3.client("sns", region_name="us-east-1").delete_endpoint(
            EndpointArn=params["TargetArn"])

    sns_push.sns.meta.events.register("before-parameter-build.sns.Publish", delete_first)
    add_expense(duo)
    _deliver()
    assert "bob-phone" not in _devices(duo)


def test_a_token_sns_refuses_removes_the_device(duo, sns_push):
    _deliver()
    sns_push.inject.errors["CreatePlatformEndpoint"] = _error(
        "InvalidParameter", "Invalid parameter: Token Reason: iOS device tokens must be no more "
        "than 400 hexadecimal characters", "CreatePlatformEndpoint")
    add_expense(duo)
    _deliver()
    assert "bob-phone" not in _devices(duo)


def test_a_message_sns_refuses_keeps_the_device(duo, sns_push):
    """InvalidParameter about our message (not the endpoint) is our fault, not the device's."""
    _deliver()
    sns_push.inject.errors["Publish"] = _error(
        "InvalidParameter", "Invalid parameter: Message too long", "Publish")
    add_expense(duo)
    _deliver()
    assert "bob-phone" in _devices(duo)


def test_a_push_router_that_cannot_be_built_loses_pushes_not_the_event(duo, recorder):
    """An unreadable VAPID key (here: a parameter that does not exist) once raised out of
    dispatch after the history rows were written: the event failed, and its retry (rows
    already there) pushed nothing anyway."""
    from moto import mock_aws
    _deliver()
    push._current.pop("provider", None)
    with installed(local_mode=False, vapid_private_key="",
                   vapid_private_key_parameter="/tailspend/test/missing"), mock_aws():
        add_expense(duo)
        _deliver()
    assert "provider" not in push._current  # built again on the next event
    assert pending_records() == []
    assert history(duo.client, duo.bob_h)[0]["type"] == "EXPENSE_ADDED"


# -- one slow push service must not hold up the others --------------------------------------

class _Service:
    """A push service on 127.0.0.1 answering 201 after ``delay`` seconds (threaded: each
    request its own thread, as a real service would serve them)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.received, self.delay, self.release = [], delay, threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append((self.path, time.monotonic()))
                service.release.wait(service.delay)
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def test_a_hanging_push_service_costs_the_record_one_deadline_and_others_get_theirs(
        duo, monkeypatch):
    key = vapid.new_private_key()
    previous = _swap_provider(push.WebPushProvider(key, "mailto:ops@example.com", local=True))
    slow, fast = _Service(delay=30.0), _Service()
    monkeypatch.setattr(push, "SEND_DEADLINE_S", 1.5)
    try:
        _deliver()
        subscribe(duo.client, duo.bob_h, slow.url + "/sub/slow")
        for n in range(3):
            subscribe(duo.client, duo.bob_h, fast.url + f"/sub/fast{n}")
        add_expense(duo)
        records = pending_records()
        started = time.monotonic()
        assert run_worker(records) == []
        elapsed = time.monotonic() - started
    finally:
        slow.close()
        fast.close()
        _restore(previous)
    assert sorted(path for path, _ in fast.received) == ["/sub/fast0", "/sub/fast1", "/sub/fast2"]
    assert [path for path, _ in slow.received] == ["/sub/slow"]
    assert elapsed < 1.5 + 3.0, elapsed  # the deadline, plus the record's DynamoDB work (loaded CI)
    # The slow device was only slow: it stays registered.
    tokens = [json.loads(t)["endpoint"] for t in _devices(duo) if t.startswith("{")]
    assert slow.url + "/sub/slow" in tokens


def test_each_push_has_short_connect_and_read_timeouts():
    provider = push.WebPushProvider(vapid.new_private_key(), "mailto:ops@example.com", local=True)
    connect, read = provider.timeout
    assert connect <= 5 and read <= 5
    config = push.SnsProvider({}).client.meta.config
    assert config.connect_timeout <= 5 and config.read_timeout <= 5
    assert config.max_pool_connections >= push.MAX_PARALLEL_SENDS


def test_pushes_give_up_before_the_worker_invocation_times_out(duo):
    from app.handlers import notifications

    previous = _swap_provider(push.WebPushProvider(vapid.new_private_key(),
                                                   "mailto:ops@example.com", local=True))
    slow = _Service(delay=30.0)
    try:
        _deliver()
        subscribe(duo.client, duo.bob_h, slow.url + "/sub/slow")
        add_expense(duo)
        records = pending_records()
        started = time.monotonic()
        # 1 s left after the worker's margin: less than one record's push deadline (10 s).
        result = notifications.lambda_handler(
            {"Records": records}, lambda_context(notifications.END_MARGIN_S + 1.0))
        elapsed = time.monotonic() - started
    finally:
        slow.close()
        _restore(previous)
    assert result["batchItemFailures"] == [] and pending_records() == []
    assert elapsed < 1.0 + 3.0, elapsed
