"""Let the groups table's stream settle into the cross-group projection, in-process moto.

Reads the whole stream from its start and feeds what the mapping's filter admits to the
Projection handler's batch function, as Lambda would: every call replays every record, which
the projection must (and does) turn into the same rows: it syncs from state
(app/insight/projection.py)."""
from __future__ import annotations

from app.insight.project_stream import project_batch
from app.local.stream_poller import realtime_admitted
from models.groups import GroupItem


def stream_records() -> list:
    """Every admitted record of the groups stream so far, in order: read from moto's shard
    (in-process moto serves no DynamoDB Streams API; the embedded endpoint does, and
    tests/local drives the poller through it)."""
    from moto.dynamodb.models import dynamodb_backends

    name = GroupItem.Meta.table_name
    for account in dynamodb_backends:
        table = dynamodb_backends[account]["us-east-1"].tables.get(name)
        if table is not None and table.stream_shard is not None:
            return [r for r in (record.to_json() for record in table.stream_shard.items)
                    if realtime_admitted(r)]
    raise AssertionError(f"no stream on {name}")


def settle() -> int:
    """Feed the projection every admitted record; returns how many."""
    records = stream_records()
    result = project_batch(records)
    assert result == {"batchItemFailures": []}, result
    return len(records)
