"""Push providers behind one interface: Web Push (VAPID), SNS mobile push, and a recorder.

A provider answers SENT, GONE (the token is dead: the caller removes the device) or FAILED
(transient: logged, not retried). Push is a side channel: the history row is the record, so
a failed push never fails the event, and a replayed event never pushes twice (the worker
pushes only for history rows it created itself)."""
from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import dataclass
from typing import Dict, List, Optional, Protocol

from app.logs import logger
from app.services.core import addresses
from app.services.notifications import endpoints

SENT, GONE, FAILED = "SENT", "GONE", "FAILED"
WEB, IOS, ANDROID = "WEB", "IOS", "ANDROID"
PLATFORMS = (IOS, ANDROID, WEB)
PUSH_TTL_SECONDS = 24 * 3600
# SNS names the endpoint that already holds a token in its InvalidParameter message.
_EXISTING_ENDPOINT = re.compile(r"Endpoint (arn:\S+) already exists")


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

    def __init__(self, private_key: str, subject: str, timeout: float = 10.0, *,
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
            self._client = boto3.client("sns")
        return self._client

    @staticmethod
    def _payload(platform: str, message: Message) -> str:
        alert = {"title": message.title, "body": message.body}
        if platform == IOS:
            inner = {"aps": {"alert": alert, "sound": "default"}, "data": message.data()}
            return json.dumps({"APNS": json.dumps(inner), "APNS_SANDBOX": json.dumps(inner),
                               "default": message.body})
        inner = {"notification": alert, "data": message.data()}
        return json.dumps({"GCM": json.dumps(inner), "default": message.body})

    def send(self, platform: str, token: str, message: Message) -> str:
        from botocore.exceptions import ClientError

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
            if code == "EndpointDisabled":  # APNs/FCM rejected the token: the app is gone
                self._forget(endpoint)
                return GONE
            logger.warning("push.sns_failed", extra={"code": code})
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
            existing = _EXISTING_ENDPOINT.search(text)
            if error.response.get("Error", {}).get("Code") != "InvalidParameter" or not existing:
                raise
            self._forget(existing.group(1))
            return None

    def _forget(self, endpoint_arn: Optional[str]) -> None:
        if endpoint_arn:
            self.client.delete_endpoint(EndpointArn=endpoint_arn)


class PlatformRouter:
    """One provider per platform; a platform without one is skipped (FAILED, logged)."""

    def __init__(self, by_platform: Dict[str, Provider]) -> None:
        self.by_platform = by_platform

    def send(self, platform: str, token: str, message: Message) -> str:
        provider = self.by_platform.get(platform)
        if provider is None:
            return FAILED
        return provider.send(platform, token, message)


def _vapid_private_key(env) -> Optional[str]:
    """The VAPID key: straight from the environment, or the SecureString it names in SSM."""
    if env.get("VAPID_PRIVATE_KEY"):
        return env["VAPID_PRIVATE_KEY"]
    name = env.get("VAPID_PRIVATE_KEY_PARAMETER")
    if not name:
        return None
    import boto3
    return boto3.client("ssm").get_parameter(Name=name, WithDecryption=True)["Parameter"]["Value"]


def from_env(env=os.environ) -> Provider:
    """Web Push and SNS as far as they are configured. Local mode records mobile pushes (no
    SNS there) and sends real Web Push with the data directory's key, so a page subscribed
    against ``make dev`` is told; without a key it records those too."""
    local = (env.get("TAILSPEND_LOCAL") or "").strip().lower() in {"1", "true", "yes", "on"}
    by_platform: Dict[str, Provider] = {}
    key = env.get("VAPID_PRIVATE_KEY") if local else _vapid_private_key(env)
    if local:
        recorder = RecordingProvider()
        by_platform = {IOS: recorder, ANDROID: recorder, WEB: recorder}
    if key:
        by_platform[WEB] = WebPushProvider(key, env.get("VAPID_SUBJECT") or "mailto:ops@tailspend.app",
                                           local=local)
    if local:
        return PlatformRouter(by_platform)
    arns = {IOS: env.get("SNS_IOS_APPLICATION_ARN"), ANDROID: env.get("SNS_ANDROID_APPLICATION_ARN")}
    arns = {platform: arn for platform, arn in arns.items() if arn}
    if arns:
        sns = SnsProvider(arns)
        for platform in arns:
            by_platform[platform] = sns
    return PlatformRouter(by_platform)


_current: Dict[str, Provider] = {}


def provider() -> Provider:
    """The process's provider, built from the environment on first use."""
    if "provider" not in _current:
        _current["provider"] = from_env()
    return _current["provider"]


def use(new: Provider) -> Provider:
    """Install a provider (tests, local mode); returns it."""
    _current["provider"] = new
    return new
