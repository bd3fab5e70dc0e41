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
change made after the removal never reaches the removed member, even in the same batch."""
from __future__ import annotations

from collections import OrderedDict
from typing import Dict, List, Optional, Protocol, Set, Tuple

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


def publish_batch(records: List[dict], via: Optional[Transport] = None) -> dict:
    """Lambda's partial batch response for ``records`` (a DynamoDB stream batch)."""
    via = via or transport()
    failed: List[str] = []
    stopped: Set[str] = set()
    segment: Dict[str, List[Tuple[Poke, str]]] = OrderedDict()
    published = 0
    for record in records:
        try:
            pokes = pokes_for(record)
        except ValueError:
            logger.exception("realtime.publish_failed", extra={"sequence": _sequence(record)})
            failed.append(_sequence(record))
            continue
        for poke in pokes:
            segment.setdefault(poke.channel, []).append((poke, _sequence(record)))
        if any(poke.kind == REVOKED for poke in pokes):
            # What came before the revocation goes out before it, and what came after, after:
            # local mode's server ends the member's subscription on it (module doc).
            published += _publish(via, segment, stopped, failed)
            segment = OrderedDict()
    published += _publish(via, segment, stopped, failed)
    logger.info("realtime.published", extra={"pokes": published, "records": len(records)})
    return {"batchItemFailures": [{"itemIdentifier": seq} for seq in dict.fromkeys(failed)]}


def _publish(via: Transport, by_channel: Dict[str, List[Tuple[Poke, str]]], stopped: Set[str],
             failed: List[str]) -> int:
    """Send each channel's pokes in chunks; a channel that fails stops for the whole batch."""
    published = 0
    for channel, entries in by_channel.items():
        if channel in stopped:
            continue
        for start in range(0, len(entries), MAX_EVENTS):
            chunk = entries[start:start + MAX_EVENTS]
            try:
                via.publish(channel, [poke.event() for poke, _ in chunk])
            except Exception:  # noqa: BLE001 — reported: Lambda retries from here (module doc)
                logger.exception("realtime.publish_failed",
                                 extra={"channel_namespace": channel.split("/")[1],
                                        "sequence": chunk[0][1]})
                failed.append(chunk[0][1])
                stopped.add(channel)
                break
            published += len(chunk)
    return published
