"""Names in free text, matched against one group's roster (accents and case ignored)."""
from __future__ import annotations

import re
import unicodedata
from typing import Dict, List, Optional, Tuple

from rapidfuzz import fuzz, process

SELF = {"i", "me", "my", "myself", "mine", "i'm", "i've", "i'd"}
US = {"we", "us", "our"}
EVERYONE = ("everyone", "everybody", "all of us", "the whole group", "the group", "all")
# Capitalised words that are not people: sentence starters, months, days, currency words.
NOT_NAMES = set("""a an the and or but so then also actually oh ok okay hey please split
paid pay bought got covered dinner lunch breakfast brunch taxi uber cab hotel groceries drinks
coffee tickets ticket gas fuel rent pizza beer wine snacks movie cinema train bus flight
parking yesterday today tonight last on in at for with by of to from it its this that make
add remove without not no yes equally evenly each way ways shares share half monday tuesday
wednesday thursday friday saturday sunday january february march april may june july august
september october november december jan feb mar apr jun jul aug sep sept oct nov dec euro
euros dollars dollar pounds usd eur gbp jpy chf everyone everybody all who what when how
we us our you your he she they them his her their""".split())
MATCH_SCORE = 85  # of 100: "Anne" ~ "Ann", "bo" ~ "Bo", "Zoe" ~ "Zoë", not "Bob" ~ "Ann"

_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)


def fold(text: str) -> str:
    """Lowercase without accents: "Zoë" -> "zoe"."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


class Roster:
    """One group's participants, looked up by (fuzzy) first name or full name."""

    def __init__(self, participants: tuple, me: str) -> None:
        self.me = me
        self.names: Dict[str, str] = dict(participants)  # participantId -> displayName
        self._keys: List[Tuple[str, str]] = []  # (folded name or first name, participantId)
        for pid, name in participants:
            folded = fold(name)
            self._keys.append((folded, pid))
            first = folded.split()[0] if folded.split() else folded
            if first != folded:
                self._keys.append((first, pid))

    def lookup(self, word: str) -> Optional[str]:
        """The participant ``word`` names, or None (also when two match equally well)."""
        folded = fold(word)
        if folded in SELF:
            return self.me
        choices = [key for key, _ in self._keys]
        best = process.extract(folded, choices, scorer=fuzz.ratio, limit=3,
                               score_cutoff=MATCH_SCORE)
        if not best:
            return None
        ids = {self._keys[index][1] for _, score, index in best if score == best[0][1]}
        return ids.pop() if len(ids) == 1 else None


def words(text: str) -> List[Tuple[str, int]]:
    """(word, offset) of every word."""
    return [(m.group(), m.start()) for m in _WORD.finditer(text)]


def sentence_start(text: str, offset: int) -> bool:
    before = text[:offset].rstrip()
    return not before or before[-1] in ".!?"


def mentioned(text: str, roster: Roster) -> Tuple[List[str], List[str]]:
    """(participant ids named, in order; names that look like people but are not in the
    roster). "me"/"I" name the caller; a capitalised unknown word is asked about, never
    guessed."""
    found: List[str] = []
    unknown: List[str] = []
    for word, offset in words(text):
        folded = fold(word)
        if folded in SELF:
            pid = roster.me
        elif folded in NOT_NAMES or folded in US:
            continue
        else:
            pid = roster.lookup(word)
        if pid is not None:
            if pid not in found:
                found.append(pid)
        elif word[0].isupper() and not sentence_start(text, offset) and len(word) > 1:
            unknown.append(word)
    return found, unknown
