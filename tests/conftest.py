"""Shared fixtures: moto-backed tables built from template.yaml, a fresh app per test."""
from __future__ import annotations

import gc
import os

import pytest

# The test processes hold large, long-lived heaps (every module, hypothesis, moto's backends)
# and make garbage fast: with Python's default thresholds (700, 10, 10) the cyclic collector
# took 12 s of tests/ledger + tests/groups' 80 s of CPU, mostly in ~50 full collections. Young
# collections every 10,000 allocations and a full one after 100 of the middle generation: GC
# 2.6 s, the run 80 -> 69 s of CPU (docs/testing.md). What is collected is unchanged, only when.
gc.set_threshold(10_000, 10, 100)

os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
os.environ.setdefault("LOG_LEVEL", "WARNING")
# Handler modules configure the models from the environment when first imported.
os.environ["TAILSPEND_STAGE"] = "test"
os.environ.pop("DYNAMODB_ENDPOINT", None)
os.environ.pop("AWS_PROFILE", None)

from tests.support import aws_calls  # noqa: E402

# Before any botocore session exists: the event hooks reach only sessions made after them.
aws_calls.install()  # call hooks, and in-process moto serialized (the code under test is threaded)

from moto import mock_aws  # noqa: E402

import models  # noqa: E402
from app import create_app  # noqa: E402
from app.config import Settings  # noqa: E402
from app.core import handoff  # noqa: E402
from app.local import engine  # noqa: E402
from tests.support import renames  # noqa: E402
from tests.support.tables import create_all_tables  # noqa: E402

# The embedded endpoint's moto patches (undo log instead of table copies, partition-bounded
# Query) for every in-process test too: same semantics, cost flat in data size.
engine.install()

STAGE = "test"

# The longest tests (~7 s and more each on a 2-core machine, measured in a repeat run), longest
# first, run before everything else: `make test` runs `-n 2 --dist worksteal`, which splits
# the run into two queues and lets a worker that runs dry take half of the other's rest (from
# its end), so with these at the front no worker is left alone with a long test at the end.
# Order only: nothing is skipped. Re-rank with `--durations=40` when the slowest tests change.
LONGEST = ("tests/platform/test_bench_counts.py::test_the_tables_counts_are_what_the_benches_",
           "tests/local/test_durability.py",
           "tests/local/test_lifecycle.py::test_serve_exits_promptly",
           "tests/property/test_trash_restore.py",
           # the web app's browser tests: a build when web/ changed, one shared server
           "tests/web/test_web_app.py",
           "tests/deploy/test_template.py::test_cfn_lint_reports_nothing",
           "tests/receipts/test_pdf_receipts.py::test_a_photo_saved_as_a_pdf",
           "tests/contract/test_generated_clients.py",
           "tests/ledger/test_stateful.py",
           "tests/web/test_receipt_capture.py",
           "tests/deploy/test_template.py::test_sam_validate_lint_is_clean",
           "tests/ledger/test_money_stateful.py",
           "tests/contract/test_generated_bodies.py",
           "tests/property/test_my_projection.py",
           "tests/contract/test_docs_browser.py",
           # a build when its inputs changed (75 s in a fresh work tree)
           "tests/deploy/test_package.py",
           "tests/account/test_deletion.py::test_a_crash_after_any_step_is_finished_by_a_rerun",
           "tests/contract/test_stateful_fuzz.py",
           "tests/mcp/test_mcp_ts_sdk_e2e.py",
           "tests/developer/test_pat_fuzz.py",
           "tests/local/test_docs_examples.py")


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        return next((n for n, prefix in enumerate(LONGEST) if item.nodeid.startswith(prefix)),
                    len(LONGEST))

    items.sort(key=rank)  # stable: the rest keep pytest's order


@pytest.fixture(autouse=True)
def held_renames():
    """A rename's roster mirroring waits here for the test to run it, as a queue would hold
    it (tests/support/renames.py)."""
    renames.PENDING.clear()
    handoff.use_local_runner(renames.QUEUE.name, renames.hold)
    yield renames.PENDING
    handoff.use_local_runner(renames.QUEUE.name, None)


@pytest.fixture
def aws():
    """A fresh in-process DynamoDB (moto) with every table of the template."""
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        yield


@pytest.fixture(scope="session")
def _session_settings(tmp_path_factory) -> Settings:
    return Settings(stage=STAGE, region="us-east-1", local_mode=True,
                    data_dir=str(tmp_path_factory.mktemp("tailspend-data")),
                    cursor_secret=b"test-cursor-secret")


@pytest.fixture(scope="session")
def _session_app(_session_settings):
    """One app for the whole run: building it (RSA key, every area) costs ~0.2 s, and its
    OpenAPI document, built on the first read, ~0.1 s more."""
    return create_app(_session_settings)


@pytest.fixture
def settings(_session_settings) -> Settings:
    return _session_settings


@pytest.fixture
def app(aws, _session_app):
    """The shared app on this test's fresh tables (nothing it caches may outlive them)."""
    models.configure(stage=STAGE, region="us-east-1", host=None)
    _session_app.extensions["tailspend"].authenticator.identities.clear()
    return _session_app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def sign_in(client):
    """sign_in(email, admin=False) -> (headers, user_id) through POST /dev/tokens."""

    def _sign_in(email: str, *, admin: bool = False, display_name: str | None = None):
        body = {"email": email, "admin": admin}
        if display_name:
            body["displayName"] = display_name
        reply = client.post("/dev/tokens", json=body)
        assert reply.status_code == 201, reply.get_json()
        data = reply.get_json()
        return {"Authorization": f"Bearer {data['accessToken']}"}, data["userId"]

    return _sign_in


@pytest.fixture(scope="session")
def embedded_dynamodb():
    """The serialized embedded endpoint (as `python -m app serve` runs it), once per session;
    this process's table calls reach it in process, as serve's own do (app/local/in_process.py:
    the same lock, without a connection and a server thread per call)."""
    from app.local.dynamodb import EmbeddedDynamoDB
    from app.local.in_process import serve_in_process

    server = EmbeddedDynamoDB(port=0, stage="embedded-boot", data_dir=None).start()
    serve_in_process(server)
    yield server
    server.stop()


@pytest.fixture
def live_db(embedded_dynamodb, request):
    """Models pointed at the embedded endpoint with fresh tables; yields the endpoint URL.

    For race tests: real threads calling services get DynamoDB's per-call atomicity."""
    import re
    import uuid

    from app.local.in_process import attach
    from app.local.template_tables import create_tables

    stage = "live-" + re.sub(r"[^a-z0-9]", "", request.node.name.lower())[:20] + uuid.uuid4().hex[:6]
    client = attach(embedded_dynamodb.client())
    create_tables(client, stage)
    models.configure(stage=stage, region="us-east-1", host=embedded_dynamodb.endpoint)
    try:
        yield embedded_dynamodb.endpoint
    finally:
        models.configure(stage=STAGE, host=None)
        for name in client.list_tables()["TableNames"]:
            if name.startswith(f"tailspend-{stage}-"):
                client.delete_table(TableName=name)


@pytest.fixture(scope="session")
def served_app(tmp_path_factory):
    """The run's one `python -m app serve`, shared by every worker (tests/support/served.py):
    sign in as an e-mail no other test uses and read only what the test created."""
    from tests.support.served import shared_server

    with shared_server(tmp_path_factory) as served:
        yield served
