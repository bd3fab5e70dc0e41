"""The realtime publisher: stream records -> pokes, in order per group, failures reported."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from aws_lambda_powertools.utilities.batch import BatchProcessor, process_partial_response
from botocore.credentials import Credentials

from app.handlers import realtime_publisher
from app.realtime import publisher
from app.realtime.appsync import AppSyncTransport, PublishFailed
from app.realtime.publisher import PokeProcessor, publish_batch, read_pokes
from tests.support.lambda_context import lambda_context

EVENTS = Path(__file__).resolve().parents[2] / "events"
CANNED = json.loads((EVENTS / "realtime_groups_stream.json").read_text())


class Recording:
    """A transport that keeps what it was given and fails on the channels it is told to."""

    def __init__(self, failing=()) -> None:
        self.sent, self.failing = [], set(failing)

    def publish(self, channel, events):
        if channel in self.failing:
            raise ConnectionError("down")
        self.sent.append((channel, [json.loads(e) for e in events]))


def _change(seq: int, group: str, revision: int, kind="EXPENSE", rid="e1") -> dict:
    record = copy.deepcopy(CANNED["Records"][0])
    record["dynamodb"]["SequenceNumber"] = f"{seq:021d}"
    image = record["dynamodb"]["NewImage"]
    record["dynamodb"]["Keys"] = {"GroupId": {"S": group}, "SK": {"S": f"CHANGE#{revision:012d}"}}
    image.update(GroupId={"S": group}, Revision={"N": str(revision)}, Kind={"S": kind},
                 ResourceId={"S": rid})
    return record


def test_the_canned_batch_pokes_the_group_then_revokes_the_member():
    via = Recording()
    publisher.use_transport(via)
    try:
        assert realtime_publisher.lambda_handler(CANNED, lambda_context()) == {"batchItemFailures": []}
    finally:
        publisher.use_transport(None)
    group = "3c9a1e52-6d7b-4f8e-a0c1-2b3d4e5f6a70"
    assert via.sent == [
        (f"/groups/{group}", [
            {"groupId": group, "revision": 7, "kind": "EXPENSE",
             "id": "b4f1c2d3-e5a6-4b7c-8d9e-0f1a2b3c4d01"},
            {"groupId": group, "revision": 8, "kind": "COMMENT",
             "id": "c0ffee00-0000-4000-8000-000000000001"}]),
        ("/users/9e8d7c6b-5a49-4382-b716-05f4e3d2c1b0", [
            {"groupId": group, "revision": None, "kind": "REVOKED", "id": group}])]


def test_a_revocation_goes_out_before_the_groups_later_pokes_in_the_same_batch():
    # The removal and a change after it in one batch: the removed member's server drops their
    # subscription on the REVOKED poke, so it must not come after the later change's poke.
    revoke = copy.deepcopy(CANNED["Records"][2])
    group, user = "3c9a1e52-6d7b-4f8e-a0c1-2b3d4e5f6a70", "9e8d7c6b-5a49-4382-b716-05f4e3d2c1b0"
    revoke["dynamodb"]["SequenceNumber"] = f"{2:021d}"
    via = Recording()
    records = [_change(1, group, 7), revoke, _change(3, group, 8), _change(4, "gb", 1)]
    assert publish_batch(records, via) == {"batchItemFailures": []}
    assert [(channel, [e["revision"] for e in events]) for channel, events in via.sent] == [
        (f"/groups/{group}", [7]), (f"/users/{user}", [None]), (f"/groups/{group}", [8]),
        ("/groups/gb", [1])]


def test_a_channel_that_failed_before_a_revocation_stays_stopped_after_it():
    revoke = copy.deepcopy(CANNED["Records"][2])
    revoke["dynamodb"]["SequenceNumber"] = f"{2:021d}"
    group = "3c9a1e52-6d7b-4f8e-a0c1-2b3d4e5f6a70"
    via = Recording(failing={f"/groups/{group}"})
    result = publish_batch([_change(1, group, 7), revoke, _change(3, group, 8)], via)
    assert result == {"batchItemFailures": [{"itemIdentifier": f"{1:021d}"}]}
    assert [channel for channel, _ in via.sent] == [
        "/users/9e8d7c6b-5a49-4382-b716-05f4e3d2c1b0"]


def test_pokes_keep_revision_order_per_group_in_chunks_of_five():
    records, seq = [], 0
    for revision in range(1, 13):  # two groups interleaved, as one shard delivers them
        for group in ("ga", "gb"):
            seq += 1
            records.append(_change(seq, group, revision))
    via = Recording()
    assert publish_batch(records, via) == {"batchItemFailures": []}
    for group in ("ga", "gb"):
        chunks = [events for channel, events in via.sent if channel == f"/groups/{group}"]
        assert [len(c) for c in chunks] == [5, 5, 2]
        assert [e["revision"] for c in chunks for e in c] == list(range(1, 13))


def test_a_failed_publish_stops_that_channel_and_reports_its_first_record():
    records = [_change(1, "ga", 1), _change(2, "gb", 1), _change(3, "ga", 2), _change(4, "gb", 2)]
    via = Recording(failing={"/groups/gb"})
    result = publish_batch(records, via)
    # gb's first record is reported: Lambda retries from it, so gb's revision 2 is sent again
    # after revision 1, never before it; ga was delivered (and may be again: at least once).
    assert result == {"batchItemFailures": [{"itemIdentifier": f"{2:021d}"}]}
    assert via.sent == [("/groups/ga", [
        {"groupId": "ga", "revision": 1, "kind": "EXPENSE", "id": "e1"},
        {"groupId": "ga", "revision": 2, "kind": "EXPENSE", "id": "e1"}])]


def test_failed_pokes_are_reported_through_the_powertools_batch_processor():
    records = [_change(1, "ga", 1), _change(2, "gb", 1), _change(3, "gb", 2)]
    processor = PokeProcessor(Recording(failing={"/groups/gb"}))
    result = process_partial_response(event={"Records": records}, record_handler=read_pokes,
                                      processor=processor)
    assert isinstance(processor, BatchProcessor) and result == processor.response()
    assert [failed.dynamodb.sequence_number for failed in processor.fail_messages] == [f"{2:021d}"]
    assert result == {"batchItemFailures": [{"itemIdentifier": f"{2:021d}"}]}


def test_a_batch_whose_every_record_failed_is_answered_not_raised():
    via = Recording(failing={"/groups/ga"})
    assert publish_batch([_change(1, "ga", 1)], via) == {
        "batchItemFailures": [{"itemIdentifier": f"{1:021d}"}]}


def test_a_malformed_record_fails_alone():
    bad = _change(1, "ga", 1)
    del bad["dynamodb"]["NewImage"]["Revision"]
    via = Recording()
    result = publish_batch([bad, _change(2, "gb", 1)], via)
    assert result == {"batchItemFailures": [{"itemIdentifier": f"{1:021d}"}]}
    assert [channel for channel, _ in via.sent] == ["/groups/gb"]


def test_records_no_client_needs_publish_nothing():
    other = copy.deepcopy(CANNED["Records"][2])
    other["dynamodb"]["Keys"]["SK"] = {"S": "PARTICIPANT#p1"}
    modified = {**_change(2, "ga", 1), "eventName": "MODIFY"}
    via = Recording()
    assert publish_batch([other, modified], via) == {"batchItemFailures": []}
    assert via.sent == []


class _Reply:
    def __init__(self, status, data):
        self.status, self.data = status, data


class _Pool:
    def __init__(self, reply):
        self.reply, self.calls = reply, []

    def request(self, method, url, body=None, headers=None):
        self.calls.append((method, url, body, headers))
        return self.reply


def test_the_appsync_transport_posts_a_sigv4_signed_batch():
    pool = _Pool(_Reply(200, b'{"failed": [], "successful": [{"identifier": "1", "index": 0}]}'))
    transport = AppSyncTransport("abc.appsync-api.eu-west-1.amazonaws.com", "eu-west-1",
                                 credentials=Credentials("AKIDEXAMPLE", "secret"), pool=pool)
    transport.publish("/groups/g1", ['{"revision":1}'])
    (method, url, body, headers), = pool.calls
    assert (method, url) == ("POST", "https://abc.appsync-api.eu-west-1.amazonaws.com/event")
    assert json.loads(body) == {"channel": "/groups/g1", "events": ['{"revision":1}']}
    assert headers["Authorization"].startswith(
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") and "/eu-west-1/appsync/aws4_request" in \
        headers["Authorization"]
    assert "X-Amz-Date" in headers


def test_the_appsync_transport_raises_on_refusals():
    for reply in (_Reply(403, b"{}"), _Reply(200, b'{"failed": [{"index": 0}]}'),
                  _Reply(200, b"<html>")):
        transport = AppSyncTransport("h.example", "us-east-1",
                                     credentials=Credentials("a", "b"), pool=_Pool(reply))
        try:
            transport.publish("/groups/g1", ["{}"])
        except PublishFailed:
            continue
        raise AssertionError(f"{reply.status} {reply.data!r} was taken as published")


def test_a_new_membership_pokes_the_users_home():
    joined = copy.deepcopy(CANNED["Records"][2])
    joined["eventName"] = "INSERT"
    via = Recording()
    assert publish_batch([joined], via) == {"batchItemFailures": []}
    group = "3c9a1e52-6d7b-4f8e-a0c1-2b3d4e5f6a70"
    assert via.sent == [("/users/9e8d7c6b-5a49-4382-b716-05f4e3d2c1b0",
                         [{"groupId": group, "revision": None, "kind": "HOME", "id": group}])]


# ---------------------------------------------------------------- notification changes (issue 36)
NOTIFICATIONS = json.loads((EVENTS / "realtime_notifications_stream.json").read_text())


def test_notification_history_and_settings_changes_poke_the_user():
    via = Recording()
    publisher.use_transport(via)
    try:
        assert realtime_publisher.lambda_handler(NOTIFICATIONS, lambda_context()) == {"batchItemFailures": []}
    finally:
        publisher.use_transport(None)
    user, group = "9e8d7c6b-5a49-4382-b716-05f4e3d2c1b0", "3c9a1e52-6d7b-4f8e-a0c1-2b3d4e5f6a70"
    notification = {"groupId": group, "revision": None, "kind": "NOTIFICATION",
                    "id": "5d6e7f80-91a2-4b3c-8d4e-5f6071829304"}
    # the row added, the row read, then the read-all watermark: one publish, in record order
    assert via.sent == [(f"/users/{user}", [notification, notification, {
        "groupId": None, "revision": None, "kind": "NOTIFICATION_SETTINGS", "id": user}])]


def test_a_notification_row_without_its_id_fails_alone():
    records = copy.deepcopy(NOTIFICATIONS["Records"])
    del records[0]["dynamodb"]["NewImage"]["NotificationId"]
    via = Recording()
    result = publish_batch(records, via=via)
    assert result == {"batchItemFailures": [
        {"itemIdentifier": records[0]["dynamodb"]["SequenceNumber"]}]}
    assert [len(events) for _, events in via.sent] == [2]


def test_other_notification_rows_poke_nobody():
    device = copy.deepcopy(NOTIFICATIONS["Records"][0])
    device["dynamodb"]["Keys"]["SK"] = {"S": "DEVICE#d1"}
    removed = {**copy.deepcopy(NOTIFICATIONS["Records"][0]), "eventName": "REMOVE"}
    via = Recording()
    assert publish_batch([device, removed], via=via) == {"batchItemFailures": []}
    assert via.sent == []
