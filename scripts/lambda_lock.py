"""Write requirements.lock from requirements.txt (`make lock`).

The lock is every package the Lambda package installs, at one exact version each, with the
hash of every file that version publishes (uv lists them all), so the one lock verifies the
arm64 wheels, the x86_64 wheels and an sdist alike. It is resolved for the runtime: Python
3.12 on Lambda's manylinux (glibc 2.34), once per architecture; the two must agree, or the
lock would be right for only one of them. Its header records requirements.txt's sha256, which
tests/deploy/test_package.py compares: editing requirements.txt without `make lock` fails.

    python3 scripts/lambda_lock.py [path/to/uv]
"""
from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "requirements.txt"
LOCK = ROOT / "requirements.lock"
PLATFORMS = ("aarch64-manylinux_2_34", "x86_64-manylinux_2_34")
HEADER = """\
# Lambda package lock (`make lock` writes it from requirements.txt; never edit by hand).
# Exact versions, with the hash of every file each version publishes: the same lock checks
# the arm64 and the x86_64 package. Resolved for Python 3.12 on each of
# {platforms} (identically).
# requirements.txt sha256: {digest}
"""


def requirements_digest(path: Path = REQUIREMENTS) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compile_for(uv: str, platform: str, output: Path) -> str:
    subprocess.run([uv, "pip", "compile", str(REQUIREMENTS), "--quiet", "--no-header",
                    "--generate-hashes", "--python-version", "3.12",
                    "--python-platform", platform, "-o", str(output)], check=True, cwd=ROOT)
    # Drop uv's "# via" annotations' absolute paths: keep the file the same on every machine.
    return output.read_text(encoding="utf-8").replace(str(ROOT) + "/", "")


def main(argv: list[str]) -> int:
    uv = argv[0] if argv else "uv"
    with tempfile.TemporaryDirectory() as scratch:
        bodies = {platform: compile_for(uv, platform, Path(scratch, platform + ".txt"))
                  for platform in PLATFORMS}
    first, *others = bodies.values()
    if any(body != first for body in others):
        print("lambda_lock: the resolutions for %s differ; a single lock cannot serve both"
              % " and ".join(PLATFORMS), file=sys.stderr)
        return 1
    LOCK.write_text(HEADER.format(platforms=", ".join(PLATFORMS),
                                  digest=requirements_digest()) + first, encoding="utf-8")
    print(f"wrote {LOCK.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
