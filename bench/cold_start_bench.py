"""Cold import of the API handler as a ratio to importing its libraries alone, in one run.

A Lambda cold start pays for the import of ``app.handlers.api``, which builds the whole Flask
app: every area's blueprint, registered by ``create_app``.
The floor is what its libraries cost by themselves; the ratio says what our own code adds.

Each run is one fresh interpreter that imports in stages and notes the clock after each:
the bare libraries, then flask-smorest/Powertools/aws-wsgi, then the handler, then the first
read of the OpenAPI document (rendered on demand; SnapStart's hook renders it before the snapshot). The handler's import
time is the time to the third mark (what ``import app.handlers.api`` costs from nothing: every module is imported once
whichever order pulls it in). Ratios are taken within each run, where the bare libraries and
the handler met the same machine load, then the median over runs is reported: on a shared VM
the speed of a whole interpreter drifts by ±30% between runs, a ratio within one run by ~2%.

Two environments: the development venv, and the Lambda package's dependencies alone
(requirements.txt installed once into .bench/runtime-py312 for the runtime's Python, found as
`make build` finds it, and loaded on it without site-packages as the package is). They
differ: the venv carries test tools (moto, cfn-lint) whose PyYAML makes flask-smorest import
yaml, which the deployed function never has. The goal is judged on the package, which is
what a cold start loads.
Run: .venv/bin/python bench/cold_start_bench.py [runs]"""
from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
from typing import List, Optional

from support import ROOT

STAGES = (
    ("bare", "bare libraries (flask, pynamodb.models, marshmallow, jwt RSA)",
     "import flask, pynamodb.models, marshmallow; from jwt.algorithms import RSAAlgorithm"),
    ("libraries", "+ flask-smorest, Powertools, aws-wsgi",
     "import flask_smorest, aws_lambda_powertools, awsgi"),
    ("handler", "app.handlers.api (the whole app): a cold start",
     "import app.handlers.api as handler"),
    ("document", "  + the first GET /openapi.json (the document rendered)",
     "handler.app.test_client().get('/openapi.json')"),
)
PROBE = "\n".join(
    ["import json, time", "marks = {}", "start = time.perf_counter()"]
    + [f"{statement}\nmarks[{name!r}] = (time.perf_counter() - start) * 1000"
       for name, _label, statement in STAGES]
    + ["print(json.dumps(marks))"])
# A SnapStart restore: init ran before the snapshot (with its hook), the restore hook dropped
# the DynamoDB connections; then the first request's tables build their botocore clients
# (no network: a client waits for its first call). CPU milliseconds, as a request pays them.
RESTORE_PROBE = """
import json, time
import app.handlers.api as handler
from app import snapstart
import models
from models import pynamodb_adapter
snapstart.before_snapshot(handler.app)
snapstart.after_restore()
tables = models.registered_tables()
start = time.process_time()
for name in ("users", "groups", "people"):  # GET /users/me/groups reads these
    pynamodb_adapter.table_connection(tables[name]).connection.client
models.connection().client  # and a write's transaction
print(json.dumps({"clients": (time.process_time() - start) * 1000}))
"""
# What the deployed function sees: no local mode, Cognito settings, a cursor key.
LAMBDA_ENV = {"TAILSPEND_STAGE": "bench", "AWS_DEFAULT_REGION": "us-east-1",
              "COGNITO_USER_POOL_ID": "us-east-1_bench", "COGNITO_CLIENT_ID": "bench",
              "CURSOR_SECRET": "bench-cursor-secret", "LOG_LEVEL": "WARNING",
              "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench"}


def package_python() -> str:
    """The Lambda runtime's Python (3.12, found as `make build` finds it), else this one."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from lambda_package import BuildError, find_python

    try:
        return find_python(os.environ.get("LAMBDA_PYTHON") or None)
    except BuildError as missing:
        print(f"  {missing}\n  measuring the package with {sys.executable}", file=sys.stderr)
        return sys.executable


PYTHON = package_python()
_VERSION = subprocess.run([PYTHON, "-c", "import sys; print('%d%d' % sys.version_info[:2])"],
                          capture_output=True, text=True, check=True).stdout.strip()
RUNTIME = ROOT / ".bench" / f"runtime-py{_VERSION}"


def _env(path: Optional[str] = None) -> dict:
    # Bytecode as the deployed package ships it (`make build` precompiles): without it every
    # cold start would compile our sources, which is not what the ratio is about.
    drop = {"TAILSPEND_LOCAL", "PYTHONDONTWRITEBYTECODE", "PYTHONPATH"}
    env = {k: v for k, v in os.environ.items() if k not in drop} | LAMBDA_ENV
    if path:
        env["PYTHONPATH"] = path
    return env


def precompile(python: str, *paths) -> None:
    subprocess.run([python, "-m", "compileall", "-q", *map(str, paths)], cwd=ROOT,
                   env=_env(), check=True, stdout=subprocess.DEVNULL)


def runtime_package() -> bool:
    """Install requirements.txt alone, for the runtime's Python, into .bench/runtime-py<version>
    when it changed; False if pip can't."""
    stamp = hashlib.sha256((ROOT / "requirements.txt").read_bytes()).hexdigest()
    marker = RUNTIME / ".requirements-sha256"
    if marker.exists() and marker.read_text() == stamp:
        return True
    print(f"installing requirements.txt into {RUNTIME.name} (once) ...", file=sys.stderr)
    install = subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", "--upgrade",
                              "-r", "requirements.txt", "-t", str(RUNTIME)], cwd=ROOT,
                             capture_output=True, text=True)
    if install.returncode:
        print(f"  pip failed; measuring the venv only:\n{install.stderr[-500:]}", file=sys.stderr)
        return False
    precompile(PYTHON, RUNTIME)
    marker.write_text(stamp)
    return True


def one_run(command: List[str], path: Optional[str], probe: str = PROBE) -> dict:
    """Cumulative ms at each stage's end, in one fresh interpreter (``command``: the Python
    and its flags)."""
    out = subprocess.run([*command, "-c", probe], cwd=ROOT, env=_env(path),
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def report(title: str, samples: List[dict]) -> None:
    print(f"{title}: cumulative ms at each stage, median (fastest) of {len(samples)} runs")
    for name, label, _statement in STAGES:
        values = [sample[name] for sample in samples]
        print(f"  {label:<64}{statistics.median(values):6.0f} ms ({min(values):.0f})")
    for floor in ("bare", "libraries"):  # the two floors named above
        ratios = sorted(sample["handler"] / sample[floor] for sample in samples)
        print(f"  handler / {floor:<10}: median {statistics.median(ratios):.2f}x "
              f"(middle half {ratios[len(ratios) // 4]:.2f}-{ratios[3 * len(ratios) // 4]:.2f})"
              + ("   goal <= 1.3x (issue 43)" if floor == "bare" else ""))
    own = [sample["handler"] - sample["libraries"] for sample in samples]
    print(f"  our own start-up (handler - all libraries): median {statistics.median(own):.0f} ms")


def main(runs: int = 25) -> None:
    precompile(sys.executable, "app", "models")
    precompile(PYTHON, "app", "models")
    sides = [("development venv", [sys.executable], None)]
    if runtime_package():
        # -S: no site-packages, only the package directory and the standard library, on the
        # runtime's Python as Lambda runs it.
        sides.append((f"Lambda package's dependencies only (Python {_VERSION[0]}.{_VERSION[1:]})",
                      [PYTHON, "-S"], os.pathsep.join([str(RUNTIME), str(ROOT)])))
    samples = {title: [] for title, _args, _path in sides}
    for _ in range(runs):  # alternating, so drift in machine load meets both sides alike
        for title, args, path in sides:
            samples[title].append(one_run(args, path))
    for title, _args, _path in sides:
        report(title, samples[title])
    # With SnapStart (the default) a cold start is a restore: what its first request still
    # builds. botocore's data is read into the process's one loader before the snapshot
    # (models/pynamodb_adapter.py), so each client costs ~7 ms, not ~70.
    title, args, path = sides[-1]
    restored = [one_run(args, path, RESTORE_PROBE)["clients"] for _ in range(max(3, runs // 3))]
    print(f"{title}, after a SnapStart restore: the first request's botocore clients "
          f"(users, groups, people, the transaction's) {statistics.median(restored):.0f} ms CPU"
          f" (median of {len(restored)})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 25)
