"""`python -m app serve` runs imports on a thread through the worker's handler."""
from __future__ import annotations

import time

from tests.imports.conftest import fixture_text
from tests.local.serving import call, sign_in


def test_serve_runs_an_import_to_done_on_its_worker_thread(served_app):
    server = served_app
    token, _ = sign_in(server, "importer@example.com")
    status, started = call("POST", server.url + "/imports", {
        "format": "splitwise-csv", "content": fixture_text("splitwise_group_en.csv"),
        "me": "Ana"}, token=token)
    assert status == 202, started
    deadline = time.monotonic() + 60
    while True:
        status, state = call("GET", f"{server.url}/imports/{started['importId']}",
                             token=token)
        if state["status"] != "RUNNING" or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert state["status"] == "DONE", state
    status, balances = call("GET", f"{server.url}/groups/{started['groupId']}/balances",
                            token=token)
    assert status == 200
    assert {row["displayName"]: row["net"] for row in balances["balances"]}["Ana"] == 7167
