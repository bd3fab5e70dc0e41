"""Cold import of the API handler as a ratio to importing its libraries alone, in one run.

A Lambda cold start pays for the import of ``app.handlers.api`` (which builds the Flask app).
The floor is what its libraries cost by themselves; the ratio says what our own code adds.
Both sides run alternately in fresh interpreters on the same machine, so load and cache state
affect them alike. Run: .venv/bin/python bench/cold_start_bench.py [runs]"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys

from support import ROOT

BARE = ("import flask, pynamodb.models, marshmallow; "
        "from jwt.algorithms import RSAAlgorithm")
LIBRARIES = BARE + "; import flask_smorest, aws_lambda_powertools, awsgi"
HANDLER = "import app.handlers.api"
# Areas load on the first request that needs them (app/api/routing.py). What a cold start
# serving GET .../balances pays in imports, and what importing every area up front costs.
BALANCES = HANDLER + "; import app.api.balances"
EVERY_AREA = HANDLER + "; from app.api import routes; [a.blueprint() for a in routes.AREAS]"
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


def import_ms(statement: str) -> float:
    code = f"import time; t=time.perf_counter(); {statement}; print((time.perf_counter()-t)*1000)"
    env = _env()
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True).stdout
    return float(out)


def main(runs: int = 15) -> None:
    precompile()
    sides = {"bare": BARE, "libraries": LIBRARIES, "handler": HANDLER, "balances": BALANCES,
             "every": EVERY_AREA}
    samples = {name: [] for name in sides}
    for _ in range(runs):  # interleaved, so drift in machine load hits every side alike
        for name, statement in sides.items():
            samples[name].append(import_ms(statement))
    median = {name: statistics.median(values) for name, values in samples.items()}
    fastest = {name: min(values) for name, values in samples.items()}
    print(f"cold import, median (fastest) of {runs} interleaved runs")
    lines = [("bare libraries (flask, pynamodb.models, marshmallow, jwt RSA)", "bare"),
             ("+ flask-smorest, Powertools, aws-wsgi", "libraries"),
             ("app.handlers.api (Flask app built)", "handler"),
             ("  + the balances area (a cold start serving GET .../balances)", "balances"),
             ("  + every area (~ start-up before areas loaded on first use)", "every")]
    for label, name in lines:
        print(f"  {label:<64}{median[name]:6.0f} ms ({fastest[name]:.0f})")
    for label, stat in (("medians", median), ("fastest runs", fastest)):
        print(f"  {label:>12}: ratio to bare libraries {stat['handler'] / stat['bare']:.2f}x, "
              f"to all libraries {stat['handler'] / stat['libraries']:.2f}x   (goal <= 1.3x)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
