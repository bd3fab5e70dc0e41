"""GET/PUT /users/me/payment-methods and the payTo links on settle-up transfers."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from app.money import pay_methods
from app.money.pay_methods import Method
from tests.ledger.helpers import join_directly
from tests.support import aws_calls

SEPA = {"type": "SEPA", "iban": "DE89 3704 0044 0532 0130 00", "name": "Bo Jones"}


def put(client, headers, methods):
    return client.put("/users/me/payment-methods", json={"methods": methods}, headers=headers)


def test_methods_round_trip_normalised(client, sign_in):
    headers, _ = sign_in("bo@example.com")
    assert client.get("/users/me/payment-methods", headers=headers).get_json() == {"methods": []}
    reply = put(client, headers, [{"type": "PAYPAL", "handle": "@bojones"}, SEPA,
                                  {"type": "UPI", "handle": "bo@okaxis"}])
    assert reply.status_code == 200, reply.get_json()
    stored = client.get("/users/me/payment-methods", headers=headers).get_json()
    assert stored == reply.get_json() == {"methods": [
        {"type": "PAYPAL", "handle": "bojones"},
        {"type": "SEPA", "iban": "DE89370400440532013000", "name": "Bo Jones"},
        {"type": "UPI", "handle": "bo@okaxis"}]}


@pytest.mark.parametrize("method, field", [
    ({"type": "SEPA", "iban": "DE89370400440532013001", "name": "Bo"}, "methods.0.iban"),
    ({"type": "SEPA", "iban": "DE89370400440532013000"}, "methods.0.name"),
    ({"type": "PAYPAL", "handle": "bo/../x"}, "methods.0.handle"),
    ({"type": "VENMO", "handle": "abc"}, "methods.0.handle"),
    ({"type": "MONZO", "handle": "a b"}, "methods.0.handle"),
    ({"type": "UPI", "handle": "not-a-vpa"}, "methods.0.handle"),
    ({"type": "REVOLUT", "handle": "ok_name", "iban": "DE89370400440532013000"},
     "methods.0.iban"),
])
def test_refused_shapes_name_the_field(client, sign_in, method, field):
    headers, _ = sign_in("bo@example.com")
    reply = put(client, headers, [method])
    assert reply.status_code == 400
    body = reply.get_json()["error"]
    assert body["code"] == "VALIDATION_ERROR" and field in body["details"], body


INVISIBLE = ["\u2028", "\u2029", "\x85", "\x0b", "\u200b", "\u202e", "\ufeff", "\u2066"]


@pytest.mark.parametrize("char", INVISIBLE)
@pytest.mark.parametrize("method, field", [
    ({"type": "SEPA", "iban": "DE89370400440532013000", "name": "Bo{c}EUR9999.00"}, "name"),
    ({"type": "SEPA", "iban": "DE89370400440532013000{c}", "name": "Bo"}, "iban"),
    ({"type": "PAYPAL", "handle": "bojones{c}"}, "handle"),
    ({"type": "UPI", "handle": "{c}bo@okaxis"}, "handle"),
    ({"type": "UPI", "handle": "bo@okaxis", "name": "Bo{c}"}, "name"),
])
def test_separators_and_invisible_characters_are_refused_in_every_field(client, sign_in, char,
                                                                        method, field):
    """A line or paragraph separator, a control or a format character, even at an end where
    a strip() would have dropped it: 400 naming the field, nothing stored."""
    headers, _ = sign_in("bo@example.com")
    sent = {key: value.replace("{c}", char) for key, value in method.items()}
    reply = put(client, headers, [sent])
    assert reply.status_code == 400, reply.get_json()
    body = reply.get_json()["error"]
    assert body["code"] == "VALIDATION_ERROR" and f"methods.0.{field}" in body["details"], body
    assert client.get("/users/me/payment-methods", headers=headers).get_json() == {"methods": []}


@pytest.mark.parametrize("name, accepted", [("Jürgen Müller-Straße", True),
                                            ("Æsa Løvaas & Søn", True),
                                            ("Поездка", False), ("Bo 🏖", False)])
def test_a_sepa_holder_name_must_fit_the_qr(client, sign_in, name, accepted):
    """Latin letters with accents fold into the QR's character set (stored as typed); a name
    the QR cannot carry is refused when saved, not silently left out of the QR later."""
    headers, _ = sign_in("bo@example.com")
    reply = put(client, headers, [dict(SEPA, name=name)])
    if accepted:
        assert reply.status_code == 200 and reply.get_json()["methods"][0]["name"] == name
    else:
        assert reply.status_code == 400
        assert "methods.0.name" in reply.get_json()["error"]["details"]


def test_at_most_five_methods(client, sign_in):
    headers, _ = sign_in("bo@example.com")
    reply = put(client, headers, [{"type": "PAYPAL", "handle": f"bo{i}"} for i in range(6)])
    assert reply.status_code == 400


def test_amounts_follow_the_currency_exponent():
    assert pay_methods.decimal_amount(4550, "EUR") == "45.50"
    assert pay_methods.decimal_amount(5, "EUR") == "0.05"
    assert pay_methods.decimal_amount(1200, "JPY") == "1200"
    assert pay_methods.decimal_amount(1234, "KWD") == "1.234"


def test_links_only_where_the_service_takes_the_currency_and_parts_are_encoded():
    methods = [Method("PAYPAL", handle="bo"), Method("VENMO", handle="bo-j"),
               Method("MONZO", handle="bo"), Method("UPI", handle="bo@okaxis", name="Bo J"),
               Method("REVOLUT", handle="bo"), Method("SEPA", iban="DE89370400440532013000",
                                                      name="Bo Jones")]
    usd = pay_methods.links(methods, amount=1230, currency="USD", note="Trip & co")
    assert [link["type"] for link in usd] == ["PAYPAL", "VENMO", "REVOLUT"]
    assert usd[0]["url"] == "https://paypal.me/bo/12.30USD"
    venmo = urlsplit(usd[1]["url"])
    assert parse_qs(venmo.query) == {"txn": ["pay"], "amount": ["12.30"], "note": ["Trip & co"]}
    assert "Trip%20%26%20co" in usd[1]["url"]
    inr = pay_methods.links(methods, amount=50000, currency="INR", note="n")
    assert inr[1]["url"] == "upi://pay?pa=bo%40okaxis&pn=Bo%20J&am=500.00&cu=INR&tn=n"
    gbp = pay_methods.links(methods, amount=999, currency="GBP", note="n")
    assert {"type": "MONZO", "url": "https://monzo.me/bo/9.99"} in gbp
    eur = pay_methods.links(methods, amount=4550, currency="EUR", note="Trip")
    sepa = [link for link in eur if link["type"] == "SEPA"][0]
    assert sepa["epcQr"].split("\n") == ["BCD", "002", "1", "SCT", "", "Bo Jones",
                                         "DE89370400440532013000", "EUR45.50", "", "", "Trip"]


def test_balances_transfers_carry_the_payees_links(group, client, sign_in):
    headers, bo = sign_in("bo@example.com")
    assert put(client, headers, [{"type": "PAYPAL", "handle": "bojones"}, SEPA]).status_code == 200
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    group.add_expense(1000, payer=bo_pid, among=[group.me, bo_pid])
    reply = group.get("/balances").get_json()
    (transfer,) = reply["transfers"]
    assert transfer["toParticipantId"] == bo_pid and transfer["amount"] == 500
    assert transfer["payTo"][0] == {"type": "PAYPAL", "url": "https://paypal.me/bojones/5.00EUR"}
    assert transfer["payTo"][1]["type"] == "SEPA" and "EUR5.00" in transfer["payTo"][1]["epcQr"]
    # Bo is paid; a transfer to a guest has no links.
    group.add_expense(3000, payer=group.guests[0], among=[group.me, group.guests[0]])
    for transfer in group.get("/balances").get_json()["transfers"]:
        if transfer["toParticipantId"] == group.guests[0]:
            assert transfer["payTo"] == []


def test_balances_read_the_roster_methods_with_the_access_check(group, client, sign_in):
    headers, bo = sign_in("bo@example.com")
    put(client, headers, [{"type": "PAYPAL", "handle": "bojones"}])
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    group.add_expense(900, payer=group.guests[0])  # only a guest is paid
    with aws_calls.requests_made() as calls:
        group.get("/balances")
    assert [op for op, _ in calls] == ["Query", "BatchGetItem"]
    read = {key["SK"]["S"] for items in calls[1][1]["RequestItems"].values()
            for key in items["Keys"]}
    assert "PAYMENT_METHODS" in read  # the roster's accounts', read beside the check
    group.add_expense(5000, payer=bo_pid, among=[group.me, bo_pid])
    with aws_calls.recorded() as calls:
        reply = group.get("/balances").get_json()
    assert calls == ["Query", "BatchGetItem"]
    (to_bo,) = [t for t in reply["transfers"] if t["toParticipantId"] == bo_pid]
    assert to_bo["payTo"][0]["url"].startswith("https://paypal.me/bojones/")


def test_a_stranger_gets_no_methods_from_the_balances_read(group, client, sign_in):
    headers, bo = sign_in("bo@example.com")
    put(client, headers, [{"type": "PAYPAL", "handle": "bojones"}])
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    group.add_expense(5000, payer=bo_pid, among=[group.me, bo_pid])
    stranger, _ = sign_in("eve@example.com")
    reply = client.get(f"/groups/{group.group_id}/balances", headers=stranger)
    assert reply.status_code == 404 and b"bojones" not in reply.data


def test_account_deletion_removes_the_methods(client, sign_in):
    from models.payment_methods import PaymentMethods
    headers, bo = sign_in("bo@example.com")
    put(client, headers, [{"type": "PAYPAL", "handle": "bo"}])
    assert PaymentMethods.raw_get(*PaymentMethods.key(bo))
    assert client.delete("/users/me", headers=headers).status_code == 204
    assert PaymentMethods.raw_get(*PaymentMethods.key(bo)) is None
