"""`redocly lint` (npm @redocly/cli, pinned in tests/contract/clients) with its recommended
ruleset finds no error in the served /openapi.json: every null is declared as OAS 3.0 reads
it (nullable beside a type), servers are given, and so on for every rule, on whatever
routes the document has. Warnings are allowed; errors are what break client generators."""
from __future__ import annotations

import json

from tests.contract.node_tools import run_bin


def test_redocly_recommended_finds_no_error(client, tmp_path):
    served = tmp_path / "openapi.json"
    served.write_text(client.get("/openapi.json").get_data(as_text=True))
    lint = run_bin("redocly", "lint", str(served), "--extends=recommended", "--format=json")
    report = json.loads(lint.stdout)
    errors = [f"{p['ruleId']}: {p['message']} at {p['location'][0]['pointer']}"
              for p in report["problems"] if p["severity"] == "error"]
    assert errors == [] and report["totals"]["errors"] == 0, "\n".join(errors)
    assert lint.returncode == 0, lint.stderr[-2000:]


def test_the_document_is_deterministic(client):
    """Two reads of /openapi.json are the same text (generated clients diff cleanly)."""
    assert client.get("/openapi.json").get_data() == client.get("/openapi.json").get_data()
