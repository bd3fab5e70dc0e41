"""Every shell and Python example of README.md and docs/*.md runs against `python -m app serve`.

A fenced block whose info string is `sh` (or bash, shell) or `python` is run as a newcomer
would run it, verbatim, against the one shared server (tests/support/served.py): only the
address differs (http://127.0.0.1:3000 and localhost:3000 become the server's; the CLI's
`token` and `tick` find it through TAILSPEND_DATA_DIR), from the repository root, shell
under `bash -euo pipefail`. It must exit 0 and print no error envelope. A block that cannot
run here (AWS, Docker, a browser, a fragment of a larger program, placeholders) carries a mark
saying why: `<!-- not run: <reason> -->` on the line before its fence, or
`<!-- examples not run: <reason> -->` once for a page whose every block is such
(docs/testing.md). Any other block of code without a mark fails: an example nobody runs
drifts. `json` blocks and plain ones (no info string: diagrams, request sketches) are not
code. The README tour is also checked for its answer: who owes whom."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest

from tests.local.serving import ROOT, child_env

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL, PYTHON = {"sh", "bash", "shell"}, {"python", "py"}
NOT_CODE = {"", "json", "text"}
FENCE = re.compile(r"^(\s*)```(\S*)")
BLOCK_MARK = re.compile(r"^\s*<!-- not run: (\S.*?) -->\s*$")
PAGE_MARK = re.compile(r"^<!-- examples not run: (\S.*?) -->\s*$", re.M)
ERROR_ENVELOPE = re.compile(r'"error":\s*\{\s*"code"')


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    language: str
    code: str
    not_run: str  # the mark's reason, or "" for a block that runs

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def examples(pages=PAGES) -> list:
    found = []
    for page in pages:
        text = page.read_text()
        lines, page_mark = text.splitlines(), PAGE_MARK.search(text)
        at = 0
        while at < len(lines):
            opened = FENCE.match(lines[at])
            if not opened:
                at += 1
                continue
            indent, language = opened.groups()
            end = next(n for n in range(at + 1, len(lines))
                       if lines[n].strip() == "```")
            code = "\n".join(line[len(indent):] if line.startswith(indent) else line
                             for line in lines[at + 1:end]) + "\n"
            mark = BLOCK_MARK.match(lines[at - 1]) if at else None
            reason = mark.group(1) if mark else (page_mark.group(1) if page_mark else "")
            found.append(Example(page.name if page.parent != ROOT / "docs" else
                                 f"docs/{page.name}", at + 1, language, code, reason))
            at = end + 1
    return found


def runnable() -> list:
    return [example for example in examples()
            if example.language in SHELL | PYTHON and not example.not_run]


def run(example: Example, served_app, timeout: float = 120) -> subprocess.CompletedProcess:
    code = example.code.replace("http://127.0.0.1:3000", served_app.url).replace(
        "localhost:3000", served_app.url.removeprefix("http://"))
    argv = (["bash", "-euo", "pipefail", "-c", code] if example.language in SHELL
            else [sys.executable, "-c", code])
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          check=False,
                          env=child_env(TAILSPEND_DATA_DIR=str(served_app.data_dir)))


def test_every_block_of_code_is_run_or_marked():
    unmarked = [f"{example.name}: ```{example.language} is neither run here nor marked "
                "`<!-- not run: reason -->`" for example in examples()
                if example.language not in NOT_CODE | SHELL | PYTHON and not example.not_run]
    assert unmarked == []
    assert runnable(), "no example runs: the block reader is broken"


def test_marks_are_read_and_an_unmarked_block_of_code_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("1. step\n\n   ```sh\n   echo indented\n   ```\n\n"
                    "<!-- not run: runs in a browser -->\n```js\nfetch(api)\n```\n\n"
                    "```js\nalso(api)\n```\n\n<!-- not run:  -->\n```python\nx\n```\n")
    shell, marked, unmarked, no_reason = examples([page])
    assert (shell.language, shell.code, shell.not_run) == ("sh", "echo indented\n", "")
    assert marked.not_run == "runs in a browser" and unmarked.not_run == ""
    assert no_reason.not_run == "", "a mark without a reason is no mark"
    page.write_text("<!-- examples not run: every command calls AWS -->\n```sh\naws s3 ls\n```\n")
    (covered,) = examples([page])
    assert covered.not_run == "every command calls AWS"


@pytest.mark.slow
@pytest.mark.parametrize("example", runnable(), ids=lambda example: example.name)
def test_the_example_runs(example, served_app):
    if shutil.which("curl") is None:
        pytest.fail("the examples need curl")
    done = run(example, served_app)
    assert done.returncode == 0, f"{example.name}:\n{done.stdout}\n{done.stderr}"
    assert not ERROR_ENVELOPE.search(done.stdout), f"{example.name}:\n{done.stdout}"


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
def test_the_readme_tour_shows_who_owes_whom(served_app):
    (tour,) = [example for example in runnable() if example.page == "README.md"
               and "B=http://127.0.0.1:3000\n" in example.code]
    done = run(tour, served_app)
    assert done.returncode == 0, done.stdout + done.stderr
    expense, balances = _documents(done.stdout)
    assert expense["amount"] == 4250
    assert sorted(b["net"] for b in balances["balances"]) == [-2125, 2125]
    (transfer,) = balances["transfers"]
    assert transfer["amount"] == 2125
