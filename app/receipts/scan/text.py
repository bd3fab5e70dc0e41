"""Text clean-up shared by the parser: Unicode compatibility forms, accent folding, and
keyword matching that works for both spaced (Latin) and unspaced (CJK) scripts."""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from app.money.amounts_and_dates import fold

_SPACES = re.compile(r"\s+")
_DIGIT_SPACE = re.compile(r"(?<=\d)[\u00a0\u202f\u2009](?=\d{3})")


def clean(line: str) -> str:
    """NFKC (full-width ``１,２００`` and ``￥`` become ASCII digits and ``¥``), control
    characters made spaces, format characters (bidi overrides, zero-width) dropped, runs of
    spaces collapsed."""
    # NFKC makes a no-break or thin space a plain one, but between digits it groups
    # thousands ("1 000" in French): kept as the apostrophe that always groups.
    text = _DIGIT_SPACE.sub("'", line or "")
    text = unicodedata.normalize("NFKC", text)
    text = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text
                   if unicodedata.category(ch) not in ("Cf", "Cs", "Co", "Cn"))
    return _SPACES.sub(" ", text).strip()


def keyword_pattern(words: Iterable[str]) -> re.Pattern:
    """One regex for folded text: Latin words match on word boundaries ("total" is not in
    "subtotal"), CJK words anywhere (no spaces between words there)."""
    parts = []
    for word in sorted(set(words), key=len, reverse=True):
        folded = fold(word)
        escaped = re.escape(folded).replace(r"\ ", r"\s*")
        parts.append(rf"(?<![^\W_]){escaped}(?![^\W_])" if folded.isascii() else escaped)
    return re.compile("|".join(parts))


def letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)
