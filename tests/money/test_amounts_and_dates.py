"""The chat drafter and the receipt parser read amounts with one currency table
(app.money.amounts_and_dates): a symbol either reads, the other reads the same way."""
from __future__ import annotations

import pytest

from app.money.amounts_and_dates import (PRINTED_ONLY, SYMBOLS, amounts_in_message,
                                         currency_named, find_amounts)

HINTS = ("EUR", "CAD", "NOK", "CNY", "HKD")


@pytest.mark.parametrize("symbol", sorted(set(SYMBOLS) - PRINTED_ONLY))
@pytest.mark.parametrize("hint", HINTS)
def test_a_message_and_a_receipt_read_each_symbol_to_the_same_money(symbol, hint):
    printed = find_amounts(f"TOTAL {symbol}12.50")
    written = amounts_in_message(f"I paid {symbol}12.50 for lunch", hint)
    assert len(printed) == len(written) == 1
    currency = currency_named(printed[0].currency, hint)
    assert currency is not None
    assert (written[0].currency, written[0].minor(currency)) == (
        currency, printed[0].minor(currency))


@pytest.mark.parametrize("symbol, hint, currency", [
    ("kr.", "NOK", "NOK"), ("kr", "CZK", "CZK"), ("¥", "CNY", "CNY"), ("¥", "EUR", "JPY"),
    ("$", "AUD", "AUD"), ("HK$", "EUR", "HKD")])
def test_a_shared_symbol_is_the_groups_own_currency_in_both_readers(symbol, hint, currency):
    assert currency_named(find_amounts(f"{symbol} 30")[0].currency, hint) == currency
    assert amounts_in_message(f"{symbol}30 for taxi", hint)[0].currency == currency


def test_a_symbol_only_receipts_print_stays_a_word_in_a_message():
    assert currency_named(find_amounts("1250 Ft")[0].currency, "EUR") == "HUF"
    assert [a.currency for a in amounts_in_message("a 20 ft cable for 30 euros", "EUR")] == [
        None, "EUR"]
