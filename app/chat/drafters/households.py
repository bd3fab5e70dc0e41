"""The rule drafter's household sentences (English): who shares a household, who joins one,
who leaves theirs. A proposal names participants and the label each is to hold (None: no
household); the server judges it (app.chat.proposals) and a confirmation applies it under
the rules of PATCH participant's household (app.groups.participants.set_households).

- "Anna and Ben are one household" (also "form a household", "live together as a
  household", "… are the Smith household", "… are one household called Smiths")
- "put Carla in the Smith household", "move Carla to the Smiths' household",
  "add Carla to the Smith household"
- "Anna leaves her household", "I left my household", "take Ben out of his household"
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from app.chat.drafters.base import GroupContext, Proposal
from app.chat.drafters.people import SELF, Roster, fold
from app.limits import MAX_HOUSEHOLD

_PEOPLE = r"((?:[^\W\d_][\w'-]*)(?:\s*(?:,|\band\b|&)\s*[^\W\d_][\w'-]*)*)"
_LABEL = r"([^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,3}?)"
_NAMED = re.compile(rf"\bhousehold\s+(?:called|named)\s+{_LABEL}\s*[.!]?\s*$", re.I)
_SHARE = re.compile(rf"^\s*{_PEOPLE}\s+(?:are|form|make|live\s+as|are\s+living\s+as)\s+"
                    rf"(?:(?:one|a|the\s+same|a\s+single)\s+household|"
                    rf"the\s+{_LABEL}\s+household)\b", re.I)
_JOIN = re.compile(rf"\b(?:put|move|add|place)\s+{_PEOPLE}\s+(?:in|into|to|in\s+to)\s+"
                   rf"(?:the\s+)?{_LABEL}\s+household\b", re.I)
_LEAVE = re.compile(rf"^\s*{_PEOPLE}\s+(?:leaves?|left|quits?|is\s+leaving|are\s+leaving)\s+"
                    r"(?:(?:her|his|their|the|my|our|its)\s+)?household\b", re.I)
_TAKE_OUT = re.compile(rf"\b(?:take|remove)\s+{_PEOPLE}\s+(?:out\s+of|from)\s+"
                       r"(?:(?:her|his|their|the|my|our|its)\s+)?household\b", re.I)


def proposal(text: str, gc: GroupContext, roster: Roster,
             labels: Optional[dict] = None) -> Optional[Proposal]:
    """A household proposal for ``text``, or None when it says nothing about households.
    ``labels``: participantId -> the household each holds now (for "are one household":
    the household one of them already has is the one they share)."""
    labels = labels or {}
    for pattern, leaving in ((_LEAVE, True), (_TAKE_OUT, True), (_SHARE, False),
                             (_JOIN, False)):
        match = pattern.search(text)
        if match is None:
            continue
        pids, unknown = _people(match.group(1), roster)
        if unknown or not pids:
            question = f"Who is {unknown[0] if unknown else match.group(1)}? " \
                       f"No one by that name is in {gc.name}."
            return Proposal(reply=question, questions=[question], group_id=gc.group_id)
        if leaving:
            label = None
        else:
            label = _label(text, match, pids, gc, labels)
        return Proposal(reply="", group_id=gc.group_id,
                        households=[{"participantId": pid, "household": label}
                                    for pid in pids])
    return None


def _people(words: str, roster: Roster) -> Tuple[List[str], List[str]]:
    pids, unknown = [], []
    for word in (w.strip() for w in re.split(r"\s*(?:,|\band\b|&)\s*", words) if w.strip()):
        pid = roster.me if fold(word) in SELF else roster.lookup(word)
        if pid is None:
            unknown.append(word)
        elif pid not in pids:
            pids.append(pid)
    return pids, unknown


def _label(text: str, match, pids: List[str], gc: GroupContext,
           labels: dict) -> str:
    """The household's label: the one said ("the Smith household", "called Smiths"), else
    one the named people already hold, else their names joined ("Anna & Ben")."""
    named = _NAMED.search(text)
    said = named.group(1) if named else (match.group(2) if match.re.groups >= 2 else None)
    if said:
        said = re.sub(r"'s?$", "", said.strip())
        return said[:MAX_HOUSEHOLD]
    held = [labels[pid] for pid in pids if labels.get(pid)]
    if held:
        return held[0]
    names = [gc.display_name(pid) or "?" for pid in pids]
    return " & ".join(names)[:MAX_HOUSEHOLD].strip()
