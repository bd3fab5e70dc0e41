"""A real Spliit CSV export whose cells were rounded one by one (issue 31 section 2): the
fixture is written by the share code of Spliit's CSV route at 54207f4, run under Node
(fixtures/spliit_rounded_csv.mjs; fixtures/README.md)."""
from __future__ import annotations

from tests.imports.conftest import fixture_text


def test_rounded_cells_keep_the_cost_and_warn_with_the_line(importer, client):
    status = importer.run("spliit-csv", fixture_text("spliit_rounded.csv"))
    assert status["status"] == "DONE", status
    assert status["counts"]["expenses"] == 5
    rounded = sorted(w["line"] for w in status["warnings"] if "rounded each share" in w["message"])
    assert rounded == [2, 3, 4, 5]  # the Boat row's cells add up exactly
    expenses = client.get(f"/groups/{status['groupId']}/expenses?limit=50",
                          headers=importer.headers).get_json()["items"]
    assert sorted(e["amount"] for e in expenses) == [5, 1000, 1075, 1076, 10000]
    # Each Cost split by the rule (app.money.splits.apportion, leftovers in column order):
    # Taxi 1075 evenly 359/358/358 paid by Inês; Dinner 1076 = 359/359/358 paid by Marc;
    # Museum 1000 by shares 334/333/333 paid by Yuki; Snacks 5 = Marc 3, Yuki 2 paid by
    # Inês; Boat 3333/3333/3334 paid by Marc.
    nets = importer.nets(status["groupId"])
    assert {name: nets[name] for name in ("Inês", "Marc", "Yuki")} == {
        "Inês": 1075 - 359 - 359 - 334 + 5 - 3333,
        "Marc": -358 + 1076 - 359 - 333 - 3 + 10000 - 3333,
        "Yuki": -358 - 358 + 1000 - 333 - 2 - 3334}


def test_cells_further_off_than_one_unit_per_participant_are_refused(importer):
    text = fixture_text("spliit_rounded.csv").replace("3.58,-3.58,-3.58", "3.58,-3.58,-3.54")
    reply = importer.start("spliit-csv", text)
    assert reply.status_code == 400
    assert reply.get_json()["error"]["details"]["line"] == 2
