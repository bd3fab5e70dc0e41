"""Amount reading as a property: any amount, printed in any of the ways receipts print
amounts (decimal comma or point, grouping by point, comma, space, no-break space or
apostrophe, a symbol or code before or after, a sign), reads back to its minor units."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.money.currencies import MINOR_UNITS
from app.money.amounts_and_dates import find_amounts, parse_amount
from app.receipts.scan.parser import parse_lines
from app.receipts.scan.result import ScanHints

CURRENCIES = {"EUR": ("€", "EUR"), "USD": ("$", "USD"), "GBP": ("£", "GBP"),
              "CHF": ("Fr.", "CHF"), "JPY": ("¥", "円", "JPY"), "KRW": ("₩", "원"),
              "KWD": ("KWD",), "SEK": ("kr", "SEK"), "PLN": ("zł",)}


def _group(whole: int, separator: str) -> str:
    digits = str(whole)
    if not separator:
        return digits
    groups = []
    while len(digits) > 3:
        digits, tail = digits[:-3], digits[-3:]
        groups.insert(0, tail)
    return separator.join([digits] + groups)


@st.composite
def printed(draw):
    currency = draw(st.sampled_from(sorted(CURRENCIES)))
    places = MINOR_UNITS[currency]
    minor = draw(st.integers(min_value=0, max_value=10 ** 11))
    decimal = draw(st.sampled_from([".", ","]))
    other = "," if decimal == "." else "."
    grouping = [""] + [other, "\u00a0", "\u202f"] + (["'"] if decimal == "." else [])
    if places:
        grouping.append(" ")  # a plain space groups before a decimal part only
    group = draw(st.sampled_from(grouping))
    whole, fraction = divmod(minor, 10 ** places)
    text = _group(whole, group) + (decimal + str(fraction).rjust(places, "0") if places else "")
    mark = draw(st.sampled_from(("",) + CURRENCIES[currency]))
    where = draw(st.sampled_from(["before", "after"]))
    space = draw(st.sampled_from(["", " "]))
    if mark:
        text = f"{mark}{space}{text}" if where == "before" else f"{text}{space}{mark}"
    negative = draw(st.booleans()) and minor > 0
    if negative:
        text = draw(st.sampled_from([f"-{text}", f"{text}-"]))
    return text, currency, -minor if negative else minor


@settings(max_examples=400, deadline=None)
@given(printed())
def test_any_printed_amount_reads_back_to_its_minor_units(case):
    text, currency, minor = case
    assert parse_amount(text, currency) == minor, text


@settings(max_examples=200, deadline=None)
@given(printed(), st.sampled_from(["TOTAL", "Summe", "Total TTC", "TOTALE", "Totaal", "合計"]))
def test_a_total_line_carries_its_amount_whatever_the_locale(case, label):
    text, currency, minor = case
    if minor <= 0:
        return
    result = parse_lines(["Shop", f"{label} {text}"], ScanHints(currency))
    assert (result.total, result.currency) == (minor, currency), text


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None)
def test_any_text_reads_without_error(text):
    for amount in find_amounts(text):
        amount.minor("EUR")
    parse_lines(text.splitlines() or [text], ScanHints("EUR"))
