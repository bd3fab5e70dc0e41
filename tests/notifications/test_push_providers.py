"""Push providers against real peers: SNS mobile push on moto's SNS, and the VAPID public key a
page subscribes with (checked against what a push service receives)."""
from __future__ import annotations

import json
import os
import stat
from types import SimpleNamespace

import boto3
import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.sns.models import sns_backends

from app.local import vapid_key
from app.config import Settings
from app.notifications import push, vapid
from tests.support.settings import installed
from tests.notifications.conftest import pending_records, run_worker
from tests.notifications.test_web_push import PushService, subscribe
from tests.notifications.test_worker import add_expense, duo  # noqa: F401


def _swap_provider(new):
    previous = push._current.get("provider")
    push.use(new)
    return previous


def _restore(previous) -> None:
    if previous is None:
        push._current.pop("provider", None)
    else:
        push.use(previous)


@pytest.fixture
def sns_push(app):
    sns = boto3.client("sns", region_name="us-east-1")
    ios = sns.create_platform_application(Name="tailspend-ios", Platform="APNS",
                                          Attributes={})["PlatformApplicationArn"]
    android = sns.create_platform_application(Name="tailspend-android", Platform="GCM",
                                              Attributes={})["PlatformApplicationArn"]
    provider = push.SnsProvider({push.IOS: ios, push.ANDROID: android}, client=sns)
    previous = _swap_provider(push.PlatformRouter({push.IOS: provider, push.ANDROID: provider}))
    yield SimpleNamespace(sns=sns, ios=ios, android=android)
    _restore(previous)


def endpoints(application_arn: str) -> dict:
    """token -> (endpoint, [published payloads]) as moto's SNS holds them."""
    backend = sns_backends[DEFAULT_ACCOUNT_ID]["us-east-1"]
    return {ep.token: (ep, [json.loads(m) for m in ep.messages.values()])
            for ep in backend.platform_endpoints.values() if ep.application.arn == application_arn}


def deliver_all() -> None:
    assert run_worker(pending_records()) == []


def test_ios_and_android_devices_get_their_platform_payloads_through_sns(duo, sns_push):
    deliver_all()  # the join events
    android = duo.client.post("/notifications/devices", headers=duo.bob_h,
                              json={"platform": "ANDROID", "token": "bob-tablet"})
    assert android.status_code == 201
    add_expense(duo, description="Tapas")
    deliver_all()
    ios = endpoints(sns_push.ios)
    _, published = ios["bob-phone"]
    payload = json.loads(published[-1]["APNS"])
    assert payload["aps"]["alert"] == {"title": "New expense in Lisbon",
                                       "body": "Olive added \u201cTapas\u201d (€45.50)."}
    assert payload["data"]["groupId"] == duo.gid
    assert all(json.loads(m["APNS"])["data"]["type"] != "EXPENSE_ADDED"
               for m in ios.get("olive-phone", (None, []))[1])  # never the actor
    _, published = endpoints(sns_push.android)["bob-tablet"]
    gcm = json.loads(published[-1]["GCM"])
    assert gcm["notification"]["title"] == "New expense in Lisbon"


def test_a_token_sns_disabled_is_removed_with_its_endpoint(duo, sns_push):
    deliver_all()
    add_expense(duo)
    deliver_all()
    endpoint, published = endpoints(sns_push.ios)["bob-phone"]
    assert json.loads(published[-1]["APNS"])["data"]["type"] == "EXPENSE_ADDED"
    # APNs rejected the token: SNS marks the endpoint disabled.
    sns_push.sns.set_endpoint_attributes(EndpointArn=endpoint.arn,
                                         Attributes={"Enabled": "false"})
    device = duo.client.post("/notifications/devices", headers=duo.bob_h,
                             json={"platform": "IOS", "token": "bob-phone"}).get_json()
    add_expense(duo, description="Second")
    deliver_all()
    assert "bob-phone" not in endpoints(sns_push.ios)  # deleted: a re-registration starts clean
    reply = duo.client.delete(f"/notifications/devices/{device['deviceId']}", headers=duo.bob_h)
    assert reply.status_code == 404  # the worker removed the device
    # Bob still has the notification in history: push is only a side channel.
    bodies = [n["body"] for n in duo.client.get("/notifications", headers=duo.bob_h)
              .get_json()["items"]]
    assert any("Second" in body for body in bodies)


def test_web_push_key_is_404_when_web_push_is_off(client, sign_in):
    headers, _ = sign_in("ada@example.com")
    with installed(vapid_public_key=None, vapid_private_key=""):
        reply = client.get("/notifications/web-push-key", headers=headers)
    assert reply.status_code == 404 and reply.get_json()["error"]["code"] == "WEB_PUSH_DISABLED"
    assert client.get("/notifications/web-push-key").status_code == 401


def test_the_published_key_is_the_one_push_services_see(duo):
    key = vapid.new_private_key()
    with installed(vapid_public_key=None, vapid_private_key=key):
        published = duo.client.get("/notifications/web-push-key", headers=duo.bob_h).get_json()
    # Local mode (its loopback exception): the test push service listens on 127.0.0.1.
    previous = _swap_provider(push.WebPushProvider(key, "mailto:ops@example.com", local=True))
    service = PushService()
    try:
        deliver_all()
        subscribe(duo.client, duo.bob_h, service.url + "/sub/bob")
        add_expense(duo)
        deliver_all()
    finally:
        service.close()
        _restore(previous)
    (_, headers, _), = service.received
    assert headers["authorization"].endswith(f"k={published['publicKey']}")


def test_a_configured_public_key_wins(client, sign_in):
    headers, _ = sign_in("ada@example.com")
    with installed(vapid_public_key="BPublicKeyFromTheTemplate"):
        reply = client.get("/notifications/web-push-key", headers=headers)
    assert reply.get_json() == {"publicKey": "BPublicKeyFromTheTemplate"}


def test_local_key_is_made_once_private_and_accepted_as_pem_too(tmp_path):
    first = vapid_key.load_or_create(str(tmp_path / "data"))
    assert vapid_key.load_or_create(str(tmp_path / "data")) == first
    path = tmp_path / "data" / vapid_key.FILE_NAME
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    from cryptography.hazmat.primitives import serialization
    pem = vapid._private_key(first).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()
    assert vapid.public_key_of(pem) == vapid.public_key_of(first)


def test_local_mode_sends_real_web_push_and_records_mobile_pushes():
    key = vapid.new_private_key()
    router = push.for_settings(Settings(local_mode=True, vapid_private_key=key))
    assert isinstance(router.by_platform[push.WEB], push.WebPushProvider)
    assert isinstance(router.by_platform[push.IOS], push.RecordingProvider)
    without_key = push.for_settings(Settings(local_mode=True))
    assert isinstance(without_key.by_platform[push.WEB], push.RecordingProvider)


def test_a_claim_left_naming_a_vanished_device_does_not_block_re_registering(client, sign_in):
    """A crash could once leave the token claim behind its device row; now removal is one
    transaction, and registration repairs such a claim from before."""
    from models.notifications import Device, DeviceToken, NotificationItem
    headers, user_id = sign_in("ada@example.com")
    first = client.post("/notifications/devices", headers=headers,
                        json={"platform": "IOS", "token": "ada-phone"}).get_json()["deviceId"]
    Device(*Device.key(user_id, first)).delete()  # the old half-written removal
    again = client.post("/notifications/devices", headers=headers,
                        json={"platform": "IOS", "token": "ada-phone"})
    assert again.status_code == 201, again.get_json()
    second = again.get_json()["deviceId"]
    assert second != first
    claim = NotificationItem.from_raw_data(NotificationItem.raw_get(*DeviceToken.key("ada-phone")))
    assert (claim.UserId, claim.DeviceId) == (user_id, second)
    assert client.delete(f"/notifications/devices/{second}", headers=headers).status_code == 204
    assert NotificationItem.raw_get(*DeviceToken.key("ada-phone")) is None  # both rows gone
