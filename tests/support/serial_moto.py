"""In-process moto answers one request at a time, as the embedded endpoint does.

moto's backends are plain dicts with no locks: two threads of one process calling it at once
(the outbox sweep's shard workers, a record's concurrent pushes) made a Query iterate a
partition while a PutItem grew it ("dictionary changed size during iteration"). DynamoDB and
SNS are safe to call concurrently, so the test double is made so too: every request moto
serves in-process is handled under one lock (the network side of a call stays concurrent)."""
from __future__ import annotations

import threading

_lock = threading.RLock()


def install() -> None:
    """Idempotent and process-wide."""
    from moto.core.botocore_stubber import BotocoreStubber

    if getattr(BotocoreStubber, "_tailspend_serial", False):
        return
    original = BotocoreStubber.process_request

    def process_request(self, request):
        with _lock:
            return original(self, request)

    BotocoreStubber.process_request = process_request
    BotocoreStubber._tailspend_serial = True
