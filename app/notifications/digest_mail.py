"""A digest as an e-mail: what changed in the reader's groups during one period, and what they
owe and are owed now, in the reader's language and money formats (docs/email.md "Digests").

Plain data in (already read and filtered to the reader's current groups by the digest run),
a :class:`mail.Mail` out. The HTML part goes through Jinja2 with autoescaping on: group
names, descriptions and people's names are someone's free text, never markup."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple
from urllib.parse import quote

from jinja2 import Environment

from app.core.i18n import N_, Texts, texts
from app.notifications.mail import Mail, link_origin
from app.notifications.preferences import DIGEST_TYPE
from app.notifications.unsubscribe import unsubscribe_token

DAILY_SUBJECT = N_("Your TailSpend day: {date}")
WEEKLY_SUBJECT = N_("Your TailSpend week: {start} to {end}")

_HTML = Environment(autoescape=True).from_string(
    "<!doctype html>\n"
    '<html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ subject }}</title></head>\n'
    '<body style="font-family: sans-serif">\n'
    "<h1>{{ subject }}</h1>\n"
    "<h2>{{ changed_label }}</h2>\n"
    "{% for name, entries in changes %}<h3>{{ name }}</h3>\n<ul>\n"
    "{% for title, body in entries %}<li><strong>{{ title }}</strong>: {{ body }}</li>\n"
    "{% endfor %}</ul>\n{% endfor %}"
    "<h2>{{ standing_label }}</h2>\n"
    "{% if by_group %}<h3>{{ by_group_label }}</h3>\n<ul>\n"
    "{% for line in by_group %}<li>{{ line }}</li>\n{% endfor %}</ul>\n{% endif %}"
    "{% if by_person %}<h3>{{ by_person_label }}</h3>\n<ul>\n"
    "{% for line in by_person %}<li>{{ line }}</li>\n{% endfor %}</ul>\n{% endif %}"
    '<p><a href="{{ open_url }}">{{ open_label }}</a></p>\n'
    '<p style="font-size: small"><a href="{{ unsubscribe_url }}">{{ unsubscribe_label }}</a></p>\n'
    "</body></html>\n")

Nets = List[Tuple[str, int]]  # (currency, net in minor units; > 0: owed to the reader)


@dataclass
class Digest:
    """One reader's digest of one period, before it is written in their language."""

    period: str  # DAILY | WEEKLY
    first_day: str  # ISO dates, inclusive
    last_day: str
    changes: List[Tuple[str, List[Tuple[str, str]]]] = field(default_factory=list)
    by_group: List[Tuple[str, Nets]] = field(default_factory=list)
    by_person: List[Tuple[str, Nets]] = field(default_factory=list)


def subject_of(digest: Digest, t: Texts) -> str:
    if digest.period == "DAILY":
        return t.gettext(DAILY_SUBJECT, date=t.date(digest.first_day))
    return t.gettext(WEEKLY_SUBJECT, start=t.date(digest.first_day),
                     end=t.date(digest.last_day))


def _group_line(name: str, nets: Nets, t: Texts) -> str:
    parts = []
    for currency, net in nets:
        if net > 0:
            parts.append(t.gettext("You are owed {money}", money=t.money(net, currency)))
        elif net < 0:
            parts.append(t.gettext("You owe {money}", money=t.money(-net, currency)))
    return f"{name}: " + ("; ".join(parts) if parts else t.gettext("Settled up"))


def _person_line(name: str, nets: Nets, t: Texts) -> Optional[str]:
    parts = []
    for currency, net in nets:
        if net > 0:
            parts.append(t.gettext("{name} owes you {money}", name=name,
                                   money=t.money(net, currency)))
        elif net < 0:
            parts.append(t.gettext("You owe {name} {money}", name=name,
                                   money=t.money(-net, currency)))
    return "; ".join(parts) or None


def compose_digest(*, to: str, user_id: str, locale: Optional[str], digest: Digest) -> Mail:
    """The digest as an e-mail whose one-click unsubscribe turns the digest off."""
    t = texts(locale)
    origin = link_origin()
    unsubscribe_url = (f"{origin}/unsubscribe?token="
                       f"{quote(unsubscribe_token(user_id, DIGEST_TYPE))}")
    words = {"subject": subject_of(digest, t), "changed_label": t.gettext("What changed"),
             "standing_label": t.gettext("Where you stand now"),
             "by_group_label": t.gettext("By group"), "by_person_label": t.gettext("By person"),
             "open_label": t.gettext("Open TailSpend"),
             "unsubscribe_label": t.gettext("Stop digest e-mails")}
    by_group = [_group_line(name, nets, t) for name, nets in digest.by_group]
    by_person = [line for line in (_person_line(name, nets, t)
                                   for name, nets in digest.by_person) if line]
    open_url = f"{origin}/app/"
    lines = [words["subject"], "", words["changed_label"]]
    for name, entries in digest.changes:
        lines += ["", name] + [f"- {title}: {body}" for title, body in entries]
    lines += ["", words["standing_label"]]
    if by_group:
        lines += ["", words["by_group_label"]] + [f"- {line}" for line in by_group]
    if by_person:
        lines += ["", words["by_person_label"]] + [f"- {line}" for line in by_person]
    lines += ["", f"{words['open_label']}: {open_url}", "",
              f"{words['unsubscribe_label']}: {unsubscribe_url}", ""]
    html = _HTML.render(lang=t.tag, changes=digest.changes, by_group=by_group,
                        by_person=by_person, open_url=open_url,
                        unsubscribe_url=unsubscribe_url, **words)
    return Mail(to, words["subject"], "\n".join(lines), html, unsubscribe_url)
