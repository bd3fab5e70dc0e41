"""Recurring tick: `.venv/bin/python bench/recurring_bench.py [N]` from the repo root.

Seeds N due monthly templates, one per group (so they spread over every DueBucket shard),
on the embedded DynamoDB endpoint as `python -m app serve` runs it (serialized, moto patched
by app.local.engine; no journal), then runs the hourly tick in-process over every bucket and
prints DynamoDB calls per materialised occurrence (goal <= 3; the per-bucket calls of the
128 shards are included: the due and reminder Queries, and one BatchGetItem of the group
heads per 100 due templates) and the wall time. N defaults to 1,000 (10,000 takes ~10x as long).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import count_dynamodb_calls

NOW = "2026-02-01T00:30:00Z"


def _seed(count: int) -> None:
    """Group heads, two participants each and one due template per group, in batch writes."""
    from app.recurring.schedule import build
    from models.groups import (ExpenseTemplateMap, Group, GroupItem, ItemMap, Participant,
                               PaymentMap, RecurringExpense, SplitMap)

    schedule = build(frequency="MONTHLY", interval=1, start_date="2026-02-01")
    created = "2026-01-01T00:00:00.000Z"
    with GroupItem.batch_write() as batch:
        for index in range(count):
            gid = f"00000000-0000-4000-8000-{index:012d}"
            pids = [f"00000000-0000-4000-9000-{index:010d}{n:02d}" for n in range(2)]
            batch.save(Group(*Group.key(gid), Name="Bench", Currency="EUR", CreatedBy="bench",
                             OwnerCount=1, Status="ACTIVE", CreatedAt=created))
            for pid in pids:
                batch.save(Participant(gid, Participant.sort_key(pid), ParticipantId=pid,
                                       Type="GUEST", DisplayName="P", Role="MEMBER"))
            # Currency as the API writes it: the body carries its own (the group's here).
            template = ExpenseTemplateMap(
                Description="Rent", Category=None, Amount=1000, Currency="EUR",
                Payments=[PaymentMap(ParticipantId=pids[0], Amount=1000)],
                Items=[ItemMap(Name="Rent", Amount=1000, SplitMode="EQUAL",
                               Splits=[SplitMap(ParticipantId=p, Value=0, Amount=500)
                                       for p in pids])])
            rid = f"00000000-0000-4000-a000-{index:012d}"
            batch.save(RecurringExpense(
                gid, RecurringExpense.sort_key(rid), RecurringId=rid, Template=template,
                Currency="EUR", Frequency="MONTHLY", Interval=1, StartDate="2026-02-01",
                TimeZone="UTC", Paused=False, NextSlot="2026-02-01", CreatedBy="bench",
                CreatedAt=created, UpdatedAt=created,
                **RecurringExpense.due_keys(gid, schedule.run_at(schedule.first()))))


def _bucket_calls(queries: int, templates: int) -> float:
    """The tick's per-bucket calls at ``templates`` due templates spread by GroupId hash:
    the Queries, and a head read for each bucket holding one (the expected number of
    occupied buckets; below 10,000 a bucket rarely holds more than 100)."""
    from models.groups import DUE_BUCKETS

    return queries + DUE_BUCKETS * (1 - (1 - 1 / DUE_BUCKETS) ** templates)


def main(count: int) -> None:
    import models
    from app.local.dynamodb import EmbeddedDynamoDB
    from app.local.template_tables import create_tables
    from app.recurring.tick import run_tick

    server = EmbeddedDynamoDB(port=0, stage="bench", data_dir=None).start()
    try:
        create_tables(server.client(), "bench")
        models.configure(stage="bench", region="us-east-1", host=server.endpoint)
        _seed(count)
        with count_dynamodb_calls() as calls:
            started = time.perf_counter()
            result = run_tick(NOW)
            elapsed = time.perf_counter() - started
        assert result["created"] == count, result
        print(f"due templates: {count}, created {result['created']}, failed {result['failed']}")
        print(f"DynamoDB calls: {calls}")
        created, queries = result["created"], calls.calls["Query"]
        heads = calls.calls["BatchGetItem"]
        each = (calls.total - queries - heads) / created
        print(f"calls per materialised occurrence: {calls.total / created:.2f} (goal <= 3) = "
              f"{each:.2f} per occurrence + {queries} bucket Queries (the 128 buckets' due and "
              f"reminder reads) and {heads} head BatchGetItems (one per bucket with due "
              f"templates, up to 100) a tick over {created}: "
              f"{each + _bucket_calls(queries, 1000) / 1000:.2f} at 1,000, "
              f"{each + _bucket_calls(queries, 10_000) / 10_000:.2f} at 10,000")
        print(f"wall time: {elapsed:.1f} s ({elapsed / count * 1000:.1f} ms per occurrence, "
              "serialized embedded endpoint, one process)")
    finally:
        server.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
