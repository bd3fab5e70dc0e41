"""Test set-up benchmark: `.venv/bin/python bench/test_setup_bench.py` from the repo root.

Prints what one moto test's fresh tables cost (the `aws` fixture of tests/conftest.py): the
old way (a fresh mock_aws, then the template's tables through DynamoDB's API with fresh
botocore sessions) and the way tests/support does it now (shared botocore data, copies of
the first-built empty tables), and one PynamoDB GetItem on a fresh connection either way."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
for name, value in (("AWS_ACCESS_KEY_ID", "testing"), ("AWS_SECRET_ACCESS_KEY", "testing"),
                    ("AWS_DEFAULT_REGION", "us-east-1")):
    os.environ.setdefault(name, value)

import boto3  # noqa: E402
from moto import mock_aws  # noqa: E402

import models  # noqa: E402
from app.local import engine  # noqa: E402
from app.local.template_tables import create_tables  # noqa: E402

ROUNDS = 10
STAGE = "bench"


def _old_way() -> None:
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_tables(boto3.client("dynamodb", region_name="us-east-1"), STAGE)
        _first_read()


def _new_way() -> None:
    from tests.support.tables import create_all_tables

    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        _first_read()


def _first_read() -> None:
    from models.users import UserItem

    list(UserItem.query("nobody"))  # a fresh connection's first call: a botocore client


def _per_round(run) -> float:
    run()  # warm: imports, and the new way's one build through the API
    start = time.perf_counter()
    for _ in range(ROUNDS):
        run()
    return (time.perf_counter() - start) / ROUNDS


if __name__ == "__main__":
    engine.install()
    old = _per_round(_old_way)
    new = _per_round(_new_way)
    print(f"fresh moto + tables + first read, per test: before {old * 1000:.0f} ms, "
          f"now {new * 1000:.0f} ms ({old / new:.0f}x)")
