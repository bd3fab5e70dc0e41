"""The EPC069-12 text a banking app scans to pay by SEPA credit transfer: each field checked.

The text is eleven lines (version 002, UTF-8, SCT) and a reader splits it on line breaks, some
on every Unicode one (U+0085, U+2028, U+2029 too): a field holding one would hand the payer's
app fields the payee chose (another amount, another IBAN). So no field is written unchecked:
each must match EPC069-12's length for it and the Latin character set of the SEPA rules
(a-z A-Z 0-9 / - ? : ( ) . , ' + and space), which holds no line break at all.

Other Latin letters are folded into that set as the EPC's conversion best practice (EPC217-08)
does: accents dropped (Müller -> Muller), ß -> ss, Æ -> AE, Ø -> O, & -> +. A holder name that
does not fold into the set (another script, an emoji) is refused when it is saved
(app.money.pay_methods); a stored one that does not (saved before this rule) gets no QR. Our
note, which carries a group's name, is folded the same way and keeps only what fits."""
from __future__ import annotations

import re
import unicodedata
from typing import Optional

MAX_NAME = 70  # AT-21, name of the beneficiary
MAX_TEXT = 140  # AT-05, unstructured remittance information
MAX_CENTS = 99_999_999_999  # AT-04: at most 999999999.99 EUR
LINES = 11  # up to the remittance text; the optional twelfth (a note to the payer) is not sent
CHARSET = "a-z A-Z 0-9 / - ? : ( ) . , ' + and space"
LATIN = re.compile(r"[A-Za-z0-9/?:().,'+ -]*")
IBAN = re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}")  # AT-20: at most 34
AMOUNT = re.compile(r"EUR(?!0\.00$)(0|[1-9][0-9]{0,8})\.[0-9]{2}")  # 0.01 to 999999999.99

# Letters NFKD does not decompose, as EPC217-08 converts them; typographic punctuation to
# the plain mark it stands for.
_FOLD = str.maketrans({"ß": "ss", "ẞ": "SS", "Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o",
                       "Œ": "OE", "œ": "oe", "Ł": "L", "ł": "l", "Đ": "D", "đ": "d",
                       "Ð": "D", "ð": "d", "Þ": "TH", "þ": "th", "ı": "i", "ĸ": "q",
                       "&": "+", "\u2018": "'", "\u2019": "'", "\u2010": "-", "\u2011": "-",
                       "\u2013": "-", "\u2014": "-"})


def fold(text: str) -> str:
    """``text`` with accents dropped and the letters above converted; anything else kept as
    it is (the caller checks the result against LATIN)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(_FOLD)


def holder_name(name: str) -> Optional[str]:
    """The beneficiary name as the QR writes it, or None when it cannot be written."""
    folded = fold(name).strip()
    if not folded or len(folded) > MAX_NAME or not LATIN.fullmatch(folded):
        return None
    return folded


def remittance(note: str) -> str:
    """Our note in the character set: folded, what still does not fit dropped, blanks
    collapsed, cut to the field's length."""
    kept = "".join(ch if LATIN.fullmatch(ch) else " " for ch in fold(note))
    return " ".join(kept.split())[:MAX_TEXT].rstrip()


def text(*, name: str, iban: str, amount: str, note: str) -> Optional[str]:
    """The QR text paying ``amount`` (a decimal string, ``"45.50"``) to ``name``'s ``iban``,
    or None when one of them cannot be written into it. BIC left empty (optional in the EEA
    since version 002), no purpose code, no structured reference."""
    beneficiary = holder_name(name or "")
    euros = "EUR" + amount
    if beneficiary is None or not IBAN.fullmatch(iban or "") or not AMOUNT.fullmatch(euros):
        return None
    return "\n".join(["BCD", "002", "1", "SCT", "", beneficiary, iban, euros, "", "",
                      remittance(note)])
