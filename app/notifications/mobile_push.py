"""Mobile push straight to the platforms' own services: APNs for IOS, FCM HTTP v1 for ANDROID.

Why not through SNS: SNS mobile push bills $0.50 per million deliveries on top of what Apple
and Google charge (nothing), and each push costs two SNS calls (the platform endpoint, then
the publish). Straight to the platform, a push is one HTTP/2 request on a kept connection.
At the cost mix's two pushes per request that was $1.00 of every million requests
(docs/benchmarks.md "Cost"). SNS stays the transport where only its platform applications are
configured (push.for_settings).

Both providers answer as every provider does (SENT, GONE or FAILED):
- APNs: 410 Unregistered, or 400 BadDeviceToken/DeviceTokenNotForTopic -> GONE (the token
  can never work again); an expired provider token is signed again and the push sent once
  more; anything else -> FAILED (logged with APNs's reason, never the token).
- FCM: 404 UNREGISTERED, or 400 naming the registration token -> GONE; a refused access token
  is fetched again and the push sent once more; anything else -> FAILED.

Credentials: APNs's signing key (.p8, ES256) and FCM's service account come from SSM
SecureStrings (push.for_settings), read once per container. Each provider signs its own short
token with pyjwt: APNs's provider token is renewed every 50 minutes (APNs refuses one older
than an hour and throttles renewals more often than every 20 minutes), FCM's access token 5
minutes before Google's expiry."""
from __future__ import annotations

import json
import re
import threading
import time
from typing import Callable, Dict, Optional
from urllib.parse import quote

from app.logs import logger
from app.notifications.delivery import (FAILED, GONE, PUSH_TTL_SECONDS, SENT, alert,
                                        apns_payload)

APNS_HOSTS = {"production": "https://api.push.apple.com",
              "sandbox": "https://api.sandbox.push.apple.com"}
APNS_TOKEN_SECONDS = 50 * 60
# An APNs device token is hex (32 bytes today; Apple reserves the right to grow it).
_APNS_TOKEN = re.compile(r"^[0-9A-Fa-f]{32,200}$")
_APNS_DEAD = {"BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered"}
# Signed again and resent once: only an expired token. A refused one (InvalidProviderToken:
# the wrong key, team or key id) fails every token we could sign, and signing on every push
# would be throttled by APNs (TooManyProviderTokenUpdates) on top.
_APNS_RESIGN = {"ExpiredProviderToken"}
FCM_HOST = "https://fcm.googleapis.com"
FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"
FCM_TOKEN_MARGIN_S = 300


class Credentials(ValueError):
    """A push credential that cannot be used (named, never shown)."""


def http_client(timeout: tuple, *, verify=True):
    """One HTTP/2 client per provider: APNs speaks nothing else, and one connection carries
    every push of a record at once (send_all's threads share it)."""
    import httpx

    connect, read = timeout
    return httpx.Client(http2=True, verify=verify, follow_redirects=False,
                        timeout=httpx.Timeout(read, connect=connect),
                        limits=httpx.Limits(max_connections=4))


class _Signed:
    """A bearer token signed on first use, and again when its lifetime is over or the peer
    refused it."""

    def __init__(self, sign: Callable[[int], tuple], clock: Callable[[], float]) -> None:
        self._sign, self._clock = sign, clock
        self._token: Optional[str] = None
        self._until = 0.0
        self._lock = threading.Lock()

    def get(self, *, refused: Optional[str] = None) -> str:
        """The current token; ``refused``: the token the peer just refused (sign a new one,
        unless another thread already did)."""
        with self._lock:
            now = self._clock()
            if self._token is None or now >= self._until or self._token == refused:
                self._token, lifetime = self._sign(int(now))
                self._until = now + lifetime
            return self._token


class ApnsProvider:
    """APNs's HTTP/2 API with a token-based (.p8) provider token."""

    def __init__(self, key_pem: str, key_id: str, team_id: str, topic: str, *,
                 environment: str = "production", base_url: Optional[str] = None,
                 timeout: tuple = (3.05, 5.0), client=None, clock=time.time) -> None:
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        try:
            key = load_pem_private_key(key_pem.encode(), password=None)
        except (ValueError, TypeError):
            raise Credentials("The APNs key is not a PEM private key (.p8).") from None
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise Credentials("The APNs key is not a P-256 (ES256) key.")
        self._key, self.key_id, self.team_id, self.topic = key, key_id, team_id, topic
        self.base_url = base_url or APNS_HOSTS[environment]
        self._client = client or http_client(timeout)
        self._token = _Signed(self._sign, clock)
        self._clock = clock

    def _sign(self, now: int) -> tuple:
        import jwt

        token = jwt.encode({"iss": self.team_id, "iat": now}, self._key, algorithm="ES256",
                           headers={"kid": self.key_id})
        return token, APNS_TOKEN_SECONDS

    def _post(self, token: str, bearer: str, body: bytes):
        return self._client.post(
            f"{self.base_url}/3/device/{quote(token, safe='')}", content=body,
            headers={"authorization": f"bearer {bearer}", "apns-topic": self.topic,
                     "apns-push-type": "alert", "apns-priority": "10",
                     "apns-expiration": str(int(self._clock()) + PUSH_TTL_SECONDS),
                     "content-type": "application/json"})

    def send(self, platform: str, token: str, message) -> str:
        import httpx

        if not _APNS_TOKEN.match(token):
            return GONE  # not an APNs token: it can never be delivered
        body = json.dumps(apns_payload(message)).encode()
        bearer = self._token.get()
        try:
            reply = self._post(token, bearer, body)
            reason = _reason(reply)
            if reply.status_code == 403 and reason in _APNS_RESIGN:
                reply = self._post(token, self._token.get(refused=bearer), body)
                reason = _reason(reply)
        except httpx.HTTPError:  # connect/read timeouts, refused connections, protocol errors
            logger.warning("push.apns_unreachable")
            return FAILED
        if reply.status_code == 200:
            return SENT
        if reply.status_code == 410 or reason in _APNS_DEAD:
            return GONE
        logger.warning("push.apns_failed", extra={"status": reply.status_code, "reason": reason})
        return FAILED


def _json_object(reply) -> dict:
    """An error reply's JSON object; {} for any other body (a proxy's HTML page, a list)."""
    try:
        body = reply.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _reason(reply) -> Optional[str]:
    return None if reply.status_code == 200 else _json_object(reply).get("reason")


class FcmProvider:
    """FCM's HTTP v1 API with an OAuth access token from a service account."""

    def __init__(self, service_account: Dict[str, str], *, base_url: str = FCM_HOST,
                 timeout: tuple = (3.05, 5.0), client=None, clock=time.time) -> None:
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        try:
            self.project = service_account["project_id"]
            self.email = service_account["client_email"]
            key = load_pem_private_key(service_account["private_key"].encode(), password=None)
        except (KeyError, AttributeError, TypeError, ValueError):
            raise Credentials("The FCM service account needs project_id, client_email and "
                              "a PEM private_key.") from None
        self._key = key
        self.token_uri = service_account.get("token_uri") or GOOGLE_TOKEN_URI
        self.base_url = base_url
        self._client = client or http_client(timeout)
        self._token = _Signed(self._exchange, clock)

    def _exchange(self, now: int) -> tuple:
        """A signed assertion exchanged for an access token (RFC 7523), as Google's libraries
        do for a service account."""
        import jwt

        assertion = jwt.encode({"iss": self.email, "scope": FCM_SCOPE, "aud": self.token_uri,
                                "iat": now, "exp": now + 3600}, self._key, algorithm="RS256")
        reply = self._client.post(self.token_uri, data={
            "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": assertion})
        if reply.status_code != 200:
            raise Credentials(f"Google refused the service account ({reply.status_code}).")
        granted = reply.json()
        lifetime = max(60, int(granted.get("expires_in", 3600)) - FCM_TOKEN_MARGIN_S)
        return granted["access_token"], lifetime

    def _post(self, bearer: str, body: dict):
        return self._client.post(f"{self.base_url}/v1/projects/{quote(self.project, safe='')}"
                                 "/messages:send", json=body,
                                 headers={"authorization": f"Bearer {bearer}"})

    def send(self, platform: str, token: str, message) -> str:
        import httpx

        # FCM's data values are strings only; an absent one is left out.
        data = {key: str(value) for key, value in message.data().items() if value is not None}
        body = {"message": {"token": token, "notification": alert(message), "data": data,
                            "android": {"ttl": f"{PUSH_TTL_SECONDS}s", "priority": "HIGH"}}}
        try:
            bearer = self._token.get()
            reply = self._post(bearer, body)
            if reply.status_code == 401:
                reply = self._post(self._token.get(refused=bearer), body)
        except Credentials as refused:
            logger.warning("push.fcm_credentials", extra={"error": str(refused)})
            return FAILED
        except httpx.HTTPError:
            logger.warning("push.fcm_unreachable")
            return FAILED
        if reply.status_code == 200:
            return SENT
        status, text = _fcm_error(reply)
        if reply.status_code == 404 or status == "UNREGISTERED" or (
                reply.status_code == 400 and "registration token" in text):
            return GONE
        logger.warning("push.fcm_failed", extra={"status": reply.status_code, "error": status})
        return FAILED


def _fcm_error(reply) -> tuple:
    """(the error's status or FCM errorCode, its message lower-cased) from an FCM error reply."""
    error = _json_object(reply).get("error")
    if not isinstance(error, dict):
        return None, ""
    codes = [detail.get("errorCode") for detail in error.get("details") or ()
             if isinstance(detail, dict) and detail.get("errorCode")]
    return (codes[0] if codes else error.get("status")), str(error.get("message", "")).lower()


def read_service_account(text: str) -> Dict[str, str]:
    try:
        account = json.loads(text)
    except ValueError:
        raise Credentials("The FCM service account is not JSON.") from None
    if not isinstance(account, dict):
        raise Credentials("The FCM service account is not a JSON object.")
    return account
