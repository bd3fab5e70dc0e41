"""Publish a stream batch's pokes: in record order per channel, at least once.

The transport is the only thing that differs between AWS (app/realtime/appsync.py:
the AppSync Events HTTP publish API) and local mode (app/local/realtime_server.py: the
in-process WebSocket server); the stream handler and this module are the same code in both.

Order and failures. A shard delivers a group's records in order (the partition key is the
group id; a USERMEMBER row is keyed by its group too). Pokes are grouped by channel and sent
in chunks of at most MAX_EVENTS, each channel's in record order. When a chunk fails, that
channel stops for this batch and the chunk's first record is reported failed; a malformed
record is reported failed too. Lambda then retries from the lowest reported record
(ReportBatchItemFailures), so every later poke is sent again: at least once, and a channel
never sees a revision before an earlier one that was lost. Bisect, retries and the failure
queue come from the event source mapping (template.yaml).

A REVOKED poke splits the batch: the pokes of the records before it are sent first, then it,
then the rest. Local mode's server ends the member's subscriptions to the group on it, so a
change made after the removal never reaches the removed member, even in the same batch.

Powertools' BatchProcessor hands its handler one record at a time; pokes are sent per
channel across records. :class:`PokeProcessor` is a BatchProcessor through the extension
points its docs name for a custom partial processor ("Create your own partial processor"):
``_prepare`` starts a batch, ``_process_record`` reads a record's pokes and queues them,
``_clean`` sends what is queued and writes the response. tests/realtime/test_publisher.py
pins the calls, the order and the reported records."""
from __future__ import annotations

import sys
from collections import OrderedDict
from typing import Dict, List, Optional, Protocol, Set, Tuple

from aws_lambda_powertools.utilities.batch import (BatchProcessor, EventType,
                                                   process_partial_response)
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from app import config
from app.logs import logger
from app.realtime.pokes import REVOKED, Poke, pokes_for

MAX_EVENTS = 5  # AppSync Events: at most five events per publish request


class Transport(Protocol):
    def publish(self, channel: str, events: List[str]) -> None:
        """Deliver ``events`` (JSON strings) to ``channel`` in order, or raise."""


_transport: Optional[Transport] = None


def use_transport(transport: Optional[Transport]) -> None:
    """Local mode installs its server; AWS leaves it to :func:`transport` (from the settings)."""
    global _transport
    _transport = transport


def transport() -> Transport:
    global _transport
    if _transport is None:
        from app.realtime.appsync import AppSyncTransport

        _transport = AppSyncTransport.from_settings(config.current())
    return _transport


def _sequence(record: dict) -> str:
    return str((record.get("dynamodb") or {}).get("SequenceNumber", ""))


def read_pokes(record: DynamoDBRecord) -> List[Poke]:
    """The record handler: a stream record's pokes (ValueError when it is malformed)."""
    return pokes_for(record.raw_event)


class PokeProcessor(BatchProcessor):
    """Queues each record's pokes per channel and sends them when the batch ends (or a REVOKED
    poke splits it); a failed chunk's first record, and a malformed record, are the batch's
    item failures, each once."""

    def __init__(self, via: Transport) -> None:
        super().__init__(event_type=EventType.DynamoDBStreams)
        self.via = via

    def _prepare(self) -> None:
        super()._prepare()
        self._segment: Dict[str, List[Tuple[Poke, dict]]] = OrderedDict()
        self._stopped: Set[str] = set()
        self._failed: Dict[str, None] = {}  # sequence numbers, in order, each once
        self._published = 0

    def _process_record(self, record: dict):
        try:
            pokes = self.handler(record=DynamoDBRecord(record))
        except ValueError:
            logger.exception("realtime.publish_failed", extra={"sequence": _sequence(record)})
            return self._failure(record)
        for poke in pokes:
            self._segment.setdefault(poke.channel, []).append((poke, record))
        if any(poke.kind == REVOKED for poke in pokes):
            # What came before the revocation goes out before it, and what came after, after:
            # local mode's server ends the member's subscription on it (module doc).
            self._send()
        return self.success_handler(record=record, result=len(pokes))

    def _clean(self) -> None:
        # The response is written here, not by the base class: a record is reported once
        # (the base reports each failure), a record without a sequence number is reported as
        # "" as before, and a batch whose every record failed is answered, not raised.
        self._send()
        logger.info("realtime.published",
                    extra={"pokes": self._published, "records": len(self.records)})
        self.batch_response = {"batchItemFailures": [{"itemIdentifier": sequence}
                                                     for sequence in self._failed]}

    def _failure(self, record: dict):
        self._failed.setdefault(_sequence(record))
        return self.failure_handler(record=DynamoDBRecord(record), exception=sys.exc_info())

    def _send(self) -> None:
        """Send each queued channel's pokes in chunks; a channel that fails stops for the
        whole batch."""
        segment, self._segment = self._segment, OrderedDict()
        for channel, entries in segment.items():
            if channel in self._stopped:
                continue
            for start in range(0, len(entries), MAX_EVENTS):
                chunk = entries[start:start + MAX_EVENTS]
                try:
                    self.via.publish(channel, [poke.event() for poke, _ in chunk])
                except Exception:  # noqa: BLE001 — reported: Lambda retries from here (module doc)
                    logger.exception("realtime.publish_failed",
                                     extra={"channel_namespace": channel.split("/")[1],
                                            "sequence": _sequence(chunk[0][1])})
                    self._failure(chunk[0][1])
                    self._stopped.add(channel)
                    break
                self._published += len(chunk)


def publish_batch(records: List[dict], via: Optional[Transport] = None) -> dict:
    """Lambda's partial batch response for ``records`` (a DynamoDB stream batch)."""
    return process_partial_response(event={"Records": records}, record_handler=read_pokes,
                                    processor=PokeProcessor(via or transport()))
