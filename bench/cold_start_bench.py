"""Cold import of the API handler as a ratio to importing its libraries alone, in one run.

A Lambda cold start pays for the import of ``app.handlers.api`` (which builds the Flask app).
The floor is what its libraries cost by themselves; the ratio says what our own code adds.

Each run is one fresh interpreter that imports in stages and notes the clock after each:
the bare libraries, then flask-smorest/Powertools/aws-wsgi, then the handler, then the one area
a GET .../balances loads, then every other area. The handler's import time is the time to the
third mark (what ``import app.handlers.api`` costs from nothing: every module is imported once
whichever order pulls it in). Ratios are taken within each run, where the bare libraries and
the handler met the same machine load, then the median over runs is reported: on a shared VM
the speed of a whole interpreter drifts by ±30% between runs, a ratio within one run by ~2%.
Run: .venv/bin/python bench/cold_start_bench.py [runs]"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

from support import ROOT

STAGES = (
    ("bare", "bare libraries (flask, pynamodb.models, marshmallow, jwt RSA)",
     "import flask, pynamodb.models, marshmallow; from jwt.algorithms import RSAAlgorithm"),
    ("libraries", "+ flask-smorest, Powertools, aws-wsgi",
     "import flask_smorest, aws_lambda_powertools, awsgi"),
    ("handler", "app.handlers.api (Flask app built): a cold start",
     "import app.handlers.api"),
    # Areas load on the first request that needs them (app/api/routing.py): what a cold start
    # serving GET .../balances pays on top, and what importing every area up front costs.
    ("balances", "  + the balances area (a cold start serving GET .../balances)",
     "import app.api.balances"),
    ("every", "  + every area (~ start-up before areas loaded on first use)",
     "from app.api import routes; [a.blueprint() for a in routes.AREAS]"),
)
PROBE = "\n".join(
    ["import json, time", "marks = {}", "start = time.perf_counter()"]
    + [f"{statement}\nmarks[{name!r}] = (time.perf_counter() - start) * 1000"
       for name, _label, statement in STAGES]
    + ["print(json.dumps(marks))"])
# What the deployed function sees: no local mode, Cognito settings, a cursor key.
LAMBDA_ENV = {"TAILSPEND_STAGE": "bench", "AWS_DEFAULT_REGION": "us-east-1",
              "COGNITO_USER_POOL_ID": "us-east-1_bench", "COGNITO_CLIENT_ID": "bench",
              "CURSOR_SECRET": "bench-cursor-secret", "LOG_LEVEL": "WARNING",
              "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench"}


def _env() -> dict:
    # Bytecode as the deployed package ships it (`make build` precompiles): without it every
    # cold start would compile our sources, which is not what the ratio is about.
    drop = {"TAILSPEND_LOCAL", "PYTHONDONTWRITEBYTECODE"}
    return {k: v for k, v in os.environ.items() if k not in drop} | LAMBDA_ENV


def precompile() -> None:
    subprocess.run([sys.executable, "-m", "compileall", "-q", "app", "models"], cwd=ROOT,
                   env=_env(), check=True)


def one_run() -> dict:
    """Cumulative ms at each stage's end, in one fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=_env(),
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(runs: int = 25) -> None:
    precompile()
    samples = [one_run() for _ in range(runs)]
    print(f"cold import, cumulative ms at each stage, median (fastest) of {runs} runs")
    for name, label, _statement in STAGES:
        values = [sample[name] for sample in samples]
        print(f"  {label:<64}{statistics.median(values):6.0f} ms ({min(values):.0f})")
    for floor in ("bare", "libraries"):  # the two floors named above
        ratios = sorted(sample["handler"] / sample[floor] for sample in samples)
        print(f"  handler / {floor:<10}: median {statistics.median(ratios):.2f}x "
              f"(middle half {ratios[len(ratios) // 4]:.2f}-{ratios[3 * len(ratios) // 4]:.2f})"
              + ("   goal <= 1.3x" if floor == "bare" else ""))
    own = [sample["handler"] - sample["libraries"] for sample in samples]
    print(f"  our own start-up (handler - all libraries): median {statistics.median(own):.0f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 25)
