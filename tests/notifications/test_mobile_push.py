"""Mobile push straight to APNs and FCM (app/notifications/mobile_push.py), against local
stand-ins that speak what the real services speak: HTTP/2 over TLS (ALPN h2, a test CA),
APNs's provider-token check (an ES256 JWT with the key's id and the team) and its reasons,
FCM's OAuth token exchange (an RS256 assertion, RFC 7523) and its error bodies. The worker
runs as the stream runs it; the stand-ins record what reached them."""
from __future__ import annotations

import asyncio
import json
import socket
import threading
import urllib.parse
from types import SimpleNamespace

import boto3
import jwt
import pytest
import trustme
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from app.config import Settings
from app.notifications import mobile_push, push
from tests.notifications.conftest import pending_records, run_worker
from tests.notifications.test_worker import add_expense, duo  # noqa: F401

BOB_IPHONE = "a1" * 32
BOB_PIXEL = "fcm-token-of-bobs-pixel:APA91b"
TEAM, KEY_ID, TOPIC, PROJECT = "TEAM123456", "KEY1234567", "app.tailspend.ios", "tailspend-test"


def _pem(key) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


class PushServices:
    """APNs, FCM and Google's token endpoint on one TLS port, HTTP/2 (hypercorn). ``answers``
    maps a device token to the (status, body) APNs or FCM gives it; default 200."""

    def __init__(self) -> None:
        self.ca = trustme.CA()
        self.apns_key = ec.generate_private_key(ec.SECP256R1())
        self.fcm_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.requests: list = []
        self.answers: dict = {}
        self.refuse_bearers: set = set()  # APNs provider tokens / FCM access tokens refused
        self.issued = 0

    # the stand-ins -------------------------------------------------------------------------

    async def app(self, scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                await send({"type": message["type"] + ".complete"})
                if message["type"] == "lifespan.shutdown":
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        seen = SimpleNamespace(version=scope["http_version"], path=scope["path"],
                               headers=headers, body=body)
        self.requests.append(seen)
        status, reply = self.answer(seen)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(reply).encode()})

    def answer(self, seen) -> tuple:
        if seen.path == "/token":
            form = urllib.parse.parse_qs(seen.body.decode())
            claims = jwt.decode(form["assertion"][0], self.fcm_key.public_key(),
                                algorithms=["RS256"], audience=f"{self.url}/token")
            assert claims["scope"] == mobile_push.FCM_SCOPE
            assert claims["iss"] == "push@tailspend-test.iam.gserviceaccount.com"
            self.issued += 1
            return 200, {"access_token": f"ya29.access-{self.issued}", "expires_in": 3599,
                         "token_type": "Bearer"}
        bearer = seen.headers["authorization"].split(" ", 1)[1]
        if seen.path.startswith("/3/device/"):
            header = jwt.get_unverified_header(bearer)
            claims = jwt.decode(bearer, self.apns_key.public_key(), algorithms=["ES256"])
            assert header["kid"] == KEY_ID and claims["iss"] == TEAM
            if bearer in self.refuse_bearers:
                return 403, {"reason": "ExpiredProviderToken"}
            token = seen.path.rsplit("/", 1)[1]
        else:
            assert seen.path == f"/v1/projects/{PROJECT}/messages:send", seen.path
            if bearer in self.refuse_bearers:
                return 401, {"error": {"code": 401, "status": "UNAUTHENTICATED",
                                       "message": "Request had invalid credentials."}}
            token = json.loads(seen.body)["message"]["token"]
        return self.answers.get(token, (200, {"name": "ok"}))

    # serving ------------------------------------------------------------------------------

    def start(self, directory) -> "PushServices":
        from hypercorn.asyncio import serve
        from hypercorn.config import Config

        server_cert = self.ca.issue_cert("127.0.0.1")
        chain, key = directory / "chain.pem", directory / "key.pem"
        server_cert.private_key_and_cert_chain_pem.write_to_path(str(chain))
        server_cert.private_key_pem.write_to_path(str(key))
        listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listening.bind(("127.0.0.1", 0))
        self.url = f"https://127.0.0.1:{listening.getsockname()[1]}"
        config = Config()
        config.bind = [f"fd://{listening.fileno()}"]
        config.certfile, config.keyfile = str(chain), str(key)
        config.alpn_protocols = ["h2"]
        config.loglevel = "WARNING"
        # The providers' clients keep their HTTP/2 connections open (as in the worker): at
        # the end nothing is in flight, so stop without hypercorn's graceful wait for them.
        config.graceful_timeout = 0
        self._socket = listening
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._loop.call_soon(started.set)
            self._loop.run_until_complete(serve(self.app, config,
                                                shutdown_trigger=self._stop.wait))

        self._thread = threading.Thread(target=run, daemon=True, name="push-services")
        self._thread.start()
        started.wait(10)
        return self

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def client(self):
        import ssl

        context = ssl.create_default_context()
        self.ca.configure_trust(context)
        return mobile_push.http_client((3.05, 5.0), verify=context)

    def apns(self, **kw) -> mobile_push.ApnsProvider:
        return mobile_push.ApnsProvider(_pem(self.apns_key), KEY_ID, TEAM, TOPIC,
                                        base_url=self.url, client=self.client(), **kw)

    def account(self) -> dict:
        return {"type": "service_account", "project_id": PROJECT,
                "client_email": "push@tailspend-test.iam.gserviceaccount.com",
                "private_key": _pem(self.fcm_key), "token_uri": f"{self.url}/token"}

    def fcm(self, **kw) -> mobile_push.FcmProvider:
        return mobile_push.FcmProvider(self.account(), base_url=self.url, client=self.client(),
                                       **kw)

    def pushes(self) -> list:
        return [r for r in self.requests if r.path != "/token"]


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    running = PushServices().start(tmp_path_factory.mktemp("push-services"))
    yield running
    running.stop()


@pytest.fixture
def direct(services, app):
    """The worker's router with IOS through APNs and ANDROID through FCM (the stand-ins)."""
    services.requests.clear()
    services.answers.clear()
    services.refuse_bearers.clear()
    previous = push._current.get("provider")
    router = push.use(push.PlatformRouter({push.IOS: services.apns(),
                                           push.ANDROID: services.fcm()}))
    yield SimpleNamespace(services=services, router=router)
    if previous is None:
        push._current.pop("provider", None)
    else:
        push.use(previous)


def _register(duo, platform: str, token: str) -> str:
    reply = duo.client.post("/notifications/devices", headers=duo.bob_h,
                            json={"platform": platform, "token": token})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()["deviceId"]


def deliver_all() -> None:
    assert run_worker(pending_records()) == []


def test_an_expense_reaches_bobs_iphone_through_apns_and_his_pixel_through_fcm(duo, direct):
    deliver_all()  # the join events
    _register(duo, "IOS", BOB_IPHONE)
    _register(duo, "ANDROID", BOB_PIXEL)
    direct.services.requests.clear()
    add_expense(duo, description="Tapas")
    deliver_all()
    pushes = direct.services.pushes()
    apns = [r for r in pushes if r.path.startswith("/3/device/")]
    fcm = [r for r in pushes if r.path.startswith("/v1/")]
    assert [r.path for r in apns] == [f"/3/device/{BOB_IPHONE}"]  # never the actor's phone
    sent = apns[0]
    assert sent.version == "2"  # APNs speaks HTTP/2 only
    assert sent.headers["apns-topic"] == TOPIC and sent.headers["apns-push-type"] == "alert"
    payload = json.loads(sent.body)
    assert payload["aps"]["alert"] == {"title": "New expense in Lisbon",
                                       "body": "Olive added \u201cTapas\u201d (€45.50)."}
    assert payload["data"]["groupId"] == duo.gid and payload["data"]["type"] == "EXPENSE_ADDED"
    message = json.loads(fcm[0].body)["message"]
    assert message["token"] == BOB_PIXEL
    assert message["notification"]["title"] == "New expense in Lisbon"
    assert message["data"]["groupId"] == duo.gid  # data values are strings, None left out
    assert all(isinstance(v, str) for v in message["data"].values())
    assert message["android"]["ttl"] == f"{push.PUSH_TTL_SECONDS}s"
    # "bob-phone" (duo's token) is no APNs token: answered GONE without a request, removed.
    assert _registered_tokens(duo) == {BOB_IPHONE, BOB_PIXEL}


def test_tokens_apns_and_fcm_call_dead_are_removed_and_others_kept(duo, direct):
    deliver_all()
    dead_iphone, busy_iphone = "b2" * 32, "c3" * 32
    for token in (dead_iphone, busy_iphone, BOB_PIXEL):
        _register(duo, "IOS" if token != BOB_PIXEL else "ANDROID", token)
    direct.services.answers.update({
        dead_iphone: (410, {"reason": "Unregistered", "timestamp": 1796500000000}),
        busy_iphone: (429, {"reason": "TooManyRequests"}),
        BOB_PIXEL: (404, {"error": {"code": 404, "status": "NOT_FOUND",
                                    "message": "Requested entity was not found.",
                                    "details": [{"@type": "type.googleapis.com/google.firebase"
                                                 ".fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}),
    })
    add_expense(duo)
    deliver_all()
    tokens = {urllib.parse.unquote(r.path.rsplit("/", 1)[1]) for r in direct.services.pushes()
              if r.path.startswith("/3/")}
    assert tokens == {dead_iphone, busy_iphone}
    left = _registered_tokens(duo)
    assert busy_iphone in left  # a transient refusal keeps the device
    assert dead_iphone not in left and BOB_PIXEL not in left


def _registered_tokens(duo) -> set:
    """Bob's device rows as the table holds them (the API lists no tokens)."""
    from models.notifications import Device
    return {device.Token for device in Device.of_user(duo.bob)}


def test_one_signed_apns_token_serves_every_push_until_apns_calls_it_expired(services):
    services.requests.clear()
    clock = SimpleNamespace(now=1_796_500_000.0)
    apns = services.apns(clock=lambda: clock.now)
    message = push.Message("t", "b", "EXPENSE_ADDED", "g", "r", "n")
    assert [apns.send(push.IOS, token, message) for token in ("d4" * 32, "e5" * 32)] == [
        push.SENT, push.SENT]
    first, second = (r.headers["authorization"] for r in services.pushes())
    assert first == second  # signed once: APNs throttles renewals
    services.refuse_bearers.add(first.split(" ", 1)[1])
    clock.now += 60
    assert apns.send(push.IOS, "f6" * 32, message) == push.SENT  # refused, signed again, resent
    third = services.pushes()[-1].headers["authorization"]
    assert third != first
    clock.now += mobile_push.APNS_TOKEN_SECONDS
    apns.send(push.IOS, "f6" * 32, message)
    assert services.pushes()[-1].headers["authorization"] != third  # renewed by age
    services.refuse_bearers.clear()


def test_an_fcm_access_token_is_fetched_once_and_again_when_google_refuses_it(services):
    services.requests.clear()
    before = services.issued
    fcm = services.fcm()
    message = push.Message("t", "b", "COMMENT_ADDED", None, None, None)
    assert [fcm.send(push.ANDROID, f"tok-{i}", message) for i in range(3)] == [push.SENT] * 3
    assert services.issued == before + 1
    services.refuse_bearers.add(f"ya29.access-{services.issued}")
    assert fcm.send(push.ANDROID, "tok-3", message) == push.SENT
    assert services.issued == before + 2
    assert json.loads(services.pushes()[0].body)["message"]["data"] == {
        "title": "t", "body": "b", "type": "COMMENT_ADDED"}
    services.refuse_bearers.clear()


def test_an_ios_token_that_is_not_hex_never_reaches_a_url(services):
    services.requests.clear()
    apns = services.apns()
    message = push.Message("t", "b", "EXPENSE_ADDED")
    for token in ("../../3/device/" + "a" * 64, "a" * 64 + "?x=1", "zz" * 32):
        assert apns.send(push.IOS, token, message) == push.GONE
    assert services.requests == []


def test_an_unreachable_service_fails_the_push_not_the_event():
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there
    key = ec.generate_private_key(ec.SECP256R1())
    apns = mobile_push.ApnsProvider(_pem(key), KEY_ID, TEAM, TOPIC,
                                    base_url=f"https://127.0.0.1:{port}")
    assert apns.send(push.IOS, "a" * 64, push.Message("t", "b", "X")) == push.FAILED


def test_keys_that_cannot_sign_are_refused_at_build_naming_the_setting_not_the_key():
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    with pytest.raises(mobile_push.Credentials, match="P-256"):
        mobile_push.ApnsProvider(_pem(rsa_key), KEY_ID, TEAM, TOPIC)
    with pytest.raises(mobile_push.Credentials, match="PEM") as refused:
        mobile_push.ApnsProvider("-----BEGIN PRIVATE KEY-----\nsecret\n", KEY_ID, TEAM, TOPIC)
    assert "secret" not in str(refused.value)
    with pytest.raises(mobile_push.Credentials, match="project_id"):
        mobile_push.FcmProvider({"client_email": "x"})
    with pytest.raises(mobile_push.Credentials, match="JSON"):
        mobile_push.read_service_account("not json")


def test_a_deployed_router_goes_straight_to_apns_and_fcm_where_both_are_set(services, aws):
    ssm = boto3.client("ssm", region_name="us-east-1")
    ssm.put_parameter(Name="/tailspend/test/apns", Value=_pem(services.apns_key),
                      Type="SecureString")
    ssm.put_parameter(Name="/tailspend/test/fcm", Value=json.dumps(services.account()),
                      Type="SecureString")
    sns = boto3.client("sns", region_name="us-east-1")
    ios = sns.create_platform_application(Name="ios", Platform="APNS",
                                          Attributes={})["PlatformApplicationArn"]
    settings = Settings(sns_ios_application_arn=ios, apns_key_parameter="/tailspend/test/apns",
                        apns_key_id=KEY_ID, apns_team_id=TEAM, apns_topic=TOPIC,
                        apns_environment="sandbox",
                        fcm_service_account_parameter="/tailspend/test/fcm")
    router = push.for_settings(settings)
    assert isinstance(router.by_platform[push.IOS], mobile_push.ApnsProvider)
    assert router.by_platform[push.IOS].base_url == mobile_push.APNS_HOSTS["sandbox"]
    assert isinstance(router.by_platform[push.ANDROID], mobile_push.FcmProvider)
    # Without the APNs ids, SNS keeps IOS (and the gap is logged).
    partial = push.for_settings(settings._replace(apns_team_id=None))
    assert isinstance(partial.by_platform[push.IOS], push.SnsProvider)


def test_the_apns_environment_setting_names_itself_when_wrong():
    from app.config import SettingError

    with pytest.raises(SettingError, match="APNS_ENVIRONMENT"):
        Settings.from_env({"APNS_ENVIRONMENT": "staging"})


def test_a_reply_that_is_not_apnss_or_fcms_json_fails_the_push_and_keeps_the_device(services):
    services.requests.clear()
    services.answers.update({"ab" * 32: (502, "<html>Bad gateway</html>"),
                             "pixel-behind-a-proxy": (503, ["unavailable"])})
    message = push.Message("t", "b", "EXPENSE_ADDED")
    assert services.apns().send(push.IOS, "ab" * 32, message) == push.FAILED
    assert services.fcm().send(push.ANDROID, "pixel-behind-a-proxy", message) == push.FAILED
    services.answers.clear()
