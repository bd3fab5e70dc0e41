"""Human-visible names are NFC-normalised and refuse control, format and bidi-override
characters, on every route that takes one (issue 20, item 14; see app/names.py). Extends
test_unicode_text.py (lone surrogates) to what valid Unicode can still hide."""
from __future__ import annotations

import unicodedata

import pytest

from app import names
from app.users.provisioning import provision_user
from models.users import Profile
from tests.mcp.conftest import REDIRECT

REFUSED = {
    "zero-width space": "Ad\u200ba",
    "zero-width joiner between letters": "Ad\u200da",
    "zero-width non-joiner between Latin letters": "Ad\u200ca",
    "right-to-left override": "Ann\u202egnp.exe",
    "left-to-right embedding": "\u202aAnn",
    "pop directional formatting": "Ann\u202c",
    "first strong isolate": "\u2068Ann\u2069",
    "right-to-left mark": "Ann\u200f",
    "Arabic letter mark": "Ann\u061c",
    "byte-order mark": "\ufeffAnn",
    "soft hyphen": "An\u00adn",
    "word joiner": "An\u2060n",
    "tag character": "Ann\U000E0041",
    "NUL": "Ann\x00",
    "escape": "Ann\x1b[31m",
    "DEL": "Ann\x7f",
    "C1 control": "Ann\x85",
    "newline": "Ann\nBob",
    "tab": "Ann\tBob",
    "line separator": "Ann\u2028Bob",
    "paragraph separator": "Ann\u2029Bob",
}
ALLOWED = {
    "accents": "Zoë Ünal",
    "family emoji (ZWJ between emoji)": "Family \U0001F468\u200d\U0001F469\u200d\U0001F467",
    "rainbow flag (VS16 then ZWJ)": "\U0001F3F3\ufe0f\u200d\U0001F308 crew",
    "skin tone then ZWJ": "\U0001F469\U0001F3FD\u200d\U0001F4BB team",
    "Persian ZWNJ": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
    "Devanagari virama then ZWJ": "\u0915\u094d\u200d\u0937",
    "CJK": "山田 太郎",
    "right-to-left script": "\u05e9\u05dc\u05d5\u05dd",
}


# (method, path template, JSON body template with the name at NAME)
ROUTES = [
    ("POST", "/groups", {"name": "NAME", "currency": "EUR"}),
    ("PATCH", "/groups/{gid}", {"name": "NAME"}),
    ("PATCH", "/users/me", {"displayName": "NAME"}),
    ("POST", "/groups/{gid}/participants", {"displayName": "NAME"}),
    ("PATCH", "/groups/{gid}/participants/{guest}", {"displayName": "NAME"}),
    ("POST", "/developer/tokens", {"name": "NAME", "scopes": ["groups:read"]}),
    ("POST", "/dev/tokens", {"email": "other@example.com", "displayName": "NAME"}),
]


@pytest.fixture
def world(client, sign_in):
    headers, _ = sign_in("names@example.com")
    group = client.post("/groups", json={"name": "G", "currency": "EUR"},
                        headers=headers).get_json()
    gid = group["groupId"]
    guest = client.post(f"/groups/{gid}/participants", json={"displayName": "Guest"},
                        headers=headers).get_json()["participantId"]
    return headers, gid, guest


def _body(template: dict, name: str) -> dict:
    return {k: (name if v == "NAME" else v) for k, v in template.items()}


def _refused(client, world, method, path, body, name):
    headers, gid, guest = world
    reply = client.open(path.format(gid=gid, guest=guest), method=method, headers=headers,
                        json=_body(body, name))
    assert reply.status_code == 400, reply.get_data(as_text=True)
    error = reply.get_json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert any("format" in m for messages in error["details"].values() for m in messages), error


@pytest.mark.parametrize("method,path,body", ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
@pytest.mark.parametrize("case", ["zero-width space", "right-to-left override", "NUL"])
def test_every_name_field_refuses_invisible_characters(client, world, method, path, body, case):
    _refused(client, world, method, path, body, REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_refused_character_kind(client, world, case):
    _refused(client, world, *ROUTES[0], REFUSED[case])


@pytest.mark.parametrize("method,path,body", ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
def test_names_are_stored_nfc(client, world, method, path, body):
    """``e`` + COMBINING ACUTE is sent; the composed ``é`` is what is stored and sent back."""
    headers, gid, guest = world
    decomposed = "Jose\u0301 Ame\u0301lie"
    reply = client.open(path.format(gid=gid, guest=guest), method=method, headers=headers,
                        json=_body(body, decomposed))
    assert reply.status_code in (200, 201), reply.get_json()
    sent = reply.get_json()
    shown = sent.get("name") or sent.get("displayName")
    if shown is not None:
        assert shown == "José Amélie" == unicodedata.normalize("NFC", decomposed)


@pytest.mark.parametrize("case", sorted(ALLOWED))
def test_real_names_still_pass(client, world, case):
    headers, *_ = world
    reply = client.post("/groups", json={"name": ALLOWED[case], "currency": "EUR"},
                        headers=headers)
    assert reply.status_code == 201, reply.get_json()
    assert reply.get_json()["name"] == ALLOWED[case]


def test_an_oauth_client_name_is_held_to_the_rule(client, app):
    bad = client.post("/oauth/register", json={"redirect_uris": [REDIRECT],
                                               "client_name": "Claude\u202e"})
    assert bad.status_code == 400 and bad.get_json()["error"] == "invalid_client_metadata"
    good = client.post("/oauth/register", json={"redirect_uris": [REDIRECT],
                                                "client_name": "Cafe\u0301 app"})
    assert good.status_code == 201 and good.get_json()["client_name"] == "Café app"


def test_a_name_from_the_identity_provider_is_cleaned_not_refused(aws):
    user_id = provision_user(provider="local", subject="idp@example.com", email="idp@example.com",
                             display_name="Ev\u200be\u202e", test_domain="example.test")
    assert Profile.get(user_id, "PROFILE").DisplayName == "Eve"


@pytest.mark.parametrize("text", sorted(REFUSED.values()))
def test_clean_leaves_nothing_normalise_refuses(text):
    with pytest.raises(ValueError):
        names.normalise(text)
    assert names.normalise(names.clean(text)) == names.clean(text)
