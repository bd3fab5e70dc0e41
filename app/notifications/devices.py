"""Push devices: one device row per token, owned by whoever registered the token last.

A DeviceToken claim row (keyed by the token's hash) names the current owner, so a phone
handed to another account moves its device in one transaction instead of pushing one
person's notifications to the next."""
from __future__ import annotations

import json

from app.errors import Invalid, concurrent_update, not_found
from app.core.clock import new_id, now_iso
from app.core.transactions import Transaction
from app.notifications import endpoints
from app.notifications.push import PLATFORMS, WEB
from app.core.conditional import update_if
from models.notifications import Device, DeviceToken, NotificationItem

MAX_TOKEN = 4096


def _invalid(message: str) -> Invalid:
    return Invalid(message, details={"token": [message]})


def check_token(platform: str, token: str, *, allow_http: bool = False) -> None:
    """A WEB token is a PushSubscription JSON: a push service's https endpoint and
    p256dh/auth keys; ``allow_http`` is local mode (its loopback exception)."""
    if platform not in PLATFORMS:
        raise Invalid("Unknown platform.", details={"platform": ["Must be IOS, ANDROID or WEB."]})
    if not token or len(token) > MAX_TOKEN:
        raise _invalid(f"A token is 1-{MAX_TOKEN} characters.")
    if platform != WEB:
        return
    try:
        subscription = json.loads(token)
        endpoint, keys = subscription["endpoint"], subscription["keys"]
        ok = isinstance(endpoint, str) and isinstance(keys.get("p256dh"), str) \
            and isinstance(keys.get("auth"), str)
    except (ValueError, TypeError, KeyError, AttributeError):
        ok = False
    if not ok:
        raise _invalid("A WEB token is a PushSubscription: {endpoint, keys: {p256dh, auth}}.")
    # The worker POSTs to this URL: a public https push service; local mode (allow_http)
    # also a loopback one, over http too (notifications.endpoints).
    try:
        endpoints.check_registration(endpoint, local=allow_http)
    except endpoints.Refused as refused:
        raise _invalid(str(refused)) from None


def _raced():
    return concurrent_update("The device was registered concurrently; try again.")


def _claim(token: str):
    raw = NotificationItem.raw_get(*DeviceToken.key(token))
    return NotificationItem.from_raw_data(raw) if raw else None


def register_device(user_id: str, platform: str, token: str, *, allow_http: bool = False) -> dict:
    """Register (or re-register) a token for the caller; returns ``{deviceId}``."""
    check_token(platform, token, allow_http=allow_http)
    now, claim = now_iso(), _claim(token)
    if claim is not None and claim.UserId == user_id and update_if(
            Device(*Device.key(user_id, claim.DeviceId)),
            [Device.LastSeenAt.set(now), Device.Platform.set(platform)], Device.PK.exists()):
        return {"deviceId": claim.DeviceId}
    # Otherwise a new device row; a claim naming a device that is gone is replaced like a
    # claim of another account's.
    device_id = new_id()
    device = Device(*Device.key(user_id, device_id), DeviceId=device_id, Platform=platform,
                    Token=token, CreatedAt=now, LastSeenAt=now)
    new_claim = DeviceToken(*DeviceToken.key(token), UserId=user_id, DeviceId=device_id,
                            CreatedAt=now)
    raced = _raced()
    tx = Transaction().require_live_account(user_id)
    if claim is None:
        tx.put(new_claim, condition=DeviceToken.PK.does_not_exist(), on_fail=raced)
    else:  # move it: the previous owner's row goes in the same transaction
        tx.delete(Device(*Device.key(claim.UserId, claim.DeviceId)))
        tx.put(new_claim, condition=(DeviceToken.UserId == claim.UserId)
               & (DeviceToken.DeviceId == claim.DeviceId), on_fail=raced)
    tx.put(device)
    tx.commit()
    return {"deviceId": device_id}


def unregister_device(user_id: str, device_id: str) -> None:
    raw = NotificationItem.raw_get(*Device.key(user_id, device_id))
    if raw is None:
        raise not_found("Device")
    remove_device(user_id, NotificationItem.from_raw_data(raw))


def remove_device(user_id: str, device: Device) -> None:
    """Drop a dead device and, in the same transaction, its token claim while the claim still
    names this device (a claim moved to another account stays theirs)."""
    claim = _claim(device.Token)
    tx = Transaction().delete(device)
    if claim is not None and claim.UserId == user_id and claim.DeviceId == device.DeviceId:
        tx.delete(claim, condition=(DeviceToken.UserId == user_id)
                  & (DeviceToken.DeviceId == device.DeviceId),
                  on_fail=_raced())
    tx.commit()
