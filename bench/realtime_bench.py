"""Live updates: `.venv/bin/python bench/realtime_bench.py` from the repo root.

Against a `python -m app serve` subprocess (embedded DynamoDB, its stream poller, the
publisher handler, local mode's AppSync Events server), with the `websockets` client:
1. change -> poke latency: 200 expenses added one after another by a second user; the time
   from the API's reply (committed) to the poke's arrival at the first user's socket. Goal:
   p99 <= 1 s. Then IDLE_CHANGES more, each after IDLE_PAUSE s of quiet, when the idle
   stream poller has backed off to its longest wait (the worst case of the back-off).
2. fan-out: 200 open subscribers on one group channel, 20 changes: every subscriber must get
   every poke, in revision order.
3. the AWS cost of 1M changes with 3 subscribers each, from list prices (printed with the
   assumptions; docs/benchmarks.md keeps the figures).
"""
from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.ledger.helpers import equal_body
from tests.local.serving import Server, call, sign_in
from tests.realtime.wsclient import Client, header_protocol

CHANGES = 200
IDLE_CHANGES, IDLE_PAUSE = 10, 1.5
SUBSCRIBERS = 200
FANOUT_CHANGES = 20

# us-east-1 list prices (USD) the estimate uses.
APPSYNC_EVENTS_PER_MILLION_OPERATIONS = 1.00  # inbound and outbound messages alike
LAMBDA_PER_GB_SECOND = 0.0000166667  # x86
LAMBDA_PER_MILLION_REQUESTS = 0.20
DATA_OUT_PER_GB = 0.09


def _group(server):
    owner, _ = sign_in(server, "bench-owner@example.com")
    member, _ = sign_in(server, "bench-member@example.com")
    _, group = call("POST", server.url + "/groups", {"name": "Bench", "currency": "EUR"}, owner)
    gid = group["groupId"]
    _, invite = call("GET", f"{server.url}/groups/{gid}/invite", token=owner)
    _, request = call("POST", f"{server.url}/groups/{gid}/join-requests",
                      {"code": invite["code"], "mode": "NEW"}, member)
    _, approved = call("POST", f"{server.url}/groups/{gid}/join-requests/{request['requestId']}"
                               "/approve", {"role": "MEMBER"}, owner)
    return owner, member, gid, [group["myParticipantId"], approved["participant"]["participantId"]]


def _add(server, member, gid, ids, n):
    status, expense = call("POST", f"{server.url}/groups/{gid}/expenses",
                           equal_body(ids[1], 100 + n, ids, description=f"Bench {n}"), member)
    assert status == 201, expense


def latency(server, owner, member, gid, ids, changes=CHANGES, pause=0.0) -> list:
    _, issued = call("POST", server.url + "/realtime/token", token=owner)
    client = Client(issued)
    client.init()
    assert client.subscribe(f"/groups/{gid}")["type"] == "subscribe_success"
    seconds = []
    last = None
    for n in range(changes):
        time.sleep(pause)
        _add(server, member, gid, ids, n)
        committed = time.perf_counter()
        poke = client.poke(timeout=10)
        seconds.append(time.perf_counter() - committed)
        assert last is None or poke["revision"] == last + 1, (last, poke)
        last = poke["revision"]
    client.close()
    return seconds


async def _fan_out(issued: dict, gid: str, add_changes) -> tuple:
    from websockets.asyncio.client import connect

    protocols = ["aws-appsync-event-ws", header_protocol(issued["host"], issued["token"])]
    sockets = []
    for _ in range(SUBSCRIBERS):
        ws = await connect(issued["url"], subprotocols=protocols, open_timeout=30)
        await ws.send(json.dumps({"type": "connection_init"}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send(json.dumps({"type": "subscribe", "id": str(uuid.uuid4()),
                                  "channel": f"/groups/{gid}", "authorization": {
                                      "host": issued["host"], "Authorization": issued["token"]}}))
        assert json.loads(await ws.recv())["type"] == "subscribe_success"
        sockets.append(ws)

    async def collect(ws) -> list:
        revisions = []
        while len(revisions) < FANOUT_CHANGES:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "data":
                revisions.append(json.loads(message["event"])["revision"])
        return revisions

    started = time.perf_counter()
    writer = threading.Thread(target=add_changes)
    writer.start()
    received = await asyncio.gather(*(collect(ws) for ws in sockets))
    elapsed = time.perf_counter() - started
    writer.join()
    for ws in sockets:
        await ws.close()
    return received, elapsed


def cost_per_million_changes(subscribers: int = 3, records_per_invocation: int = 10,
                             invocation_ms: int = 150, memory_gb: float = 0.25,
                             poke_bytes: int = 160) -> dict:
    """The AWS bill for 1M changes: AppSync (1 inbound + ``subscribers`` outbound messages per
    change), the publisher's Lambda time (stream reads by Lambda are free), data out."""
    operations = 1_000_000 * (1 + subscribers)
    invocations = 1_000_000 / records_per_invocation
    costs = {
        "AppSync Events messages": operations / 1e6 * APPSYNC_EVENTS_PER_MILLION_OPERATIONS,
        "publisher Lambda": invocations * memory_gb * invocation_ms / 1000 * LAMBDA_PER_GB_SECOND
        + invocations / 1e6 * LAMBDA_PER_MILLION_REQUESTS,
        "data out": 1_000_000 * subscribers * poke_bytes / 1e9 * DATA_OUT_PER_GB,
    }
    costs["total"] = sum(costs.values())
    return costs


def main() -> None:
    server = Server(Path(tempfile.mkdtemp(prefix="realtime-bench-")) / "data")
    try:
        owner, member, gid, ids = _group(server)
        seconds = latency(server, owner, member, gid, ids)
        cuts = statistics.quantiles(seconds, n=100)
        print(f"change -> poke over {CHANGES} changes: p50 {cuts[49] * 1000:.0f} ms, "
              f"p99 {cuts[98] * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms "
              f"(goal p99 <= 1000 ms: {'met' if cuts[98] <= 1.0 else 'MISSED'})")
        idle = latency(server, owner, member, gid, ids, IDLE_CHANGES, IDLE_PAUSE)
        print(f"after {IDLE_PAUSE} s idle, {IDLE_CHANGES} changes: median "
              f"{statistics.median(idle) * 1000:.0f} ms, max {max(idle) * 1000:.0f} ms")
        _, issued = call("POST", server.url + "/realtime/token", token=owner)
        _, feed = call("GET", f"{server.url}/groups/{gid}/changes?since=1000000", token=owner)
        first = feed["revision"] + 1

        def add_changes():
            for n in range(FANOUT_CHANGES):
                _add(server, member, gid, ids, 1000 + n)

        received, elapsed = asyncio.run(_fan_out(issued, gid, add_changes))
        expected = list(range(first, first + FANOUT_CHANGES))
        complete = sum(1 for revisions in received if revisions == expected)
        print(f"fan-out: {complete}/{SUBSCRIBERS} subscribers got all {FANOUT_CHANGES} pokes in "
              f"revision order ({SUBSCRIBERS * FANOUT_CHANGES} deliveries in {elapsed:.1f} s)")
        costs = cost_per_million_changes()
        print("AWS cost per 1M changes, 3 subscribers each (10 records per publisher "
              "invocation, 150 ms at 256 MB, 160-byte pokes):")
        for name, usd in costs.items():
            print(f"  {name:26} ${usd:.2f}")
        if complete != SUBSCRIBERS or cuts[98] > 1.0 or max(idle) > 1.0:
            sys.exit(1)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
