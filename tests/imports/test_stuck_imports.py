"""Imports that must never stay RUNNING (issue 31 section 2): a throttled lease update is
not "held by another run" (the message is retried), and the maintenance job fails an
import no run can finish any more, cleanly."""
from __future__ import annotations

from contextlib import contextmanager
from types import SimpleNamespace

from app.imports import run_import
from models.groups import ImportJob
from tests.imports.conftest import fixture_text, group_rows
from tests.imports.test_worker_handler import _event
from tests.support.lambda_context import lambda_context


@contextmanager
def dynamodb_throttles(operation: str):
    """Every ``operation`` call on PynamoDB's botocore client answers ThrottlingException:
    a botocore before-call hook (the client's own extension point) short-circuits the
    request the way an exhausted retry budget surfaces it."""
    events = ImportJob._get_connection().connection.client.meta.events
    throttled = []

    def throttle(**_):
        throttled.append(operation)
        return (SimpleNamespace(status_code=400, headers={}),
                {"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"},
                 "ResponseMetadata": {"HTTPStatusCode": 400}})

    events.register(f"before-call.dynamodb.{operation}", throttle, unique_id="throttle")
    try:
        yield throttled
    finally:
        events.unregister(f"before-call.dynamodb.{operation}", unique_id="throttle")


def test_a_throttled_claim_retries_the_message_instead_of_reading_as_held(importer,
                                                                          held_imports):
    from app.handlers import import_worker

    started = importer.start("spliit-json", fixture_text("spliit_lisbon.json")).get_json()
    ((group_id, import_id),) = held_imports
    event = _event(group_id, import_id)
    with dynamodb_throttles("UpdateItem") as throttled:
        reply = import_worker.lambda_handler(event, lambda_context())
    assert throttled
    # The message is reported failed, so SQS delivers it again; nothing holds the import.
    assert reply == {"batchItemFailures": [
        {"itemIdentifier": event["Records"][0]["messageId"]}]}
    job = ImportJob.get(*ImportJob.key(group_id), consistent_read=True)
    assert job.Status == "RUNNING" and job.LeaseUntil is None
    # The redelivery runs it.
    assert import_worker.lambda_handler(event, lambda_context()) == {"batchItemFailures": []}
    assert importer.status(started["importId"])["status"] == "DONE"


def test_a_lease_held_by_another_run_is_still_acknowledged(importer, held_imports):
    from app.handlers import import_worker

    importer.start("spliit-json", fixture_text("spliit_lisbon.json"))
    ((group_id, import_id),) = held_imports
    assert run_import.claim(group_id) is not None  # a live run holds it
    assert import_worker.lambda_handler(_event(group_id, import_id), lambda_context()) == {
        "batchItemFailures": []}
    assert ImportJob.get(*ImportJob.key(group_id), consistent_read=True).Status == "RUNNING"


def test_maintenance_fails_an_import_past_its_lease_and_redeliveries(importer, client,
                                                                     held_imports,
                                                                     monkeypatch):
    from app.handlers import maintenance

    fresh = importer.start("spliit-json", fixture_text("spliit_lisbon.json")).get_json()
    # Queued with a lease and redelivery window already behind it (as if started long ago).
    monkeypatch.setattr(run_import, "LEASE_SECONDS", -60)
    monkeypatch.setattr(run_import, "REDELIVERY_WINDOW_SECONDS", 0)
    stuck = importer.start("spliit-json", fixture_text("spliit_lisbon.json")).get_json()
    (_, (stuck_group, _)) = held_imports
    assert any(sk.startswith("IMPORT#CHUNK#") for sk in group_rows(stuck_group))

    result = maintenance.lambda_handler({"sweep": "stuckImports"}, lambda_context())

    assert result["stuckImportsFailed"] == 1
    status = importer.status(stuck["importId"])
    assert status["status"] == "FAILED" and status["error"]["message"] == run_import.STUCK_MESSAGE
    assert group_rows(stuck_group) == ["IMPORT"]  # staged file, head and all removed
    assert client.get(f"/groups/{stuck_group}", headers=importer.headers).status_code == 404
    assert importer.status(fresh["importId"])["status"] == "RUNNING"  # not overdue: kept
    assert maintenance.lambda_handler({"sweep": "stuckImports"}, lambda_context())["stuckImportsFailed"] == 0
