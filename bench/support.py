"""Shared bench plumbing: count DynamoDB calls made while a block runs, and a moto-backed app."""
from __future__ import annotations

import collections
import contextlib
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
os.environ.setdefault("LOG_LEVEL", "WARNING")

from tests.support import aws_calls  # noqa: E402

# Before any botocore session exists (every bench imports this module first): the call
# counter below is a botocore event hook, which reaches only sessions made after this.
aws_calls.install()


class CallCounter:
    """Counts botocore API calls by operation name (every DynamoDB request PynamoDB makes)."""

    def __init__(self) -> None:
        self.calls: collections.Counter = collections.Counter()

    @property
    def total(self) -> int:
        return sum(self.calls.values())

    def __str__(self) -> str:
        detail = ", ".join(f"{name} {count}" for name, count in sorted(self.calls.items()))
        return f"{self.total} ({detail})" if detail else "0"


@contextlib.contextmanager
def count_dynamodb_calls():
    """Yield a CallCounter filled with every API call made inside the block."""
    counter = CallCounter()
    with aws_calls.recorded() as made:
        try:
            yield counter
        finally:
            counter.calls.update(made)


@contextlib.contextmanager
def bench_app(stage: str = "bench", **settings):
    """A local-mode app on moto with every table of template.yaml; yields (client, sign_in).
    ``settings``: more app Settings (e.g. rate_limit_app_per_minute)."""
    from moto import mock_aws

    import boto3
    import models
    from app import create_app
    from app.config import Settings
    from app.local import engine
    from app.local.template_tables import create_tables

    # moto as the tests and local mode run it: without the engine's patches every
    # TransactWriteItems deep-copies the tables it names, so a bench's set-up costs more the
    # more it has written (account_bench: 61 s of CPU instead of 15). The calls are the same.
    engine.install()
    with mock_aws(), tempfile.TemporaryDirectory() as data_dir:
        models.configure(stage=stage, region="us-east-1", host=None)
        create_tables(boto3.client("dynamodb", region_name="us-east-1"), stage)
        app = create_app(Settings(stage=stage, local_mode=True, data_dir=data_dir,
                                  cursor_secret=b"bench", **settings))
        client = app.test_client()

        def sign_in(email: str):
            data = client.post("/dev/tokens", json={"email": email}).get_json()
            return {"Authorization": f"Bearer {data['accessToken']}"}, data["userId"]

        yield client, sign_in


def median_ms(action, repeat: int) -> float:
    """The median wall time of ``repeat`` calls of ``action``, in milliseconds."""
    import statistics
    import time

    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


@contextlib.contextmanager
def embedded_api(stage: str = "bench", *, journal: bool = False, **settings):
    """The API (Flask test client) on a fresh embedded DynamoDB endpoint as `python -m app
    serve` runs it (serialized, moto patched by app.local.engine; journaled with ``journal``):
    yields (client, sign_in, endpoint), ``sign_in(email)`` -> (headers, user id).
    ``settings``: more app Settings (e.g. max_body_bytes)."""
    import models
    from app import create_app
    from app.config import Settings
    from app.local.dynamodb import EmbeddedDynamoDB
    from app.local.in_process import serve_in_process

    with tempfile.TemporaryDirectory() as data_dir:
        db = EmbeddedDynamoDB(port=0, stage=stage, data_dir=data_dir if journal else None,
                              **({"snapshot_seconds": 0} if journal else {})).start()
        serve_in_process(db)  # the models' calls, as serve's own (app/local/in_process.py)
        try:
            models.configure(stage=stage, region="us-east-1", host=db.endpoint)
            app = create_app(Settings(stage=stage, local_mode=True, data_dir=data_dir,
                                      cursor_secret=b"bench", dynamodb_endpoint=db.endpoint,
                                      **settings))
            client = app.test_client()

            def sign_in(email: str):
                data = client.post("/dev/tokens", json={"email": email}).get_json()
                return {"Authorization": f"Bearer {data['accessToken']}"}, data["userId"]

            yield client, sign_in, db.endpoint
        finally:
            db.stop()


@contextlib.contextmanager
def embedded_app(stage: str, email: str = "bench@example.com", **settings):
    """:func:`embedded_api`, journaled, signed in as ``email``: yields (client, headers)."""
    with embedded_api(stage, journal=True, **settings) as (client, sign_in, _endpoint):
        yield client, sign_in(email)[0]


# --- results for docs/benchmarks.md ------------------------------------------------------------

RESULTS = ROOT / ".bench" / "results"


def report(bench: str, rows: list) -> Path:
    """Print a bench's figures and write them to .bench/results/<bench>.json.

    ``rows``: (key, what, figure) triples. ``key`` is a stable literal id that must appear in
    the bench's source (tests/platform/test_bench_docs.py checks it); ``what`` is the table's
    first column, ``figure`` the measured value as the table shows it. `python
    bench/docs_table.py --update` copies the results into bench/results/ (committed) and
    renders docs/benchmarks.md's generated table from them."""
    import json

    RESULTS.mkdir(parents=True, exist_ok=True)
    for _key, what, figure in rows:
        print(f"{what}: {figure}", flush=True)
    path = RESULTS / f"{bench}.json"
    path.write_text(json.dumps({"bench": f"bench/{bench}.py", "rows": [
        {"key": key, "what": what, "figure": figure} for key, what, figure in rows]},
        indent=2) + "\n")
    return path
