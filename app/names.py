"""Human-visible names (people, groups, guests, tokens, OAuth clients): one rule for all.

A name is stored NFC-normalised (so the same name typed on two keyboards is one string) and
holds no character that changes how other text looks while being invisible itself:

- control characters (Cc) and the line and paragraph separators (Zl, Zp);
- format characters (Cf): zero-width space U+200B, the byte-order mark U+FEFF, the soft
  hyphen U+00AD, the bidirectional marks, embeddings, overrides and isolates (U+200E-U+200F,
  U+202A-U+202E, U+2066-U+2069, U+061C), invisible operators U+2060-U+2064, tag characters;
- lone surrogates (Cs).

Two format characters carry meaning in real names, so they are allowed in context only
(after RFC 5892 Appendix A, simplified): ZERO WIDTH NON-JOINER U+200C after a virama or
between two Arabic-script letters (Persian), and ZERO WIDTH JOINER U+200D after a virama or
between two symbols (emoji sequences such as a family or a rainbow flag). Anywhere else
they would only make two equal-looking names differ.

Free text (expense descriptions and item names, comments, notes, join-request messages) is
not a name and is not held to this rule."""
from __future__ import annotations

import functools
import re
import unicodedata
from typing import Optional

from app.limits import MAX_DISPLAY_NAME

ZWNJ, ZWJ = "\u200c", "\u200d"
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}
_VIRAMA = 9  # canonical combining class
# Emoji modifiers and variation selectors may sit between an emoji and a joiner.
_EMOJI_EXTENDERS = {"\ufe0f", "\ufe0e"} | {chr(c) for c in range(0x1F3FB, 0x1F400)}
MESSAGE = ("Names may not contain control, format or bidirectional-override characters "
           "(such as zero-width spaces or U+202E).")


def _arabic(char: str) -> bool:
    code = ord(char)
    return unicodedata.category(char).startswith("L") and (
        0x0600 <= code <= 0x08FF or 0xFB50 <= code <= 0xFDFF or 0xFE70 <= code <= 0xFEFF)


def _symbol_before(text: str, index: int) -> bool:
    """A symbol (So) precedes ``index``, skipping emoji modifiers and variation selectors."""
    index -= 1
    while index >= 0 and text[index] in _EMOJI_EXTENDERS:
        index -= 1
    return index >= 0 and unicodedata.category(text[index]) == "So"


def _joiner_allowed(text: str, index: int) -> bool:
    before = text[index - 1] if index else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if not before or not after:
        return False
    if unicodedata.combining(before) == _VIRAMA:
        return True
    if text[index] == ZWNJ:
        return _arabic(before) and _arabic(after)
    return _symbol_before(text, index) and unicodedata.category(after) == "So"


def refused_character(text: str) -> Optional[str]:
    """The first character a name may not hold, or None."""
    for index, char in enumerate(text):
        if unicodedata.category(char) not in _REFUSED_CATEGORIES:
            continue
        if char in (ZWNJ, ZWJ) and _joiner_allowed(text, index):
            continue
        return char
    return None


def _bmp_class() -> str:
    """The refused characters of the Basic Multilingual Plane as a regex class body (\\uXXXX
    ranges, read alike by JSON Schema's ECMA-262 and Python), the joiners left out: what an
    OpenAPI pattern can say of this rule. Astral format characters and the joiners' context
    are the service's to check."""
    codes = [code for code in range(0x10000) if not 0xD800 <= code <= 0xDFFF
             and chr(code) not in (ZWNJ, ZWJ)
             and unicodedata.category(chr(code)) in _REFUSED_CATEGORIES]
    runs: list = []  # [first, last] of each run of consecutive code points
    for code in codes:
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(f"\\u{first:04X}" + (f"-\\u{last:04X}" if last > first else "")
                   for first, last in runs)


@functools.cache
def pattern() -> re.Pattern:
    """Not blank, and none of the refused BMP characters: the OpenAPI pattern of a name.
    Built on first use: walking the 65,536 code points is a cost no cold start should pay."""
    refused = _bmp_class()
    return re.compile(rf"^[^{refused}]*[^{refused}\s][^{refused}]*$")


def normalise(text: str) -> str:
    """``text`` in NFC; ValueError (MESSAGE, naming the character) when it holds one a name
    may not."""
    normal = unicodedata.normalize("NFC", text)
    bad = refused_character(normal)
    if bad is not None:
        raise ValueError(f"{MESSAGE} Found U+{ord(bad):04X}.")
    return normal


def validated(text: str, *, max_length: int = MAX_DISPLAY_NAME) -> str:
    """The REST rule of a name field (app.api.schemas.DisplayName) as one function, for
    the paths that store a name without a request schema (imports): ``text`` NFC-normalised,
    or ValueError saying why — a refused character, blank, or past ``max_length``."""
    normal = normalise(text)
    if not normal.strip():
        raise ValueError("Must not be blank.")
    if len(normal) > max_length:
        raise ValueError(f"Longer than {max_length} characters.")
    return normal


def clean(text: Optional[str]) -> Optional[str]:
    """A name from elsewhere (an identity provider, a client metadata document) made
    acceptable: NFC, and the characters a name may not hold dropped. None stays None."""
    if text is None:
        return None
    normal = unicodedata.normalize("NFC", text)
    while True:
        bad = refused_character(normal)
        if bad is None:
            return normal
        normal = unicodedata.normalize("NFC", normal.replace(bad, ""))


def folded(text: Optional[str]) -> str:
    """Case- and accent-insensitive form: NFKD, combining marks dropped, casefolded (the
    expense search's matching form, shared with the cross-group projection's ``Names``)."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
