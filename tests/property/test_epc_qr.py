"""The SEPA payTo QR (app.money.epc_qr): whatever a payee saved and whatever a group is called,
the text has EPC069-12's eleven lines and each field its character set and length.

A reader that splits on every Unicode line break (U+0085, U+2028, U+2029 as well as CR/LF)
must read the same eleven lines as one that splits on LF alone: otherwise a holder name
such as "Bo\\u2028EUR9999.00" hands the payer's app fields the payee chose."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from app.money import pay_methods
from app.money.pay_methods import Method

IBAN = "DE89370400440532013000"
# str.splitlines()'s boundaries: what a reader splitting on Unicode line breaks splits on.
ANY_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
HOSTILE = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\u200b",
           "\u200d", "\u202e", "\u2066", "\ufeff", "\x00", "\x7f", "\ud800", "EUR9999.00",
           "DE02120300000000202051", "BCD", "ß", "Æ", "é", "ﬁ", "Ø", "&", "’", "🏖", "Поездка",
           "名前", " ", "\u00a0", "\t"]
hostile_text = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=4)),
                        max_size=30).map("".join)
# Names a payee could mean (accents, ligatures, 70-80 characters), sometimes with a hostile
# character in them: so that many draws get as far as a QR.
latin_name = st.text("abcXYZ019 .,'-+/?:()&äÉßØæ’ﬁ", min_size=1, max_size=80)
names = st.one_of(hostile_text, latin_name,
                  st.tuples(latin_name, st.sampled_from(HOSTILE), latin_name).map("".join))
FIELDS = {  # line -> what EPC069-12 allows there, as we write it
    0: re.compile("BCD"), 1: re.compile("002"), 2: re.compile("1"), 3: re.compile("SCT"),
    4: re.compile(""), 5: re.compile(r"[A-Za-z0-9/?:().,'+ -]{1,70}"),
    6: re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}"),
    7: re.compile(r"EUR[0-9]{1,9}\.[0-9]{2}"), 8: re.compile(""), 9: re.compile(""),
    10: re.compile(r"[A-Za-z0-9/?:().,'+ -]{0,140}"),
}


EPC_LINES = 11
MAX_CENTS = 99_999_999_999  # EUR 999999999.99


def assert_well_formed(text: str) -> None:
    lines = text.split("\n")
    assert len(lines) == EPC_LINES
    assert ANY_LINE_BREAK.split(text) == lines  # no reader sees another line
    for index, pattern in FIELDS.items():
        assert pattern.fullmatch(lines[index]), (index, lines[index])


def sepa_qr(name: str, cents: int, note: str):
    """The SEPA payTo entry's text for a method stored with ``name`` (as a row saved before
    any rule could be), or None when no QR is offered."""
    links = pay_methods.links([Method("SEPA", iban=IBAN, name=name)], amount=cents,
                              currency="EUR", note=note)
    return links[0]["epcQr"] if links else None


@settings(max_examples=300, deadline=None)
@given(name=names, note=hostile_text, cents=st.integers(-10, 10**12))
def test_the_qr_is_eleven_checked_lines_or_none(name, note, cents):
    text = sepa_qr(name, cents, note)
    if text is not None:
        assert 1 <= cents <= MAX_CENTS
        assert_well_formed(text)


@settings(max_examples=300, deadline=None)
@given(name=names)
def test_a_name_saved_is_a_name_the_qr_can_carry(name):
    """Write-time and QR agree: a SEPA method that passes PUT always gets its QR."""
    normalised, errors = pay_methods.checked([{"type": "SEPA", "iban": IBAN, "name": name}])
    if errors:
        assert set(errors) <= {"methods.0.name"}
        return
    links = pay_methods.links(normalised, amount=4550, currency="EUR", note=name)
    assert [link["type"] for link in links] == ["SEPA"]
    assert_well_formed(links[0]["epcQr"])


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\n", "\r", "\u202e",
                                       "\u200b", "\ufeff"])
def test_a_stored_name_with_a_separator_gets_no_qr(separator):
    """A row saved before the write-time rule: no QR rather than a payee-chosen line."""
    assert sepa_qr(f"Bo{separator}DE02120300000000202051{separator}EUR9999.00", 600,
                   "Trip") is None


def test_latin_names_are_folded_as_epc217_08_converts_them():
    from app.money import epc_qr

    assert epc_qr.holder_name("Jürgen Müller-Straße") == "Jurgen Muller-Strasse"
    assert epc_qr.holder_name("Æsa Løvaas & Søn") == "AEsa Lovaas + Son"
    assert epc_qr.holder_name("O’Brien") == "O'Brien"
    assert epc_qr.holder_name("Поездка") is None and epc_qr.holder_name("Bo 🏖") is None
    assert epc_qr.holder_name("ß" * 36) is None  # 72 once folded: past the field's 70
    assert epc_qr.remittance("TailSpend: 🏖 Ski\u2028trip Åre\x85EUR9999.00") == \
        "TailSpend: Ski trip Are EUR9999.00"


@pytest.mark.parametrize("cents, shown", [(1, "EUR0.01"), (4550, "EUR45.50"),
                                          (MAX_CENTS, "EUR999999999.99")])
def test_amounts_within_epc_bounds_are_written(cents, shown):
    assert sepa_qr("Bo", cents, "n").split("\n")[7] == shown


@pytest.mark.parametrize("cents", [0, -5, MAX_CENTS + 1])
def test_amounts_outside_epc_bounds_get_no_qr(cents):
    assert sepa_qr("Bo", cents, "n") is None
