"""Cold import time of each Lambda handler, and DynamoDB calls per request for GET /users/me.

Run: .venv/bin/python bench/foundation_bench.py [runs]"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile

from support import ROOT, bench_app, count_dynamodb_calls

HANDLERS = ("app.handlers.api", "app.handlers.provisioning", "app.handlers.hourly",
            "app.handlers.notifications", "app.handlers.maintenance")
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7  # fresh interpreters per handler


def cold_import_ms(module: str) -> float:
    """Median wall time of a fresh interpreter importing the handler (what a cold start pays)."""
    env = dict(os.environ, TAILSPEND_LOCAL="1", TAILSPEND_DATA_DIR=tempfile.mkdtemp(),
               LOG_LEVEL="WARNING")
    code = ("import time; t=time.perf_counter(); import " + module +
            "; print((time.perf_counter()-t)*1000)")
    samples = [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                                    capture_output=True, text=True, check=True).stdout)
               for _ in range(RUNS)]
    return statistics.median(samples)


def main() -> None:
    print(f"{'handler':36} cold import (median of {RUNS})")
    for module in HANDLERS:
        print(f"{module:36} {cold_import_ms(module):7.0f} ms")
    with bench_app() as (client, sign_in):
        headers, _ = sign_in("bench@example.com")
        client.get("/users/me", headers=headers)  # warm: identity cached as in a warm Lambda
        with count_dynamodb_calls() as warm:
            assert client.get("/users/me", headers=headers).status_code == 200
        client.application.extensions["tailspend"].authenticator.identities.clear()
        with count_dynamodb_calls() as cold:
            assert client.get("/users/me", headers=headers).status_code == 200
    print()
    print(f"GET /users/me DynamoDB calls, identity cached:   {warm}")
    print(f"GET /users/me DynamoDB calls, identity uncached: {cold}")


if __name__ == "__main__":
    main()
