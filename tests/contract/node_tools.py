"""The pinned npm tools of tests/contract/clients (redocly, openapi-typescript, openapi-fetch,
typescript), installed on first use into its node_modules (git-ignored) exactly as its
package-lock.json says; later runs find them there and install nothing.

As tests/mcp/test_mcp_ts_sdk_e2e.py does: `npm ci` once per lock file, under a file lock so
make test's two xdist workers never install into one directory at once."""
from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
from pathlib import Path

PROJECT = Path(__file__).parent / "clients"


def node() -> str:
    found = shutil.which("node")
    assert found, "node (20+) with npm is needed for the OpenAPI client tests"
    return found


def npm_ci(project: Path, needed_by: str) -> Path:
    """``project``'s node_modules exactly as its package-lock.json pins it: `npm ci` once per
    lock file (a stamp records its hash), under a file lock so two test processes never
    install into one directory at once. Shared by every test that drives npm packages."""
    lock = hashlib.sha256((project / "package-lock.json").read_bytes()).hexdigest()
    stamp = project / "node_modules" / ".tailspend-lock-sha256"
    with open(project / ".install.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        if not (stamp.exists() and stamp.read_text() == lock):
            npm = shutil.which("npm")
            assert npm, f"npm (Node 20) is needed for {needed_by}"
            subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
                           cwd=project, check=True, capture_output=True, timeout=300)
            stamp.write_text(lock)
    return project


def installed() -> Path:
    """tests/contract/clients with its node_modules as package-lock.json pins it."""
    return npm_ci(PROJECT, "the OpenAPI client tests")


def run_bin(name: str, *args: str, cwd: Path | None = None, timeout: int = 180):
    """Run node_modules/.bin/<name> with node on PATH; the CompletedProcess, text output."""
    project = installed()
    return subprocess.run([str(project / "node_modules" / ".bin" / name), *args],
                          cwd=cwd or project, capture_output=True, text=True, timeout=timeout,
                          env={"PATH": str(Path(node()).parent), "NO_COLOR": "1",
                               "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE":
                               "true"})
