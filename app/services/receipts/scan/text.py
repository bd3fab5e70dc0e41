"""Text clean-up shared by the parser: Unicode compatibility forms, accent folding, and
keyword matching that works for both spaced (Latin) and unspaced (CJK) scripts."""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable

_SPACES = re.compile(r"[ \t\u3000]+")


def clean(line: str) -> str:
    """NFKC (full-width ``１,２００`` and ``￥`` become ASCII digits and ``¥``), control
    characters dropped, runs of spaces collapsed."""
    text = unicodedata.normalize("NFKC", line or "")
    text = "".join(ch for ch in text if ch in "\t " or unicodedata.category(ch)[0] != "C")
    return _SPACES.sub(" ", text).strip()


def fold(text: str) -> str:
    """Lower case without accents, one character for one (``"Rückgeld"`` -> ``"ruckgeld"``)
    where the script allows it, so spans found in the folded text index the original."""
    out = []
    for ch in text.lower():
        base = "".join(c for c in unicodedata.normalize("NFKD", ch)
                       if not unicodedata.combining(c))
        out.append(base if len(base) == 1 else ch)
    return "".join(out)


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
