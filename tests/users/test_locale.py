"""The profile's locale and GET /locales."""
from __future__ import annotations

EXPECTED = {"en", "de", "fr", "es", "it", "pt-BR", "nl"}


def test_locales_are_listed_without_signing_in(client):
    reply = client.get("/locales")
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["default"] == "en"
    assert {item["tag"] for item in body["items"]} >= EXPECTED
    assert {"tag": "de", "name": "Deutsch"} in body["items"]


def test_a_new_profile_reads_english_and_patch_sets_another_supported_locale(client, sign_in):
    headers, _ = sign_in("lena@example.com", display_name="Lena")
    assert client.get("/users/me", headers=headers).get_json()["locale"] == "en"

    reply = client.patch("/users/me", json={"locale": "pt-BR"}, headers=headers)

    assert reply.status_code == 200 and reply.get_json()["locale"] == "pt-BR"
    assert client.get("/users/me", headers=headers).get_json()["locale"] == "pt-BR"


def test_an_unsupported_locale_is_a_clear_400_and_changes_nothing(client, sign_in):
    headers, _ = sign_in("lena2@example.com", display_name="Lena")
    for tag in ("xx", "de_DE", "", 7):
        reply = client.patch("/users/me", json={"locale": tag}, headers=headers)
        assert reply.status_code == 400, tag
        body = reply.get_json()
        assert body["error"]["code"] == "VALIDATION_ERROR" and "locale" in body["error"]["details"]
    assert client.get("/users/me", headers=headers).get_json()["locale"] == "en"


def test_a_new_account_reads_in_the_language_it_signed_up_in(client):
    minted = client.post("/dev/tokens", json={"email": "ines@example.com"},
                         headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}).get_json()
    headers = {"Authorization": f"Bearer {minted['accessToken']}"}
    assert client.get("/users/me", headers=headers).get_json()["locale"] == "pt-BR"
    # a later sign-in from another browser changes nothing: the profile's locale stands
    client.post("/dev/tokens", json={"email": "ines@example.com"},
                headers={"Accept-Language": "de"})
    assert client.get("/users/me", headers=headers).get_json()["locale"] == "pt-BR"
