"""The ImportWorker handler, fed events/import_sqs.json as SQS delivers it; local mode's
runner feeds the same handler on a thread."""
from __future__ import annotations

import json

from app.local import triggers
from tests.imports.conftest import fixture_text, group_rows
from tests.support.lambda_context import lambda_context


def _event(group_id: str, import_id: str) -> dict:
    event = triggers.canned_event("import_sqs.json")
    event["Records"][0]["body"] = json.dumps({"groupId": group_id, "importId": import_id})
    return event


def test_the_handler_runs_a_queued_import_to_done(importer, held_imports):
    from app.handlers import import_worker

    started = importer.start("spliit-json", fixture_text("spliit_lisbon.json")).get_json()
    ((group_id, import_id),) = held_imports

    reply = import_worker.lambda_handler(_event(group_id, import_id), lambda_context())

    assert reply == {"batchItemFailures": []}
    assert importer.status(started["importId"])["status"] == "DONE"
    assert not any(sk.startswith("IMPORT#CHUNK#") for sk in group_rows(group_id))  # unstaged
    # A redelivery of the same message changes nothing.
    assert import_worker.lambda_handler(_event(group_id, import_id), lambda_context()) == {
        "batchItemFailures": []}
    assert importer.status(started["importId"])["status"] == "DONE"


def test_the_canned_event_names_no_import_and_fails_nothing(aws):
    from app.handlers import import_worker

    assert import_worker.lambda_handler(triggers.canned_event("import_sqs.json"), lambda_context()) == {
        "batchItemFailures": []}


def test_local_mode_runs_the_same_handler_on_a_thread(importer, held_imports):
    started = importer.start("cospend-csv", fixture_text("cospend_weekend.csv")).get_json()
    ((group_id, import_id),) = held_imports

    triggers.start_worker("import", {"groupId": group_id, "importId": import_id}).join(timeout=60)

    assert importer.status(started["importId"])["status"] == "DONE"
