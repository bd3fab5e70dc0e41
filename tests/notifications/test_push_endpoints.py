"""Web Push endpoints cannot reach inside the network (blind SSRF, issue 20 item 4): a WEB
device must name a public https push service; at send time its host must resolve to public
addresses only, and no redirect is followed. Local mode keeps its loopback exception."""
from __future__ import annotations

import json
import socket

import pytest

from app.errors import Invalid
from app.core import addresses
from app.notifications import push
from app.notifications.devices import check_token
from tests.notifications.test_web_push import PushService, web_push  # noqa: F401
from tests.notifications.test_worker import duo  # noqa: F401

KEYS = {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
        "auth": "tBHItJI5svbpez7KI4CCXg"}

REFUSED = [
    "https://127.0.0.1:9/x", "https://127.0.0.1/x", "https://[::1]/x", "https://10.0.0.1/x",
    "https://169.254.169.254/latest/meta-data/", "https://[::ffff:127.0.0.1]/x",
    "https://[64:ff9b::a00:1]/x", "https://93.184.216.34/x",   # no IP literal at all
    "https://localhost/x", "https://push.localhost/x", "https://intranet/x",
    "http://push.example.com/x", "https://push.example.com:8443/x", "https://0x7f.1/x",
    "https://u@push.example.com/x", "https://push.example.com\\@127.0.0.1/x",
    "https://push.example.com/\tx", "ftp://push.example.com/x",
]
ACCEPTED = [
    "https://fcm.googleapis.com/fcm/send/abc:def", "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
    "https://web.push.apple.com/QGx1", "https://wns2-par02p.notify.windows.com/w/?token=AwY%3d",
    "https://push.example.com:443/x",
]


def token(endpoint: str) -> str:
    return json.dumps({"endpoint": endpoint, "keys": KEYS})


@pytest.mark.parametrize("endpoint", REFUSED)
def test_registration_refuses_what_is_not_a_public_push_service(endpoint):
    with pytest.raises(Invalid) as refused:
        check_token("WEB", token(endpoint))
    assert "token" in refused.value.details


@pytest.mark.parametrize("endpoint", ACCEPTED)
def test_registration_accepts_push_services(endpoint):
    check_token("WEB", token(endpoint))


@pytest.mark.parametrize("endpoint,ok", [
    ("http://127.0.0.1:9/x", True), ("https://[::1]:9/x", True), ("http://localhost:8/x", True),
    ("http://10.0.0.1/x", False), ("https://192.168.0.1/x", False),
    ("https://169.254.169.254/x", False),
])
def test_local_mode_keeps_only_its_loopback_exception(duo, endpoint, ok):
    reply = duo.client.post("/notifications/devices", headers=duo.bob_h,
                            json={"platform": "WEB", "token": token(endpoint)})
    assert reply.status_code == (201 if ok else 400), reply.get_json()


def _message():
    return push.Message("t", "b", "EXPENSE_ADDED")


def _deployed(provider: push.WebPushProvider) -> push.WebPushProvider:
    return push.WebPushProvider(provider.private_key, provider.subject, local=False)


def test_deployed_send_refuses_a_loopback_endpoint_and_posts_nothing(web_push):
    service = PushService()
    try:
        endpoint = service.url + "/sub/1"  # a row written before the rules, or local data
        assert web_push.send("WEB", token(endpoint), _message()) == push.SENT  # local: allowed
        assert _deployed(web_push).send("WEB", token(endpoint), _message()) == push.GONE
        assert len(service.received) == 1
    finally:
        service.close()


def test_deployed_send_refuses_a_name_that_resolves_privately(web_push, monkeypatch):
    """A registered name whose DNS answer (now) includes a private address."""
    real = socket.getaddrinfo

    def resolver(host, *args, **kwargs):
        if host == "push.example.com":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 443)),
                    (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", 443))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(addresses.socket, "getaddrinfo", resolver)
    endpoint = "https://push.example.com/sub/1"
    check_token("WEB", token(endpoint))  # fine at registration: a name
    assert _deployed(web_push).send("WEB", token(endpoint), _message()) == push.GONE


def test_a_redirect_is_not_followed(web_push):
    inside = PushService()
    # a 307 keeps the method and body: followed, the push would reach the inner service
    bouncer = PushService(status=307, location=inside.url + "/internal")
    try:
        outcome = web_push.send("WEB", token(bouncer.url + "/sub/1"), _message())
        assert len(bouncer.received) == 1 and inside.received == []
        assert outcome == push.FAILED
    finally:
        bouncer.close()
        inside.close()
