"""Local mode's stand-in for the notifications stream's event source mapping.

Reads the embedded endpoint's DynamoDB stream on the notifications table (moto serves
DescribeStream/GetShardIterator/GetRecords, transaction writes included), keeps what the
template's filter keeps (inserted EVENT rows) and feeds the very same Lambda handler the same
record shape, so a change shows up in history within about a second. It starts at
TRIM_HORIZON: records replayed from the journal at start-up are redelivered, and the worker's
dispatched check makes that a no-op. A failed record is logged; the outbox sweep (every five
minutes in local mode) delivers it later, as in AWS.

Idle, a poller backs off: after a poll that found nothing it waits MIN_IDLE_WAIT, then twice as
long each time up to its ``interval``; a poll that finds records polls again at once. A busy
stream is read without pause, a quiet one costs a GetRecords per shard every ``interval``."""
from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import Optional

from app.local.context import LocalContext

log = logging.getLogger("tailspend.local.stream")

MIN_IDLE_WAIT = 0.05  # seconds: the first wait after an empty poll


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
        # ``interval``: the longest idle wait (what a change waits at worst before it is read).
        self.interval, self.admit, self.name = interval, admit, name
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def _clients(self):
        import boto3

        from app.local.in_process import attach
        kwargs = {"endpoint_url": self.endpoint, "region_name": "us-east-1"}
        return (attach(boto3.client("dynamodb", **kwargs)),
                attach(boto3.client("dynamodbstreams", **kwargs)))

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
                result = self.handler({"Records": records}, LocalContext(self.name))
                for failure in result.get("batchItemFailures", []):
                    log.warning("local.stream_record_failed", extra=failure)
                fed += len(records)
        return fed

    def run(self) -> None:
        dynamodb, streams = self._clients()
        stream_arn = dynamodb.describe_table(TableName=self.table_name)["Table"]["LatestStreamArn"]
        iterators: dict = {}
        waits = self.idle_waits()
        while not self._stop.is_set():
            try:
                if self.poll_once(iterators, streams, stream_arn):
                    waits = self.idle_waits()  # busy: read on at once, and back off afresh
                    continue
            except Exception:  # keep polling; the outbox sweep is the backstop
                log.exception("local.stream_poll_failed")
                iterators.clear()
            self._stop.wait(next(waits))

    def idle_waits(self):
        """The waits after consecutive empty polls: MIN_IDLE_WAIT doubling up to ``interval``."""
        wait = min(MIN_IDLE_WAIT, self.interval)
        while True:
            yield wait
            wait = min(wait * 2, self.interval)

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
    """The realtime publisher's groups mapping filter (template.yaml): inserted CHANGE rows,
    inserted or removed USERMEMBER rows."""
    from models.groups import CHANGE_PREFIX, USERMEMBER_PREFIX

    sort_key = record.get("dynamodb", {}).get("Keys", {}).get("SK", {}).get("S", "")
    name = record.get("eventName")
    return ((name == "INSERT" and sort_key.startswith(CHANGE_PREFIX))
            or (name in ("INSERT", "REMOVE") and sort_key.startswith(USERMEMBER_PREFIX)))


def realtime_notifications_admitted(record: dict) -> bool:
    """The realtime publisher's notifications mapping filter (template.yaml): inserted or
    modified NOTIF and PREFS rows of a user."""
    from models.notifications import NOTIF_PREFIX, PREFS, USER_PREFIX

    keys = record.get("dynamodb", {}).get("Keys", {})
    partition, sort_key = keys.get("PK", {}).get("S", ""), keys.get("SK", {}).get("S", "")
    return (record.get("eventName") in ("INSERT", "MODIFY") and partition.startswith(USER_PREFIX)
            and (sort_key.startswith(NOTIF_PREFIX) or sort_key == PREFS))


# Change -> poke waits at most this for the read (p99 <= 1 s: bench/realtime_bench.py).
REALTIME_MAX_IDLE_WAIT = 0.5


def start_realtime_poller(endpoint: str,
                          interval: float = REALTIME_MAX_IDLE_WAIT) -> StreamPoller:
    """Poll the groups table's stream into the RealtimePublisher handler (the local server is
    its transport), backing off to ``interval`` when idle."""
    from app.handlers import realtime_publisher
    from models.groups import GroupItem

    return StreamPoller(endpoint, GroupItem.Meta.table_name, realtime_publisher.lambda_handler,
                        interval=interval, admit=realtime_admitted,
                        name="realtime-stream").start()


def start_realtime_notifications_poller(
        endpoint: str, interval: float = REALTIME_MAX_IDLE_WAIT) -> StreamPoller:
    """Poll the notifications table's stream into the same RealtimePublisher handler: the
    template's second event source of that function (history and PREFS rows)."""
    from app.handlers import realtime_publisher
    from models.notifications import NotificationItem

    return StreamPoller(endpoint, NotificationItem.Meta.table_name,
                        realtime_publisher.lambda_handler, interval=interval,
                        admit=realtime_notifications_admitted,
                        name="realtime-notifications-stream").start()


# Change -> projection row waits at most this for the read (the contract: within seconds).
PROJECTION_MAX_IDLE_WAIT = 0.5


def start_projection_poller(endpoint: str,
                            interval: float = PROJECTION_MAX_IDLE_WAIT) -> StreamPoller:
    """Poll the groups table's stream into the Projection handler: the template's second
    reader of that stream, with the realtime publisher's filter."""
    from app.handlers import projection
    from models.groups import GroupItem

    return StreamPoller(endpoint, GroupItem.Meta.table_name, projection.lambda_handler,
                        interval=interval, admit=realtime_admitted,
                        name="projection-stream").start()
