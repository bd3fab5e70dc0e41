"""Clients generated from the served /openapi.json run the tour, every reply valid.

Python: openapi-python-client (pinned in tests/contract/clients/requirements.txt, installed
once into tests/contract/clients/.venv) generates a client whose request bodies are typed
models (a root anyOf made the expense body `Any`); tests/contract/clients/tour.py drives it.
TypeScript: openapi-typescript types + openapi-fetch (tests/contract/node_tools.py);
tests/contract/clients/tour.ts must pass `tsc --noEmit` (a default made `admin`, `role`,
`expiresInDays` required, so the tour's bodies would not compile), then runs under node.
Both run against the run's shared `python -m app serve` (served_app), and every reply they got
is judged by tests/contract/strict_document.py. Two tests, so make test's two workers run them
side by side; file locks keep them from sharing the TypeScript build or the installs."""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.contract import node_tools
from tests.contract.strict_document import documented_path, reply_problems, strict_document

CLIENTS = node_tools.PROJECT
BUILD = CLIENTS / ".build"
VENV = CLIENTS / ".venv"
REQUIREMENTS = CLIENTS / "requirements.txt"


def generator_venv() -> Path:
    """tests/contract/clients/.venv with requirements.txt installed (once per its hash)."""
    digest = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    stamp = VENV / ".tailspend-requirements-sha256"
    if not (stamp.exists() and stamp.read_text() == digest):
        shutil.rmtree(VENV, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True, timeout=120)
        subprocess.run([str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        "-r", str(REQUIREMENTS)], check=True, capture_output=True, timeout=600)
        stamp.write_text(digest)
    return VENV / "bin"


def run(argv, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, **kwargs)
    assert done.returncode == 0, f"{argv[0]}: {done.stdout[-3000:]}{done.stderr[-3000:]}"
    return done


@contextlib.contextmanager
def _locked(name: str):
    """Two test processes never build in one directory, nor install into one venv, at once."""
    with open(CLIENTS / name, "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        yield


def _document(served_app) -> str:
    with urllib.request.urlopen(served_app.url + "/openapi.json", timeout=30) as reply:
        return reply.read().decode()


def _judge(app, text: str, tour: str, report: dict) -> None:
    """The tour ended as it should, and every reply it got is valid against the document."""
    document = strict_document(json.loads(text))
    assert report["net"] == -2125 and report["deleted"] is True, report
    assert len(report["log"]) >= 11, report["log"]
    problems = []
    for entry in report["log"]:
        template = documented_path(app, entry["method"], entry["path"])
        body = json.loads(entry["body"]) if entry["body"] else None
        problems += [f"{tour}: {problem}" for problem in reply_problems(
            document, template, entry["method"], entry["status"], entry["contentType"], body)]
        assert entry["status"] < 400, (tour, entry)
    assert problems == [], "\n".join(problems)


# Two tests, not one: make test's two workers run them side by side (each ~half the time).
def test_generated_python_client_runs_the_tour(app, served_app, tmp_path):
    with _locked(".venv.lock"):
        bin_dir = generator_venv()
    text = _document(served_app)
    (tmp_path / "openapi.json").write_text(text)
    _judge(app, text, "python", python_tour(bin_dir, served_app.url, tmp_path))


def test_generated_typescript_client_runs_the_tour(app, served_app):
    node_tools.installed()
    text = _document(served_app)
    with _locked(".run.lock"):  # tsconfig.json names .build: one build at a time
        shutil.rmtree(BUILD, ignore_errors=True)
        BUILD.mkdir()
        (BUILD / "openapi.json").write_text(text)
        report = typescript_tour(served_app.url)
    _judge(app, text, "typescript", report)


def python_tour(bin_dir: Path, url: str, build: Path) -> dict:
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}  # the venv's ruff
    run([str(bin_dir / "openapi-python-client"), "generate", "--path",
         str(build / "openapi.json"), "--meta", "none", "--output-path",
         str(build / "tailspend_client")], env=env, cwd=build)
    create = (build / "tailspend_client" / "api" / "expenses" /
              "expenses_create_expense.py").read_text()
    assert "body: ExpenseCreate," in create and "body: Any" not in create  # a typed body
    done = run([str(bin_dir / "python"), str(CLIENTS / "tour.py"), url],
               env={"PYTHONPATH": str(build), "PATH": env["PATH"]})
    return json.loads(done.stdout)


def typescript_tour(url: str) -> dict:
    node_tools_run = node_tools.run_bin
    done = node_tools_run("openapi-typescript", str(BUILD / "openapi.json"), "-o",
                          str(BUILD / "api.d.ts"))
    assert done.returncode == 0, done.stderr[-3000:]
    types = (BUILD / "api.d.ts").read_text()
    for optional in ("admin?: boolean", "role?:", "expiresInDays?: number", "groupId?:"):
        assert optional in types, f"{optional} is not optional in the generated types"
    shutil.copy(CLIENTS / "tour.ts", BUILD / "tour.ts")
    # One tsc run both type-checks and emits the JavaScript node runs: a type error is a
    # non-zero exit (as with --noEmit), so a second, checking-only run proved nothing more.
    done = node_tools_run("tsc", "-p", str(CLIENTS / "tsconfig.json"))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ran = subprocess.run([node_tools.node(), str(BUILD / "out" / "tour.js")], cwd=CLIENTS,
                         capture_output=True, text=True, timeout=120,
                         env={"PATH": str(Path(node_tools.node()).parent), "BASE_URL": url})
    assert ran.returncode == 0, ran.stderr[-3000:]
    return json.loads(ran.stdout)
