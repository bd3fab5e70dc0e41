"""The README's five-minute tour, run as a newcomer would: its shell block, verbatim, against
`python -m app serve` (only the port differs: the test's server takes a free one)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from tests.local.serving import ROOT


def _tour() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## A five-minute tour"):]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def _documents(text: str) -> list:
    """The JSON replies curl printed back to back (no newline between them)."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while at < len(text.strip()):
        document, at = decoder.raw_decode(text, at)
        found.append(document)
        while at < len(text) and text[at].isspace():
            at += 1
    return found


@pytest.mark.slow
def test_the_readme_tour_runs_and_shows_who_owes_whom(served_app):
    if shutil.which("curl") is None:
        pytest.fail("the README tour needs curl")
    tour = _tour()
    assert "B=http://127.0.0.1:3000\n" in tour
    script = tour.replace("B=http://127.0.0.1:3000\n", f"B={served_app.url}\n")
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    expense, balances = _documents(run.stdout)
    assert expense["amount"] == 4250
    assert sorted(b["net"] for b in balances["balances"]) == [-2125, 2125]
    (transfer,) = balances["transfers"]
    assert transfer["amount"] == 2125
