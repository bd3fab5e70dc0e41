"""Push providers behind one interface: Web Push (VAPID), APNs and FCM (mobile_push), SNS mobile
push, and a recorder.

A provider answers SENT, GONE (the token is dead: the caller removes the device) or FAILED
(transient: logged, not retried). Push is a side channel: the history row is the record, so
a failed push never fails the event, and a replayed event never pushes twice (the worker
pushes only for history rows it created itself).

Pushes are slow peers we do not control, and the stream worker is serial per shard batch: one
record's pushes go out together (:func:`send_all`, a bounded pool) with short connect/read
timeouts and one deadline for the lot, so a push service that hangs costs a record at most
``SEND_DEADLINE_S``, never the shard."""
from __future__ import annotations

import json
import re
import contextlib
import contextvars
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Dict, List, Optional, Protocol, Sequence

from app import config, metrics
from app.config import Settings
from app.logs import logger
from app.core import addresses
from app.notifications import endpoints
from app.notifications.delivery import (FAILED, GONE, PUSH_TTL_SECONDS, SENT, TIMED_OUT, alert,
                                        apns_payload)

WEB, IOS, ANDROID = "WEB", "IOS", "ANDROID"
PLATFORMS = (IOS, ANDROID, WEB)
# SNS names the endpoint that already holds a token in its InvalidParameter message.
_EXISTING_ENDPOINT = re.compile(r"Endpoint (arn:\S+) already exists")
# Publish to an endpoint that is gone: InvalidParameter naming the TargetArn (AWS), NotFound.
_NO_ENDPOINT = re.compile(r"TargetArn|[Ee]ndpoint does not exist|No endpoint found")
# One push: connect and read timeouts (seconds). A push service answers in well under a second.
CONNECT_TIMEOUT_S = 3.05
READ_TIMEOUT_S = 5.0
# One record's pushes: at most this many at once, and all of them within this deadline.
MAX_PARALLEL_SENDS = 16
SEND_DEADLINE_S = 10.0
# The invocation's own end (time.monotonic()), when the caller set one: no record's pushes
# may keep a batch past the function's timeout (a timed-out batch is retried whole).
_invocation_end: contextvars.ContextVar = contextvars.ContextVar("push_invocation_end",
                                                                 default=None)
# What from_env reads: every function that dispatches events (the notification worker and the
# maintenance function's outbox sweep) needs these settings and PUSH_AWS_ACTIONS.
PUSH_ENVIRONMENT = ("VAPID_PRIVATE_KEY", "VAPID_PRIVATE_KEY_PARAMETER", "VAPID_SUBJECT",
                    "SNS_IOS_APPLICATION_ARN", "SNS_ANDROID_APPLICATION_ARN", "APNS_KEY_PARAMETER",
                    "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC", "APNS_ENVIRONMENT",
                    "FCM_SERVICE_ACCOUNT_PARAMETER", "TAILSPEND_LOCAL")
PUSH_AWS_ACTIONS = ("ssm:GetParameter", "sns:CreatePlatformEndpoint", "sns:Publish",
                    "sns:DeleteEndpoint")


@dataclass(frozen=True)
class Message:
    title: str
    body: str
    type: str
    group_id: Optional[str] = None
    resource_id: Optional[str] = None
    notification_id: Optional[str] = None

    def data(self) -> dict:
        return {"title": self.title, "body": self.body, "type": self.type,
                "groupId": self.group_id, "resourceId": self.resource_id,
                "notificationId": self.notification_id}


class Provider(Protocol):
    def send(self, platform: str, token: str, message: Message) -> str: ...


class RecordingProvider:
    """Local mode and tests: remembers every push; tokens in ``gone`` answer GONE."""

    def __init__(self) -> None:
        self.sent: List[tuple] = []
        self.gone: set = set()
        self._lock = threading.Lock()

    def send(self, platform: str, token: str, message: Message) -> str:
        if token in self.gone:
            return GONE
        with self._lock:
            self.sent.append((platform, token, message))
        return SENT


class WebPushProvider:
    """RFC 8030 push with RFC 8291 (aes128gcm) encryption and RFC 8292 VAPID, via pywebpush."""

    def __init__(self, private_key: str, subject: str,
                 timeout: tuple = (CONNECT_TIMEOUT_S, READ_TIMEOUT_S), *,
                 local: bool = False) -> None:
        self.private_key, self.subject, self.timeout = private_key, subject, timeout
        self.local = local  # local mode's loopback exception (notifications.endpoints)

    def send(self, platform: str, token: str, message: Message) -> str:
        from pywebpush import WebPushException, webpush

        try:
            subscription = json.loads(token)
        except ValueError:
            return GONE  # registration validates this; a row that fails it can never work
        try:  # SSRF: resolve and check the host right before the POST (see endpoints)
            endpoints.check_before_send(subscription.get("endpoint"), local=self.local)
        except endpoints.Refused:
            logger.warning("push.web_endpoint_refused")
            return GONE
        except addresses.Unresolvable:
            logger.warning("push.web_unresolvable")
            return FAILED
        try:
            webpush(subscription, json.dumps(message.data()), vapid_private_key=self.private_key,
                    vapid_claims={"sub": self.subject}, content_encoding="aes128gcm",
                    ttl=PUSH_TTL_SECONDS, timeout=self.timeout,
                    requests_session=endpoints.session())  # follows no redirect
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):  # the push service forgot the subscription
                return GONE
            logger.warning("push.web_failed", extra={"status": status})
            return FAILED
        except OSError:  # connection errors from requests subclass OSError
            logger.warning("push.web_unreachable")
            return FAILED
        return SENT


class SnsProvider:
    """SNS mobile push: a platform endpoint per token (SNS returns the existing one)."""

    def __init__(self, application_arns: Dict[str, str], client=None) -> None:
        self.application_arns = application_arns
        self._client = client

    @property
    def client(self):
        if self._client is None:
            import boto3
            from botocore.config import Config

            # botocore's defaults (60 s connect and read, 10 pooled connections) would let one
            # stuck call hold a record far past SEND_DEADLINE_S, and starve the send pool.
            self._client = boto3.client("sns", config=Config(
                connect_timeout=CONNECT_TIMEOUT_S, read_timeout=READ_TIMEOUT_S,
                retries={"mode": "standard", "max_attempts": 2},
                max_pool_connections=MAX_PARALLEL_SENDS))
        return self._client

    @staticmethod
    def _payload(platform: str, message: Message) -> str:
        if platform == IOS:
            inner = apns_payload(message)
            return json.dumps({"APNS": json.dumps(inner), "APNS_SANDBOX": json.dumps(inner),
                               "default": message.body})
        inner = {"notification": alert(message), "data": message.data()}
        return json.dumps({"GCM": json.dumps(inner), "default": message.body})

    def send(self, platform: str, token: str, message: Message) -> str:
        from botocore.exceptions import BotoCoreError, ClientError

        arn = self.application_arns.get(platform)
        if not arn:
            logger.warning("push.no_platform_application", extra={"platform": platform})
            return FAILED
        endpoint = None
        try:
            endpoint = self._endpoint(arn, token)
            if endpoint is None:
                return GONE
            self.client.publish(TargetArn=endpoint, MessageStructure="json",
                                Message=self._payload(platform, message))
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code")
            text = error.response.get("Error", {}).get("Message", "")
            if code == "EndpointDisabled" or (endpoint is not None and (
                    code == "NotFound" or (code == "InvalidParameter"
                                           and _NO_ENDPOINT.search(text)))):
                # APNs/FCM rejected the token (SNS disabled the endpoint), or the endpoint is
                # gone: the app is gone. Any other InvalidParameter is about our message.
                self._forget(endpoint)
                return GONE
            logger.warning("push.sns_failed", extra={"code": code})
            return FAILED
        except BotoCoreError:  # connect/read timeouts and connection errors
            logger.warning("push.sns_unreachable")
            return FAILED
        return SENT

    def _endpoint(self, application_arn: str, token: str) -> Optional[str]:
        """The token's endpoint. CreatePlatformEndpoint returns the existing one only when its
        attributes match ours; the one difference we ever cause is Enabled=false, which SNS sets
        when APNs/FCM rejected the token. Then the token is dead: delete the endpoint (a
        re-registered token starts clean) and answer None."""
        from botocore.exceptions import ClientError

        try:
            return self.client.create_platform_endpoint(PlatformApplicationArn=application_arn,
                                                        Token=token)["EndpointArn"]
        except ClientError as error:
            text = error.response.get("Error", {}).get("Message", "")
            if error.response.get("Error", {}).get("Code") != "InvalidParameter":
                raise
            existing = _EXISTING_ENDPOINT.search(text)
            if existing:
                self._forget(existing.group(1))
                return None
            if "Token" in text:  # SNS refuses the token itself: it can never work
                return None
            raise

    def _forget(self, endpoint_arn: Optional[str]) -> None:
        """Delete a dead endpoint. Best effort: the device row goes either way, and an endpoint
        left behind is disabled and never published to again."""
        from botocore.exceptions import BotoCoreError, ClientError

        if not endpoint_arn:
            return
        try:
            self.client.delete_endpoint(EndpointArn=endpoint_arn)
        except (ClientError, BotoCoreError) as error:
            code = getattr(error, "response", {}).get("Error", {}).get("Code")
            logger.warning("push.sns_delete_failed", extra={"code": code})


class PlatformRouter:
    """One provider per platform; a platform without one is skipped (FAILED, logged)."""

    def __init__(self, by_platform: Dict[str, Provider]) -> None:
        self.by_platform = by_platform

    def send(self, platform: str, token: str, message: Message) -> str:
        provider = self.by_platform.get(platform)
        if provider is None:
            return FAILED
        return provider.send(platform, token, message)


@dataclass(frozen=True)
class Delivery:
    """One push to send: to whom (for the caller's bookkeeping), where, what."""

    user_id: str
    device: object
    platform: str
    token: str
    message: Message


def _send_one(sender: Provider, delivery: Delivery) -> str:
    try:
        return sender.send(delivery.platform, delivery.token, delivery.message)
    except Exception:  # noqa: BLE001 - a provider bug must not fail the event (push is a side channel)
        logger.exception("push.send_crashed", extra={"platform": delivery.platform})
        return FAILED


def send_all(sender: Provider, deliveries: Sequence[Delivery], *,
             max_workers: Optional[int] = None,
             deadline_s: Optional[float] = None) -> List[str]:
    """Send every delivery at once (at most ``max_workers`` in flight) and wait at most
    ``deadline_s`` in all; the outcome of each, in order (TIMED_OUT for any still running).

    Threads, not asyncio: pywebpush and boto3 block, and a send spends its time waiting on the
    network. A send still running at the deadline is abandoned to its own socket timeouts."""
    if not deliveries:
        return []
    started = time.monotonic()
    deadline_s = SEND_DEADLINE_S if deadline_s is None else deadline_s
    end = _invocation_end.get()
    if end is not None:
        deadline_s = max(0.0, min(deadline_s, end - started))
    pool = ThreadPoolExecutor(max_workers=min(max_workers or MAX_PARALLEL_SENDS, len(deliveries)),
                              thread_name_prefix="push")
    try:
        futures = [pool.submit(_send_one, sender, delivery) for delivery in deliveries]
        wait(futures, timeout=max(0.0, deadline_s - (time.monotonic() - started)))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    outcomes = [future.result() if future.done() and not future.cancelled() else TIMED_OUT
                for future in futures]
    metrics.count(metrics.PUSHES_FAILED, sum(outcome in (FAILED, TIMED_OUT) for outcome in outcomes))
    if TIMED_OUT in outcomes:
        logger.warning("push.deadline_passed", extra={"abandoned": outcomes.count(TIMED_OUT)})
    return outcomes


def invocation_end() -> Optional[float]:
    """The invocation's end (``time.monotonic()``) set by :func:`invocation_ends_in`, or None:
    what pushes and e-mails of one invocation share."""
    return _invocation_end.get()


@contextlib.contextmanager
def invocation_ends_in(seconds: Optional[float]):
    """Within the block, no :func:`send_all` waits past ``seconds`` from now (None: no bound
    beyond SEND_DEADLINE_S)."""
    token = _invocation_end.set(None if seconds is None else time.monotonic() + max(0.0, seconds))
    try:
        yield
    finally:
        _invocation_end.reset(token)


def _secure_string(name: str) -> str:
    import boto3
    return boto3.client("ssm").get_parameter(Name=name, WithDecryption=True)["Parameter"]["Value"]


def _vapid_private_key(settings: Settings) -> Optional[str]:
    """The VAPID key: straight from the settings, or the SecureString they name in SSM."""
    name = settings.vapid_private_key_parameter
    if settings.vapid_private_key or not name:
        return settings.vapid_private_key or None
    return _secure_string(name)


def _direct(settings: Settings) -> Dict[str, Provider]:
    """IOS and ANDROID straight to APNs and FCM, as far as their settings are complete."""
    from app.notifications import mobile_push

    direct: Dict[str, Provider] = {}
    apns = (settings.apns_key_parameter, settings.apns_key_id, settings.apns_team_id,
            settings.apns_topic)
    if all(apns):
        direct[IOS] = mobile_push.ApnsProvider(
            _secure_string(settings.apns_key_parameter), settings.apns_key_id,
            settings.apns_team_id, settings.apns_topic, environment=settings.apns_environment,
            timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S))
    elif any(apns):
        logger.warning("push.apns_incomplete")  # a key without its ids (or the reverse)
    if settings.fcm_service_account_parameter:
        account = mobile_push.read_service_account(
            _secure_string(settings.fcm_service_account_parameter))
        direct[ANDROID] = mobile_push.FcmProvider(account,
                                                  timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S))
    return direct


def for_settings(settings: Settings) -> Provider:
    """Web Push, then each mobile platform straight to APNs/FCM where configured, else
    through SNS where its platform application is. Local mode records mobile pushes and
    sends real Web Push with the data directory's key, so a page subscribed against
    ``make dev`` is told; without a key it records those too."""
    local = settings.local_mode
    by_platform: Dict[str, Provider] = {}
    key = settings.vapid_private_key if local else _vapid_private_key(settings)
    if local:
        recorder = RecordingProvider()
        by_platform = {IOS: recorder, ANDROID: recorder, WEB: recorder}
    if key:
        by_platform[WEB] = WebPushProvider(key, settings.vapid_subject, local=local)
    if local:
        return PlatformRouter(by_platform)
    arns = {IOS: settings.sns_ios_application_arn, ANDROID: settings.sns_android_application_arn}
    arns = {platform: arn for platform, arn in arns.items() if arn}
    if arns:
        sns = SnsProvider(arns)
        by_platform.update({platform: sns for platform in arns})
    by_platform.update(_direct(settings))  # the cheaper road wins where both are set
    if not by_platform:  # a function deployed without PUSH_ENVIRONMENT silently pushes nothing
        logger.warning("push.unconfigured")
    return PlatformRouter(by_platform)


_current: Dict[str, Provider] = {}


def provider() -> Provider:
    """The process's provider, built from the settings on first use."""
    if "provider" not in _current:
        _current["provider"] = for_settings(config.current())
    return _current["provider"]


def use(new: Provider) -> Provider:
    """Install a provider (tests, local mode); returns it."""
    _current["provider"] = new
    return new
