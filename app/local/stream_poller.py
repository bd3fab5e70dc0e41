"""Local mode's stand-in for the notifications stream's event source mapping.

Reads the embedded endpoint's DynamoDB stream on the notifications table (moto serves
DescribeStream/GetShardIterator/GetRecords, transaction writes included), keeps what the
template's filter keeps (inserted EVENT rows) and feeds the very same Lambda handler the same
record shape, so a change shows up in history within about a second. It starts at
TRIM_HORIZON: records replayed from the journal at start-up are redelivered, and the worker's
dispatched check makes that a no-op. A failed record is logged; the outbox sweep (every five
minutes in local mode) delivers it later, as in AWS."""
from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import Optional

log = logging.getLogger("tailspend.local.stream")


def _admitted(record: dict) -> bool:
    """The notifications mapping's filter: inserted EVENT rows."""
    image = record.get("dynamodb", {}).get("NewImage") or {}
    return record.get("eventName") == "INSERT" and image.get("EntityType", {}).get("S") == "EVENT"


def _lambda_shape(record: dict, stream_arn: str) -> dict:
    """boto3 turns ApproximateCreationDateTime into a datetime; the Lambda event has epoch."""
    record = dict(record, eventSourceARN=stream_arn)
    dynamodb = dict(record["dynamodb"])
    stamp = dynamodb.get("ApproximateCreationDateTime")
    if isinstance(stamp, datetime):
        dynamodb["ApproximateCreationDateTime"] = int(stamp.timestamp())
    record["dynamodb"] = dynamodb
    record.setdefault("awsRegion", "us-east-1")
    return record


class StreamPoller:
    def __init__(self, endpoint: str, table_name: str, handler, interval: float = 1.0,
                 admit=_admitted, name: str = "notifications-stream") -> None:
        self.endpoint, self.table_name, self.handler = endpoint, table_name, handler
        self.interval, self.admit, self.name = interval, admit, name
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def _clients(self):
        import boto3
        kwargs = {"endpoint_url": self.endpoint, "region_name": "us-east-1"}
        return boto3.client("dynamodb", **kwargs), boto3.client("dynamodbstreams", **kwargs)

    def poll_once(self, iterators: dict, streams, stream_arn: str) -> int:
        """One GetRecords per shard; returns how many records went to the handler."""
        fed = 0
        for shard in streams.describe_stream(StreamArn=stream_arn)["StreamDescription"]["Shards"]:
            shard_id = shard["ShardId"]
            if shard_id not in iterators:
                iterators[shard_id] = streams.get_shard_iterator(
                    StreamArn=stream_arn, ShardId=shard_id,
                    ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            reply = streams.get_records(ShardIterator=iterators[shard_id], Limit=100)
            iterators[shard_id] = reply.get("NextShardIterator") or iterators[shard_id]
            records = [_lambda_shape(r, stream_arn) for r in reply.get("Records", [])
                       if self.admit(r)]
            if records:
                result = self.handler({"Records": records}, None)
                for failure in result.get("batchItemFailures", []):
                    log.warning("local.stream_record_failed", extra=failure)
                fed += len(records)
        return fed

    def run(self) -> None:
        dynamodb, streams = self._clients()
        stream_arn = dynamodb.describe_table(TableName=self.table_name)["Table"]["LatestStreamArn"]
        iterators: dict = {}
        while not self._stop.is_set():
            try:
                if not self.poll_once(iterators, streams, stream_arn):
                    self._stop.wait(self.interval)
            except Exception:  # keep polling; the outbox sweep is the backstop
                log.exception("local.stream_poll_failed")
                iterators.clear()
                self._stop.wait(self.interval)

    def start(self) -> "StreamPoller":
        self._thread = threading.Thread(target=self.run, name=self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


def start_notifications_poller(endpoint: str) -> StreamPoller:
    """Poll the notifications table's stream into the NotificationWorker handler."""
    from app.handlers import notifications
    from models.notifications import NotificationItem

    return StreamPoller(endpoint, NotificationItem.Meta.table_name,
                        notifications.lambda_handler).start()


def realtime_admitted(record: dict) -> bool:
    """The realtime publisher mapping's filter (template.yaml): inserted CHANGE rows, inserted
    or removed USERMEMBER rows."""
    from models.groups import CHANGE_PREFIX, USERMEMBER_PREFIX

    sort_key = record.get("dynamodb", {}).get("Keys", {}).get("SK", {}).get("S", "")
    name = record.get("eventName")
    return ((name == "INSERT" and sort_key.startswith(CHANGE_PREFIX))
            or (name in ("INSERT", "REMOVE") and sort_key.startswith(USERMEMBER_PREFIX)))


def start_realtime_poller(endpoint: str, interval: float = 0.2) -> StreamPoller:
    """Poll the groups table's stream into the RealtimePublisher handler (the local server is
    its transport). A short idle wait (5 polls a second, cheap on moto): change -> poke stays
    well under a second (bench/realtime_bench.py)."""
    from app.handlers import realtime_publisher
    from models.groups import GroupItem

    return StreamPoller(endpoint, GroupItem.Meta.table_name, realtime_publisher.lambda_handler,
                        interval=interval, admit=realtime_admitted,
                        name="realtime-stream").start()
