"""Every text the service writes for a person, in that person's language.

The messages live in gettext catalogs (``app/locales/<locale>/LC_MESSAGES/messages.po``):
Babel extracts them from the code (``pybabel extract -F babel.cfg``, keywords ``gettext`` and
``ngettext``), translators fill in the .po files, and ``pybabel compile`` writes the .mo files
read here (tests/platform/test_catalogs.py fails on a missing or stale one, a missing
translation, or a placeholder a translation drops). Plural forms, and the number, date and
money formats, come from CLDR through Babel, so "42,50 €" in de and "€42.50" in en are
Babel's, never written here.

Placeholders are ``str.format`` names (``{who}``): a translation may reorder them, and the
values are formatted before they are put in (money by :meth:`Texts.money`).

Babel is imported when a text is first rendered, not at cold start: most requests write no
human text (tests/deploy measure the API's cold import)."""
from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Optional

from app.limits import DEFAULT_LOCALE as DEFAULT, LOCALES as SUPPORTED

CATALOGS = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for the marker, Babel's default keyword
    """Marks a message kept in a constant for extraction; it is translated where it is
    written for a reader (``texts(locale).gettext(CONSTANT)``)."""
    return message


def babel_name(tag: str) -> str:
    """``pt-BR`` -> ``pt_BR``: Babel's and gettext's spelling of a BCP 47 tag."""
    return tag.replace("-", "_")


def supported(tag: Optional[str]) -> str:
    """``tag`` if it is one of ours (any case), else the default."""
    if tag:
        for known in SUPPORTED:
            if known.lower() == str(tag).strip().lower():
                return known
    return DEFAULT


def canonical(tag: str) -> Optional[str]:
    """The supported spelling of ``tag`` (``pt-br`` -> ``pt-BR``), or None if unsupported."""
    for known in SUPPORTED:
        if known.lower() == str(tag).strip().lower():
            return known
    return None


def negotiate(accept_language: Optional[str]) -> str:
    """The best supported locale for an ``Accept-Language`` header (a reader with no
    account, such as a share-link guest), else the default."""
    if not accept_language:
        return DEFAULT
    from babel import negotiate_locale

    wanted = []
    for part in accept_language.split(","):
        tag, _, quality = part.strip().partition(";q=")
        try:
            weight = float(quality) if quality else 1.0
        except ValueError:
            continue
        if tag and tag != "*":
            wanted.append((weight, tag.strip()))
    ordered = [babel_name(tag) for _, tag in sorted(wanted, key=lambda pair: -pair[0])]
    found = negotiate_locale(ordered, [babel_name(tag) for tag in SUPPORTED], sep="_")
    if found is None:  # "pt-PT" still reads Portuguese; "de-AT" German
        languages = {babel_name(tag).split("_")[0]: tag for tag in reversed(list(SUPPORTED))}
        for tag in ordered:
            if tag.split("_")[0].lower() in languages:
                return languages[tag.split("_")[0].lower()]
        return DEFAULT
    return supported(found.replace("_", "-"))


class Texts:
    """The messages and formats of one locale."""

    def __init__(self, tag: str):
        from babel import Locale
        from babel.support import Translations

        self.tag = supported(tag)
        self.locale = Locale.parse(babel_name(self.tag))
        self._translations = Translations.load(str(CATALOGS), [babel_name(self.tag)], DOMAIN)

    def gettext(self, message: str, **params) -> str:
        return self._translations.gettext(message).format(**params)

    def ngettext(self, singular: str, plural: str, count: int, **params) -> str:
        """The plural form CLDR's rule picks for ``count`` (``{count}`` is passed in)."""
        return self._translations.ngettext(singular, plural, count).format(count=count, **params)

    def money(self, minor: int, currency: str) -> str:
        """Integer minor units as this locale writes the amount: ``4250, "EUR"`` -> ``42,50 €``
        (de), ``€42.50`` (en). The currency's ISO 4217 exponent places the point exactly; no
        float is involved."""
        from babel.numbers import format_currency

        from app.money.currencies import MINOR_UNITS

        places = MINOR_UNITS.get(currency, 2)
        amount = Decimal(int(minor)).scaleb(-places)
        text = format_currency(amount, currency, locale=self.locale, currency_digits=False,
                               format=self._pattern(places))
        # CLDR puts no-break spaces between amount and symbol (and narrow ones between
        # thousands in fr); these texts are plain push and e-mail lines, and "42,50 €" is
        # how the contract and a reader's search write it.
        return text.replace("\u00a0", " ").replace("\u202f", " ")

    def _pattern(self, places: int):
        """The locale's currency pattern with exactly ``places`` decimals (CLDR's own
        per-currency digits differ from ISO 4217's for a few currencies)."""
        from babel.numbers import parse_pattern

        pattern = parse_pattern(self.locale.currency_formats["standard"])
        pattern.frac_prec = (places, places)
        return pattern

    def number(self, value) -> str:
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self.locale)

    def date(self, iso_date: str) -> str:
        """``2026-12-05`` as this locale writes a medium date (``05.12.2026`` in de)."""
        from datetime import date

        from babel.dates import format_date

        return format_date(date.fromisoformat(str(iso_date)[:10]), format="medium",
                           locale=self.locale)

    def join(self, parts: list) -> str:
        """``a, b and c`` in this locale's words (CLDR list patterns)."""
        from babel.lists import format_list

        return format_list([str(part) for part in parts], locale=self.locale)


@lru_cache(maxsize=None)
def texts(tag: Optional[str]) -> Texts:
    """The (cached) texts of ``tag``, or of the default locale when it is not ours."""
    return Texts(supported(tag))
