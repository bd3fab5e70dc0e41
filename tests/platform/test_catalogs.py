"""The message catalogs: every message the code writes for a reader is in the template, every
supported locale translates every one of them with the same placeholders, and the compiled
.mo files are the .po files (app/core/i18n.py; `make catalogs` refreshes them)."""
from __future__ import annotations

import gettext
import string
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from app.core.i18n import CATALOGS, DEFAULT, SUPPORTED, babel_name

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [tag for tag in SUPPORTED if tag != DEFAULT]  # en is the messages' own language


@lru_cache(maxsize=None)
def _code_messages() -> frozenset:
    """Every msgid (a plural as its (singular, plural) pair) the code marks, extracted as
    `make catalogs` does."""
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / "app"), method_map=[("**.py", "python")]):
        found.add(message if isinstance(message, str) else tuple(message))
    return frozenset(found)


def _names(text: str) -> set:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(catalog, wanted: set) -> list:
    """What is wrong with one locale's catalog: messages missing or untranslated (or fuzzy),
    and translations whose placeholders differ from their message's."""
    found = {}
    for message in catalog:
        if message.id:
            found[message.id if isinstance(message.id, str) else tuple(message.id)] = message
    wrong = [f"missing: {key!r}" for key in sorted(wanted - set(found), key=str)]
    for key in sorted(wanted & set(found), key=str):
        message = found[key]
        forms = [message.string] if isinstance(key, str) else list(message.string)
        expected = _names(key if isinstance(key, str) else key[1])
        if message.fuzzy or not all(forms):
            wrong.append(f"untranslated: {key!r}")
        for form in forms:
            if form and _names(form) != expected:
                wrong.append(f"placeholders {sorted(_names(form))} != {sorted(expected)}: "
                             f"{key!r}")
    return wrong


def _po(tag: str):
    with open(CATALOGS / babel_name(tag) / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=babel_name(tag))


def test_the_template_holds_exactly_the_messages_the_code_writes():
    with open(CATALOGS / "messages.pot", "rb") as handle:
        template = {m.id if isinstance(m.id, str) else tuple(m.id)
                    for m in read_po(handle) if m.id}
    assert template == _code_messages(), "run `make catalogs`"


@pytest.mark.parametrize("tag", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(tag):
    assert problems(_po(tag), _code_messages()) == []


@pytest.mark.parametrize("tag", TRANSLATED)
def test_the_compiled_catalog_is_the_po_file(tag):
    with open(CATALOGS / babel_name(tag) / "LC_MESSAGES" / "messages.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for message in _po(tag):
        if not message.id:
            continue
        if isinstance(message.id, str):
            assert compiled.gettext(message.id) == message.string, "run `make catalogs`"
        else:
            for count in (1, 2, 5):
                assert compiled.ngettext(*message.id, count) in message.string


def test_the_check_catches_a_missing_message_and_a_dropped_placeholder():
    """The checker itself fails on what it must: a translation that lost {group}, and a
    message the catalog lacks."""
    catalog = _po("de")
    message = catalog.get("New expense in {group}")
    message.string = "Neue Ausgabe"
    wanted = _code_messages() | {"A message nobody translated"}

    found = problems(catalog, wanted)

    assert "missing: 'A message nobody translated'" in found
    assert any(line.startswith("placeholders []") and "New expense in {group}" in line
               for line in found)
