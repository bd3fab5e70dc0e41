"""One way to hand work to a worker: its SQS queue when deployed, a local runner otherwise.

Each worker queue's URL is a setting (template.yaml sets it on the functions that send to
it). Unset, local mode's runner for that queue takes the message on a thread
(``python -m app serve`` installs one per queue); with neither, :func:`send` says so and the
caller decides: run inline, leave it to a sweep, or log. The message is the same JSON-shaped
dict whichever way it goes, so the worker's handler sees one shape."""
from __future__ import annotations

import json
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional

from app import config
from app.config import Settings

QUEUED, LOCAL, NOWHERE = "queued", "local", "nowhere"
_SQS_BATCH = 10  # SendMessageBatch's limit
_runners: Dict[str, Callable[[dict], object]] = {}


class Queue(NamedTuple):
    """A worker's queue: its name (local runners are installed by it) and the setting that
    holds its URL. Each sender declares its own, so a function's code names exactly the
    queue settings it reads (tests/deploy checks the template gives it those)."""

    name: str
    url_of: Callable[[Settings], Optional[str]]

    def url(self) -> Optional[str]:
        return self.url_of(config.current())


def use_local_runner(queue: str, runner: Optional[Callable[[dict], object]]) -> None:
    """Local mode: ``runner(message)`` takes the place of the queue named ``queue``
    (None: no runner)."""
    if runner is None:
        _runners.pop(queue, None)
    else:
        _runners[queue] = runner


def send(queue: Queue, message: dict) -> str:
    """Hand ``message`` on: QUEUED (SQS), LOCAL (the runner took it) or NOWHERE. A failed
    send raises; each caller knows whether its work survives that (a sweep) or not."""
    url = queue.url()
    if url:
        import boto3

        boto3.client("sqs").send_message(QueueUrl=url, MessageBody=json.dumps(message))
        return QUEUED
    runner = _runners.get(queue.name)
    if runner is not None:
        runner(message)
        return LOCAL
    return NOWHERE


def send_all(queue: Queue, messages: Iterable[dict]) -> int:
    """Queue many messages (ten per SendMessageBatch); returns how many were sent. Only for a
    queue that is configured: raises when one is refused, so the caller's run is retried."""
    url = queue.url()
    if not url:
        raise RuntimeError(f"no queue configured for {queue.name}")
    import boto3

    client = boto3.client("sqs")
    batch: List[dict] = list(messages)
    for start in range(0, len(batch), _SQS_BATCH):
        entries = [{"Id": str(index), "MessageBody": json.dumps(message)}
                   for index, message in enumerate(batch[start:start + _SQS_BATCH])]
        reply = client.send_message_batch(QueueUrl=url, Entries=entries)
        if reply.get("Failed"):
            raise RuntimeError(f"{len(reply['Failed'])} {queue.name} messages were not queued")
    return len(batch)
