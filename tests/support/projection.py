"""Let the groups table's stream settle into the cross-group projection, in-process moto.

:func:`settle_new` feeds what the mapping's filter admits and was not fed yet to the
Projection handler's batch function, as Lambda does: each record once, in order (a test of
what one change's own record does, e.g. an edit that moves a date). :func:`settle` replays
every record from the stream's start, which the projection must (and does) turn into the
same rows: it syncs from state (app/insight/projection.py)."""
from __future__ import annotations

from app.insight.project_stream import project_batch
from app.local.stream_poller import realtime_admitted
from models.groups import GroupItem


def _shard():
    from moto.dynamodb.models import dynamodb_backends

    name = GroupItem.Meta.table_name
    for account in dynamodb_backends:
        table = dynamodb_backends[account]["us-east-1"].tables.get(name)
        if table is not None and table.stream_shard is not None:
            return table.stream_shard
    raise AssertionError(f"no stream on {name}")


def stream_records(shard=None) -> list:
    """Every admitted record of the groups stream so far, in order: read from moto's shard
    (in-process moto serves no DynamoDB Streams API; the embedded endpoint does, and
    tests/local drives the poller through it)."""
    return [r for r in (record.to_json() for record in (shard or _shard()).items)
            if realtime_admitted(r)]


def settle() -> int:
    """Feed the projection every admitted record; returns how many."""
    records = stream_records()
    result = project_batch(records)
    assert result == {"batchItemFailures": []}, result
    return len(records)


def settle_new() -> int:
    """Feed the projection the admitted records not fed by an earlier call; returns how many."""
    shard = _shard()
    records = stream_records(shard)
    fed = getattr(shard, "tailspend_projection_fed", 0)
    result = project_batch(records[fed:])
    assert result == {"batchItemFailures": []}, result
    shard.tailspend_projection_fed = len(records)
    return len(records) - fed
