"""The offline rule-based drafter: English phrasings of an expense, no model, no network.

Built on python-dateutil (dates), rapidfuzz (names against the roster) and the ISO 4217
table (amounts). It asks instead of guessing: an unknown name, no amount or several, a
group it can't tell, a split that doesn't add up."""
from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Dict, List, Optional

from app.money.currencies import exact_minor, format_minor
from app.money.amounts_and_dates import amounts_in_message, date_in_message
from app.chat.drafters import households
from app.chat.drafters.base import Context, GroupContext, Proposal
from app.chat.drafters.people import EVERYONE, SELF, Roster, fold, mentioned

COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10}
_COUNT = r"(\d+|" + "|".join(COUNTS) + r")"
_WAYS = re.compile(rf"\b{_COUNT}\s+ways\b", re.I)
_SHARES_FOR = re.compile(rf"\b{_COUNT}\s+shares?\s+(?:for|to)\s+([^\W\d_][\w'-]*)", re.I)
_HAS_SHARES = re.compile(rf"\b([^\W\d_][\w'-]*)\s+(?:has|gets|takes|with)?\s*{_COUNT}\s+shares?\b",
                         re.I)
_PERCENT = re.compile(r"\b([^\W\d_][\w'-]*)\s+(\d{1,3})\s?%", re.I)
_OWES_HALF = re.compile(r"\b([^\W\d_][\w'-]*)\s+owes?\s+(?:me\s+|you\s+)?half\b", re.I)
_OWES = re.compile(r"\b([^\W\d_][\w'-]*)\s+owes?\s+(?:me\s+|you\s+)?(?=\S*\d)(\S+(?:\s\S+)?)", re.I)
_PAYER = re.compile(r"\b([^\W\d_][\w'-]*)\s+(?:paid|covered|bought|got|picked up|treated|"
                    r"spent|put down|received|sold)\b", re.I)
_PAID_BY = re.compile(r"\bpaid\s+by\s+([^\W\d_][\w'-]*)", re.I)
_FOR_PEOPLE = re.compile(r"\bfor\s+((?:[^\W\d_][\w'-]*)(?:\s*(?:,|and|&)\s*[^\W\d_][\w'-]*)*)",
                         re.I)
_FOR_THING = re.compile(r"\b(?:for|on)\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+|some\s+)?"
                        r"([^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?)", re.I)
_ADD = re.compile(r"\b(?:add|include|plus|also)\s+([^\W\d_][\w'-]*)", re.I)
_REMOVE = re.compile(r"\b(?:remove|without|not|except|drop|minus)\s+([^\W\d_][\w'-]*)", re.I)
# Money the group received: "got 20 back from the deposit", "a 15 refund", "sold the tent".
_INCOME = re.compile(r"\b(?:got\b[^.]*?\bback|refund(?:ed)?|reimbursed|received|sold|"
                     r"cash\s?back|money\s+back)\b", re.I)
_BACK_FROM = re.compile(r"\bback\s+(?:from|on)\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+)?"
                        r"([^\W\d_][\w'-]*)", re.I)
# An adjustment: "Ann 5 more", "Bo pays 3 less", "Cy +2" (on top of an equal share).
_MORE_LESS = re.compile(r"\b([^\W\d_][\w'-]*)\s+(?:pays\s+|owes\s+|has\s+)?(\S+)\s+"
                        r"(more|extra|less|fewer)\b", re.I)
_EQUAL = re.compile(r"\b(equally|evenly|50/50|fifty[- ]fifty|split)\b", re.I)
# "plus 10% tip", "with 8% tax", "+ 12.5% service", "and a 15% discount", "10% off": an extra
# on top of (or off) the items, as a percentage of what was said; "plus a 5 tip" in money.
_EXTRA_KINDS = {"tip": "tip", "tips": "tip", "gratuity": "tip", "tax": "tax", "vat": "tax",
                "gst": "tax", "service": "service", "discount": "discount", "off": "discount"}
_EXTRA = re.compile(r"(?:\b(?:plus|with|and|\+|incl(?:uding)?)\s+|\+\s*)?(?:an?\s+)?"
                    r"(\d{1,3}(?:[.,]\d{1,2})?)\s?(%|percent\b)?\s*"
                    r"(tips?|gratuity|tax|vat|gst|service(?:\s+charge)?|discount|off)\b", re.I)
_STOP_AFTER_THING = {"with", "yesterday", "today", "last", "on", "and", "at", "in", "split",
                     "tonight", "for", "paid", "i", "we", "me", "from"}
# Words that make a good description, and their category.
KEYWORDS = {"dinner": "Food", "lunch": "Food", "breakfast": "Food", "brunch": "Food",
            "pizza": "Food", "sushi": "Food", "restaurant": "Food", "coffee": "Food",
            "drinks": "Drinks", "beer": "Drinks", "wine": "Drinks", "groceries": "Groceries",
            "supermarket": "Groceries", "taxi": "Transport", "uber": "Transport",
            "cab": "Transport", "train": "Transport", "bus": "Transport", "flight": "Transport",
            "fuel": "Transport", "gas": "Transport", "petrol": "Transport", "parking": "Transport",
            "hotel": "Lodging", "airbnb": "Lodging", "rent": "Housing", "tickets": "Entertainment",
            "movie": "Entertainment", "cinema": "Entertainment", "concert": "Entertainment",
            "snacks": "Food", "electricity": "Utilities", "internet": "Utilities"}


# A group is chosen by name only when its whole name (this long at least) is in the message
# as whole words: a group renamed "e" by its owner must not catch every message with an "e".
MIN_GROUP_NAME = 3


def _names_group(name: str, text: str) -> bool:
    name = " ".join(name.split())
    if len(name) < MIN_GROUP_NAME:
        return False
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def _count(word: str) -> int:
    return COUNTS.get(word.lower()) or int(word)


def _names(roster: Roster, gc: GroupContext, pids: List[str]) -> str:
    shown = ["you" if pid == roster.me else gc.display_name(pid) or "?" for pid in pids]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


class RuleDrafter:
    """Drafts from English phrasings (see docs/chat.md and tests/chat/test_rule_parse.py)."""

    def draft(self, context: Context) -> Proposal:
        gc = self._group(context)
        if isinstance(gc, Proposal):
            return gc
        about_households = households.proposal(
            context.text, gc, Roster(gc.participants, gc.my_participant_id),
            dict(gc.households))
        return about_households or _Parse(context, gc).proposal()

    @staticmethod
    def _group(context: Context):
        chosen = context.group(context.session_group_id or
                               (context.open_draft or {}).get("groupId"))
        if chosen is not None:
            return chosen
        if not context.groups:
            return Proposal(reply="You are not in any group yet: create or join one first.",
                            questions=["Which group is this for?"])
        if len(context.groups) == 1:
            return context.groups[0]
        text = fold(context.text)
        named = [g for g in context.groups if _names_group(fold(g.name), text)]
        if len(named) == 1:
            return named[0]
        names = ", ".join(g.name for g in context.groups)
        question = f"Which group is this for? ({names})"
        return Proposal(reply=question, questions=[question])


class _Parse:
    """One message read against one group (and the open draft's facts, for a revision)."""

    def __init__(self, context: Context, gc: GroupContext) -> None:
        self.context, self.gc = context, gc
        self.roster = Roster(gc.participants, gc.my_participant_id)
        draft = context.open_draft or {}
        self.previous: dict = dict(draft.get("facts") or {}) if draft.get("groupId") == gc.group_id else {}
        self.questions: List[str] = []
        self.text = context.text

    def ask(self, question: str) -> None:
        if question not in self.questions:
            self.questions.append(question)

    def _mask(self, text: str, span) -> str:
        return text[:span[0]] + " " * (span[1] - span[0]) + text[span[1]:]

    def proposal(self) -> Proposal:
        facts = dict(self.previous)
        text = self.text
        day, span = date_in_message(text, date.fromisoformat(self.context.today))
        if span:
            text = self._mask(text, span)
            facts["date"] = day.isoformat()
        owes, text = self._owes(text)
        adjustments, text = self._adjustments(text)
        if _INCOME.search(text):
            facts["kind"] = "INCOME"
        text = self._extras(text, facts)
        self._amount(text, facts)
        self._payer(text, facts)
        self._participants(text, facts, owes)
        self._split(text, facts, owes, adjustments)
        self._description(text, facts)
        facts["groupId"] = self.gc.group_id
        return self._result(facts)

    # --- each fact ------------------------------------------------------------------------

    def _owes(self, text: str):
        """'I owe half', 'Ann owes 10' (those amounts are not the total: masked)."""
        owes: Dict[str, object] = {}
        for match in _OWES_HALF.finditer(text):
            pid = self._person(match.group(1))
            if pid:
                owes[pid] = "half"
        for match in _OWES.finditer(text):
            pid = self._person(match.group(1))
            found = amounts_in_message(match.group(2), self.gc.currency)
            if pid and found:
                owes[pid] = found[0]
                start = match.start(2) + found[0].start
                text = self._mask(text, (start, match.start(2) + found[0].end))
        return owes, text

    def _adjustments(self, text: str):
        """'Ann 5 more', 'Bo 3 less': signed amounts on top of an equal share (masked: they
        are not the total)."""
        adjustments: Dict[str, str] = {}
        for match in _MORE_LESS.finditer(text):
            pid = self._person(match.group(1))
            found = amounts_in_message(match.group(2), self.gc.currency)
            if pid and found:
                sign = "-" if match.group(3).lower() in ("less", "fewer") else ""
                adjustments[pid] = sign + str(found[0].value)
                start = match.start(2) + found[0].start
                text = self._mask(text, (start, match.start(2) + found[0].end))
        return adjustments, text
    def _extras(self, text: str, facts: dict) -> str:
        """'plus 10% tip', 'with 8% tax', '5 off': the extras (masked: not the total)."""
        found = []
        for match in _EXTRA.finditer(text):
            kind = _EXTRA_KINDS[match.group(3).split()[0].lower()]
            number = match.group(1).replace(",", ".")
            found.append({"name": kind, ("percent" if match.group(2) else "amount"): number})
            text = self._mask(text, match.span())
        if found:
            facts["extras"] = found
        return text

    def _amount(self, text: str, facts: dict) -> None:
        amounts = amounts_in_message(text, self.gc.currency)
        values = list(dict.fromkeys((a.value, a.currency) for a in amounts))
        with_currency = [a for a in amounts if a.currency]
        if with_currency and len({(a.value, a.currency) for a in with_currency}) == 1:
            values = [(with_currency[0].value, with_currency[0].currency)]
        if not values:
            if "amount" not in facts:
                self.ask("How much was it?")
            return
        if len(values) > 1:
            shown = ", ".join(str(v) for v, _ in values)
            self.ask(f"I see several amounts ({shown}): which one is the total?")
            return
        value, currency = values[0]
        facts["amount"] = str(value)
        facts["currency"] = currency or facts.get("currency") or self.gc.currency

    def _person(self, word: str) -> Optional[str]:
        if fold(word) in SELF:
            return self.roster.me
        return self.roster.lookup(word)

    def _payer(self, text: str, facts: dict) -> None:
        match = _PAID_BY.search(text)
        word = match.group(1) if match else None
        if word is None:
            match = _PAYER.search(text)
            word = match.group(1) if match else None
        if word is not None and fold(word) in {"we", "us"}:
            word = "i"
        pid = self._person(word) if word else None
        if pid:
            facts["payer"] = pid
        elif word and word[0].isupper() and fold(word) not in {"who"}:
            self.ask(f"Who is {word}? No one by that name is in {self.gc.name}.")
        facts.setdefault("payer", self.roster.me)

    def _participants(self, text: str, facts: dict, owes: dict) -> None:
        found, unknown = mentioned(text, self.roster)
        group_words = {fold(w) for g in self.context.groups for w in g.name.split()}
        for name in (n for n in unknown if fold(n) not in group_words):
            self.ask(f"Who is {name}? No one by that name is in {self.gc.name}.")
        previous = facts.get("participants")
        added = {p for p in (self._person(m.group(1)) for m in _ADD.finditer(text)) if p}
        removed = {p for p in (self._person(m.group(1)) for m in _REMOVE.finditer(text)) if p}
        folded = fold(text)
        everyone = any(re.search(rf"\b{word}\b", folded) for word in EVERYONE if word != "all")
        for_people = self._for_people(text)
        if everyone:
            chosen = [pid for pid, _ in self.gc.participants]
        elif for_people:
            chosen = for_people
        else:
            named = [pid for pid in found if pid not in removed]
            others = [pid for pid in named if pid != facts["payer"]]
            if previous and not (set(others) - added):
                chosen = list(previous)
            elif others:
                chosen = list(dict.fromkeys([facts["payer"], *named]))
            elif previous:
                chosen = list(previous)
            else:
                chosen = [pid for pid, _ in self.gc.participants]
                facts["unnamed"] = True  # the group's default split may say who shares
        chosen = [pid for pid in dict.fromkeys([*chosen, *added, *owes]) if pid not in removed]
        if owes and facts["payer"] not in chosen:
            chosen.append(facts["payer"])
        facts["participants"] = chosen

    def _for_people(self, text: str) -> List[str]:
        """'for Ann and Bo' names exactly who owes (only when every word there is a person)."""
        for match in _FOR_PEOPLE.finditer(text):
            if re.search(r"shares?\s*$", text[:match.start()], re.I):
                continue  # "2 shares for Bo" weighs Bo, it doesn't name who shares
            words = [w for w in re.split(r"\s*(?:,|\band\b|&)\s*", match.group(1)) if w]
            pids = [self._person(w.split()[0]) for w in words]
            if pids and all(pids) and not all(fold(w) in SELF for w in words):
                return list(dict.fromkeys(pids))
        return []

    def _split(self, text: str, facts: dict, owes: dict, adjustments: dict) -> None:
        chosen: List[str] = facts["participants"]
        if adjustments:
            for pid in adjustments:
                if pid not in chosen:
                    chosen.append(pid)
            facts.update(mode="ADJUSTMENT", adjustments=adjustments, weights=None)
            return
        weights: Dict[str, int] = {}
        for match in _SHARES_FOR.finditer(text):
            pid = self._person(match.group(2))
            if pid:
                weights[pid] = _count(match.group(1))
        for match in _HAS_SHARES.finditer(text):
            pid = self._person(match.group(1))
            if pid:
                weights[pid] = _count(match.group(2))
        percents = {p: int(m.group(2)) for m in _PERCENT.finditer(text)
                    if (p := self._person(m.group(1)))}
        ways = _WAYS.search(text)
        if weights:
            for pid in weights:
                if pid not in chosen:
                    chosen.append(pid)
            facts.update(mode="SHARES", weights={pid: weights.get(pid, 1) for pid in chosen})
        elif percents:
            facts.update(mode="PERCENT", weights={pid: percents.get(pid, 0) * 100 for pid in chosen})
            if sum(percents.values()) != 100:
                self.ask("The percentages don't add up to 100%: who pays what share?")
        elif owes:
            halves = [pid for pid, owed in owes.items() if owed == "half"]
            if halves:
                facts["participants"] = list(dict.fromkeys([*halves, facts["payer"]]))
                facts.update(mode="EQUAL", weights=None)
            else:
                facts.update(mode="EXACT", owes={pid: str(a.value) for pid, a in owes.items()})
        elif ways is None and not _EQUAL.search(text) and "mode" not in facts \
                and facts.get("unnamed") and self.gc.default_split is not None:
            mode, default = self.gc.default_split  # named nobody: the group's default
            facts["participants"] = [pid for pid, _ in default]
            facts.update(mode=mode, weights={pid: value or 0 for pid, value in default})
        elif ways is not None or _EQUAL.search(text) or "mode" not in facts:
            facts.update(mode="EQUAL", weights=None)
        if ways is not None and _count(ways.group(1)) != len(facts["participants"]):
            self.ask(f"You said {ways.group(1)} ways, but I count "
                     f"{len(facts['participants'])} people: who shares it?")

    def _description(self, text: str, facts: dict) -> None:
        back = _BACK_FROM.search(text) if facts.get("kind") == "INCOME" else None
        if back and not self._person(back.group(1)):
            facts["description"] = f"{back.group(1).capitalize()} back"
        for match in _FOR_THING.finditer(text):
            words = match.group(1).split()
            if words[-1].lower() in _STOP_AFTER_THING:
                words = words[:-1]
            if not words or self._person(words[0]) or words[0].lower() in _STOP_AFTER_THING:
                continue
            facts["description"] = " ".join(words)[:100].capitalize()
            break
        folded = fold(text)
        for word, category in KEYWORDS.items():
            if re.search(rf"\b{word}\b", folded):
                facts.setdefault("description", word.capitalize())
                if fold(facts["description"]).find(word) >= 0:
                    facts["category"] = category
                break
        facts.setdefault("description", "Expense")

    # --- the result ------------------------------------------------------------------------

    def _result(self, facts: dict) -> Proposal:
        body = None if self.questions else self._body(facts)
        if body is None:
            reply = " ".join(self.questions) or "I couldn't make an expense of that."
            return Proposal(reply=reply, questions=list(self.questions),
                            group_id=self.gc.group_id, facts=facts)
        currency = facts["currency"]
        verb = "received by" if facts.get("kind") == "INCOME" else "paid by"
        reply = (f"{body['description']}: {format_minor(body['items'][0]['amount'], currency)} "
                 f"{currency} {verb} {_names(self.roster, self.gc, [facts['payer']])}, "
                 f"{facts['mode'].lower()} split between "
                 f"{_names(self.roster, self.gc, facts['participants'])}. Confirm to save it.")
        return Proposal(reply=reply, group_id=self.gc.group_id, expense=body, facts=facts)

    def _extra_amounts(self, facts: dict, total: int, currency: str) -> Optional[list]:
        extras = []
        for extra in facts.get("extras") or ():
            value = _extra_amount(extra, total, currency)
            if value is None:
                self.ask(f"How much is the {extra['name']} in {currency}?")
                return None
            extras.append({"name": extra["name"], "amount": value})
        return extras

    def _body(self, facts: dict) -> Optional[dict]:
        currency = facts["currency"]
        total = _minor(facts["amount"], currency)
        if total is None or total <= 0:
            self.ask(f"{facts['amount']} isn't an amount in {currency}: how much was it?")
            return None
        mode, chosen = facts["mode"], facts["participants"]
        if mode == "EXACT":
            owed = {pid: _minor(v, currency) for pid, v in facts["owes"].items()}
            if any(v is None or v <= 0 for v in owed.values()):
                self.ask("How much does each person owe?")
                return None
            rest = total - sum(owed.values())
            if rest < 0:
                self.ask("They owe more than the total: how much was it?")
                return None
            if rest and facts["payer"] not in owed:
                owed[facts["payer"]] = rest
            splits = [{"participantId": pid, "value": value} for pid, value in owed.items()]
        elif mode == "ADJUSTMENT":
            adjusted = {pid: _signed_minor(v, currency)
                        for pid, v in facts["adjustments"].items()}
            if any(v is None for v in adjusted.values()):
                self.ask("How much more or less does each person pay?")
                return None
            splits = [{"participantId": pid, "value": adjusted.get(pid, 0)} for pid in chosen]
        elif mode in ("SHARES", "PERCENT"):
            splits = [{"participantId": pid, "value": facts["weights"].get(pid, 0)}
                      for pid in chosen if facts["weights"].get(pid, 0) or mode == "SHARES"]
        else:
            splits = [{"participantId": pid, "value": 1} for pid in chosen]
        extras = self._extra_amounts(facts, total, currency)
        if extras is None:
            return None
        paid = total + sum(extra["amount"] for extra in extras)
        body = {"description": facts["description"], "date": facts.get("date") or self.context.today,
                "payments": [{"participantId": facts["payer"], "amount": paid}],
                "items": [{"name": facts["description"], "amount": total, "splitMode": mode,
                           "splits": splits}]}
        if extras:
            body["extras"] = extras
        if facts.get("category"):
            body["category"] = facts["category"]
        if currency != self.gc.currency:  # kept in its own currency (no rate), as Splitwise
            body["currency"] = currency
        if facts.get("kind") == "INCOME":
            body["kind"] = "INCOME"
        return body


def _extra_amount(extra: dict, total: int, currency: str) -> Optional[int]:
    """An extra in minor units: a percentage of the items' total (half-even to the unit), or
    the money said; a discount is negative."""
    if "percent" in extra:
        value = int((Decimal(total) * Decimal(extra["percent"]) / 100).to_integral_value())
    else:
        value = _minor(extra["amount"], currency)
    if value is None:
        return None
    return -value if extra["name"] == "discount" else value


def _minor(value: str, currency: str) -> Optional[int]:
    return exact_minor(Decimal(value), currency)


def _signed_minor(value: str, currency: str) -> Optional[int]:
    negative = value.startswith("-")
    minor = _minor(value[1:] if negative else value, currency)
    return None if minor is None else -minor if negative else minor
