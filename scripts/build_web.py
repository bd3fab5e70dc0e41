"""Build web/ into web/dist when its inputs changed: `make dev`, `make test` and the browser
tests' server fixture all call this, so a fresh checkout needs nothing else.

1. `npm ci` when web/node_modules does not match web/package-lock.json (a stamp holds the
   lock's hash);
2. the app's OpenAPI document, dumped without a server (`python -m app openapi`), into
   web/src/api/openapi.json: the client's types are generated from it at build time, so a
   contract change the app does not follow fails `tsc`;
3. `npm run build` (openapi-typescript, tsc, vite) unless web/dist/.input-sha256 already holds
   the hash of every input (the sources, configs, lock and that document).

Under a file lock: two test workers never build into one directory at once; the second finds
the first's build and returns. Usage: python scripts/build_web.py [--force]"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
DIST = WEB / "dist"
STAMP = DIST / ".input-sha256"
MODULES_STAMP = WEB / "node_modules" / ".tailspend-lock-sha256"
# What a build reads besides src/: a change to any of them is a new build.
CONFIGS = ("package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "index.html")
GENERATED = {"src/api/schema.d.ts"}


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _npm() -> str:
    npm = shutil.which("npm")
    if not npm:
        sys.exit("build_web: Node 20+ with npm is needed to build the web app (web/)")
    return npm


def _install() -> None:
    lock = _sha(WEB / "package-lock.json")
    if MODULES_STAMP.exists() and MODULES_STAMP.read_text() == lock:
        return
    subprocess.run([_npm(), "ci", "--no-audit", "--no-fund"], cwd=WEB, check=True,
                   stdout=subprocess.DEVNULL)
    MODULES_STAMP.write_text(lock)


def _dump_openapi() -> None:
    subprocess.run([sys.executable, "-m", "app", "openapi", "--out",
                    str(WEB / "src" / "api" / "openapi.json")], cwd=ROOT, check=True)


def input_hash() -> str:
    digest = hashlib.sha256()
    files = [WEB / name for name in CONFIGS if (WEB / name).exists()]
    files += [p for p in (WEB / "src").rglob("*") if p.is_file()
              and p.relative_to(WEB).as_posix() not in GENERATED]
    files += [p for p in (WEB / "public").rglob("*") if p.is_file()]
    for path in sorted(files):
        digest.update(path.relative_to(WEB).as_posix().encode() + b"\0" + _sha(path).encode())
    return digest.hexdigest()


def build(force: bool = False) -> Path:
    """web/dist, built from the current inputs; returns its path."""
    with open(WEB / ".build.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        _install()
        _dump_openapi()
        wanted = input_hash()
        if force or not (STAMP.exists() and STAMP.read_text() == wanted):
            env = {**os.environ, "NO_COLOR": "1"}
            subprocess.run([_npm(), "run", "--silent", "build"], cwd=WEB, check=True, env=env)
            STAMP.write_text(wanted)
    return DIST


if __name__ == "__main__":
    build(force="--force" in sys.argv[1:])
    print(f"web app built: {DIST.relative_to(ROOT)}")
