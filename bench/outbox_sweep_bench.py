"""Outbox sweep sizing: `.venv/bin/python bench/outbox_sweep_bench.py [N]` from the repo root.

Measures, on the embedded DynamoDB endpoint as `python -m app serve` runs it, what re-dispatching
one outbox event costs (N EXPENSE_ADDED events in groups of four: three recipients with a
device each): DynamoDB calls per event and the sweep's own CPU per event (``thread_time`` of
the dispatching thread: the endpoint serves from its own threads, so its CPU is not counted).
It also measures the CPU of one real Web Push send (RFC 8291 encryption + VAPID signature) to a
push service on 127.0.0.1.

Then it models a sweep run in AWS from those numbers and the stated assumptions (DynamoDB and
push latencies in AWS are assumptions, not measured here: no AWS from this machine), and prints
how long the backlog an hour's outage leaves at ~1M users takes to drain, before (200 events
a run) and after (shard workers, a time budget).
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import count_dynamodb_calls

# ---- assumptions of the model (change them here; each is printed with the result) ----------
USERS = 1_000_000
EVENTS_PER_USER_PER_DAY = 1.0  # outbox events (expenses, comments, settlements, ...) per user
PEAK_HOUR_SHARE = 0.10  # share of a day's events in its busiest hour (the outage's hour)
OUTAGE_HOURS = 1.0
RECIPIENTS_PER_EVENT = 3  # groups of four: everyone but the actor
DYNAMODB_CALL_MS = 10.0  # in-region p90-ish single-item call; DynamoDB's p50 is single digits
PUSH_WALL_MS = 250.0  # one event's pushes, sent together: the slowest of them (SNS ~2 calls)
LAMBDA_VCPU = {512: 512 / 1769, 1024: 1024 / 1769, 1769: 1.0}  # Lambda: 1 vCPU at 1,769 MB
RUN_EVERY_S = 300  # the OutboxRecovery schedule
TIMEOUT_S, MARGIN_S = 300, 30  # the maintenance function's timeout; app.maintenance
OLD_EVENTS_PER_RUN = 200


def _seed(groups: int) -> list:
    """Groups of four USER participants (each with a live profile), three with a device; one
    event per group."""
    from app.core.clock import iso_in
    from models.groups import Group, GroupItem, Participant
    from models.notifications import Device, Event, NotificationItem
    from models.users import Profile, UserItem

    created, events = iso_in(-3600), []
    with GroupItem.batch_write() as batch:
        for g in range(groups):
            gid = f"00000000-0000-4000-8000-{g:012d}"
            batch.save(Group(*Group.key(gid), Name="Bench", Currency="EUR", CreatedBy="u0",
                             OwnerCount=1, Status="ACTIVE", CreatedAt=created))
            for n in range(RECIPIENTS_PER_EVENT + 1):
                pid = f"00000000-0000-4000-9000-{g:010d}{n:02d}"
                batch.save(Participant(gid, Participant.sort_key(pid), ParticipantId=pid,
                                       Type="USER", UserId=f"user-{g}-{n}", DisplayName=f"U{n}",
                                       Role="OWNER" if n == 0 else "MEMBER"))
    # The dispatch reads the recipients' profiles and sends to live accounts only: without
    # them an event would cost its fixed part alone.
    with UserItem.batch_write() as batch:
        for g in range(groups):
            for n in range(RECIPIENTS_PER_EVENT + 1):
                batch.save(Profile(*Profile.key(f"user-{g}-{n}"), DisplayName=f"U{n}",
                                   Email=f"user-{g}-{n}@example.com"))
    with NotificationItem.batch_write() as batch:
        for g in range(groups):
            gid = f"00000000-0000-4000-8000-{g:012d}"
            for n in range(1, RECIPIENTS_PER_EVENT + 1):
                batch.save(Device(*Device.key(f"user-{g}-{n}", f"d{n}"), DeviceId=f"d{n}",
                                  Platform="IOS", Token=f"tok-{g}-{n}", CreatedAt=created))
            event_id = Event.event_id("EXPENSE_ADDED", gid, f"e{g}", 1)
            event = Event(*Event.key(event_id), EventId=event_id, Type="EXPENSE_ADDED",
                          GroupId=gid, ActorUserId=f"user-{g}-0", ResourceId=f"e{g}",
                          CreatedAt=created,
                          Payload={"description": "Dinner", "amount": 4550})
            batch.save(event)
            events.append(event_id)
    return events


def measure_dispatch(count: int) -> dict:
    """Per-event DynamoDB calls, sweep-thread CPU and wall time on the embedded endpoint."""
    import models
    from app.local.dynamodb import EmbeddedDynamoDB
    from app.local.template_tables import create_tables
    from app.notifications import push
    from app.notifications.dispatch import already_dispatched, dispatch
    from models.notifications import Event

    push.use(push.RecordingProvider())
    server = EmbeddedDynamoDB(port=0, stage="bench", data_dir=None).start()
    try:
        create_tables(server.client(), "bench")
        models.configure(stage="bench", region="us-east-1", host=server.endpoint)
        _seed(count)
        pending = [event for shard in Event.shards()
                   for event in Event.pending(shard, "9999", page_size=100)]
        assert len(pending) == count, len(pending)
        with count_dynamodb_calls() as calls:
            cpu, wall = time.thread_time(), time.perf_counter()
            for event in pending:  # what one shard worker does per event
                if not already_dispatched(event):
                    dispatch(event)
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    finally:
        server.stop()
    return {"events": count, "calls": calls.total / count, "detail": str(calls),
            "cpu_ms": cpu / count * 1000, "wall_ms": wall / count * 1000}


def measure_web_push_cpu(sends: int = 50) -> float:
    """CPU ms of one Web Push send (encrypt + sign + HTTP) to a push service on loopback."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from app.notifications import push, vapid

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        receiver = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        b64 = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("=")  # noqa: E731
        token = json.dumps({"endpoint": f"http://127.0.0.1:{server.server_port}/s",
                            "keys": {"p256dh": b64(receiver), "auth": b64(os.urandom(16))}})
        # local=True: the push service here is on loopback, which only local mode's exception
        # lets through (notifications.endpoints refuses it otherwise, as it must in AWS).
        provider = push.WebPushProvider(vapid.new_private_key(), "mailto:bench@example.com",
                                        local=True)
        message = push.Message("New expense in Bench", "U0 added \u201cDinner\u201d.",
                               "EXPENSE_ADDED")
        assert provider.send(push.WEB, token, message) == push.SENT  # warm up imports
        cpu = time.thread_time()
        for _ in range(sends):
            provider.send(push.WEB, token, message)
        return (time.thread_time() - cpu) / sends * 1000
    finally:
        server.shutdown()
        server.server_close()


def model(measured: dict, web_push_cpu_ms: float) -> None:
    from app.notifications.redispatch import SHARD_WORKERS
    from models.notifications import PENDING_SHARDS

    backlog = USERS * EVENTS_PER_USER_PER_DAY * PEAK_HOUR_SHARE * OUTAGE_HOURS
    runs_per_hour = 3600 / RUN_EVERY_S
    budget_s = TIMEOUT_S - MARGIN_S
    # Wall per event in AWS: its DynamoDB calls one after another, then its pushes together.
    wall_s = (measured["calls"] * DYNAMODB_CALL_MS + PUSH_WALL_MS) / 1000
    # CPU per event: the sweep's own (measured) plus its pushes' (in the send pool's threads):
    # a Web Push encrypts and signs, an SNS push is two API calls at the measured CPU per call.
    per_call_cpu_ms = measured["cpu_ms"] / measured["calls"]
    push_cpu_ms = max(web_push_cpu_ms, 2 * per_call_cpu_ms)
    cpu_s = (measured["cpu_ms"] + RECIPIENTS_PER_EVENT * push_cpu_ms) / 1000
    print(f"\nassumptions: {USERS:,} users x {EVENTS_PER_USER_PER_DAY} events/user/day x "
          f"{PEAK_HOUR_SHARE:.0%} in the peak hour x {OUTAGE_HOURS} h outage "
          f"= backlog {backlog:,.0f} events")
    print(f"  DynamoDB call {DYNAMODB_CALL_MS} ms, an event's pushes {PUSH_WALL_MS} ms, "
          f"run every {RUN_EVERY_S} s, budget {budget_s} s a run "
          f"(timeout {TIMEOUT_S} s - margin {MARGIN_S} s)")
    print(f"  per event in AWS: wall {wall_s * 1000:.0f} ms, CPU {cpu_s * 1000:.1f} ms "
          f"(sweep {measured['cpu_ms']:.1f} + {RECIPIENTS_PER_EVENT} pushes x "
          f"{push_cpu_ms:.1f}; this machine's core)")
    print("  one Python process uses at most one vCPU for this work (the GIL): more memory "
          "than 1,769 MB adds no throughput, more invocations side by side do")
    old_hours = backlog / (OLD_EVENTS_PER_RUN * runs_per_hour)
    print(f"\nbefore: {OLD_EVENTS_PER_RUN} events a run -> {OLD_EVENTS_PER_RUN * runs_per_hour:,.0f}"
          f" an hour -> the backlog drains in {old_hours:,.1f} h ({old_hours / 24:.1f} days)")
    print(f"after: shard workers (up to {SHARD_WORKERS} per invocation), until the budget is spent")
    print("  invocations x shards | memory  | events/s (IO, CPU bound) | events a 5-min run"
          " | drain time")
    for invocations in (1, 2, 4):
        shards = PENDING_SHARDS // invocations
        for memory, vcpu in LAMBDA_VCPU.items():
            io_rate = min(SHARD_WORKERS, shards) / wall_s
            cpu_rate = min(vcpu, 1.0) / cpu_s
            rate = min(io_rate, cpu_rate) * invocations
            per_run = rate * budget_s
            minutes = backlog / per_run * RUN_EVERY_S / 60
            print(f"  {invocations} x {shards:>2} shards        | {memory:>4} MB | {rate:5.0f} "
                  f"({io_rate * invocations:.0f}, {cpu_rate * invocations:.0f})"
                  f"             | {per_run:>10,.0f} | {minutes:5.0f} min"
                  + ("" if minutes <= 60 else "  (over the hour)"))


def main(count: int) -> None:
    measured = measure_dispatch(count)
    print(f"measured on the embedded endpoint ({measured['events']} events, "
          f"{RECIPIENTS_PER_EVENT} recipients with a device each):")
    print(f"  DynamoDB calls per event: {measured['calls']:.1f}  [{measured['detail']}]")
    print(f"  sweep-thread CPU per event: {measured['cpu_ms']:.1f} ms; wall per event here "
          f"{measured['wall_ms']:.1f} ms (the serialized embedded endpoint, shared cores)")
    web_push_cpu_ms = measure_web_push_cpu()
    print(f"  CPU of one Web Push send (aes128gcm + VAPID ES256): {web_push_cpu_ms:.1f} ms")
    model(measured, web_push_cpu_ms)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
