"""An expense's notes come in from the exports that carry them (issue 32 item 1): Spliit's
JSON export (``notes``) and our own JSON export. Splitwise's CSV and Spliit's CSV have no
notes column (tests/imports/fixtures)."""
from __future__ import annotations

import json

from tests.imports.conftest import fixture_text


def test_spliit_json_notes_are_imported(importer):
    status = importer.run("spliit-json", fixture_text("spliit_lisbon.json"))
    assert status["status"] == "DONE", status
    expenses = {e["description"]: e for e in importer.export(status["groupId"])["expenses"]}
    assert expenses["Fado tickets"]["notes"] == "Ines did not go"
    assert expenses["Dinner at Ramiro"]["notes"] is None


def test_our_json_export_reads_back_with_its_notes(importer):
    first = importer.run("spliit-json", fixture_text("spliit_lisbon.json"))
    exported = importer.export(first["groupId"])
    again = importer.run("tailspend-json", json.dumps(exported))
    assert again["status"] == "DONE", again
    notes = {e["description"]: e["notes"] for e in importer.export(again["groupId"])["expenses"]}
    assert notes["Fado tickets"] == "Ines did not go"
