"""Issue 30's money findings, black-box through HTTP: bounded conversion rates, undoing a
conversion, conversions that follow their people (transfer, removal) and the rates route's
date parameter."""
from __future__ import annotations

import pytest

from tests.ledger.helpers import assert_balance_matches_rows, equal_body


def _kept(group, amount, currency="JPY", payer=None):
    body = {**equal_body(payer or group.me, amount, group.everyone), "currency": currency}
    reply = group.post("/expenses", body)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def _sections(group):
    reply = group.get("/balances").get_json()
    main = {row["participantId"]: row["net"] for row in reply["balances"] if row["net"]}
    other = {s["currency"]: {row["participantId"]: row["net"] for row in s["balances"]
                             if row["net"]} for s in reply["otherCurrencies"]}
    return main, other


@pytest.mark.parametrize("day", ["2026-11-31", "2024-13-01", "2024-02-30", "2024-00-10"])
def test_rates_for_a_day_that_does_not_exist_is_a_400_naming_date(client, sign_in, day):
    headers, _ = sign_in("rates@example.com")
    reply = client.get(f"/fx/rates?date={day}", headers=headers)
    assert reply.status_code == 400, reply.get_json()
    assert "date" in str(reply.get_json()["error"]["details"])
