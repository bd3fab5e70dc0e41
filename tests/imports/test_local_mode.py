"""`python -m app serve` runs imports on a thread through the worker's handler."""
from __future__ import annotations

from tests.imports.conftest import fixture_text
from tests.local.serving import call, sign_in


def test_serve_runs_an_import_to_done_on_its_worker_thread(served_app):
    server = served_app
    token, _ = sign_in(server, "importer@example.com")
    status, started = call("POST", server.url + "/imports", {
        "format": "splitwise-csv", "content": fixture_text("splitwise_group_en.csv"),
        "me": "Ana"}, token=token)
    assert status == 202, started

    def finished():
        state = call("GET", f"{server.url}/imports/{started['importId']}", token=token)[1]
        return state if state["status"] != "RUNNING" else None

    state = server.until(finished, "the import stayed RUNNING")
    assert state["status"] == "DONE", state
    status, balances = call("GET", f"{server.url}/groups/{started['groupId']}/balances",
                            token=token)
    assert status == 200
    assert {row["displayName"]: row["net"] for row in balances["balances"]}["Ana"] == 7167
