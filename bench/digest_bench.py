"""E-mail digest benchmark: `.venv/bin/python bench/digest_bench.py` from the root.

Prints what one digest run costs in DynamoDB (calls, billed read and write units, metered by
bench/dynamo_meter.py on moto) for R readers of one group, each with a DAILY digest, after a
day with changes and after a day without, and what a preference change to a digest costs.
Expected shape (docs/email.md "Digests"): per reader one Query of their history, one
conditional PutItem (the marker), and, only when something changed, one membership Query and
two BatchGetItems (balance rows with the liveness read, the people's profiles); per run the
subscriber shards' Queries, one BatchGetItem of profiles per 100 readers and the cursor's few
writes. No Scan, whatever the table holds.
"""
from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app

READERS = (1, 10, 50)


def _group(client, sign_in, readers: int) -> tuple:
    owner, _ = sign_in(f"digest-owner{readers}@example.com")
    group = client.post("/groups", json={"name": "Bench", "currency": "EUR"},
                        headers=owner).get_json()
    gid = group["groupId"]
    code = client.get(f"/groups/{gid}/invite", headers=owner).get_json()["code"]
    members = []
    for index in range(readers):
        member, _ = sign_in(f"digest{readers}-{index}@example.com")
        request = client.post(f"/groups/{gid}/join-requests", json={"code": code, "mode": "NEW"},
                              headers=member).get_json()
        client.post(f"/groups/{gid}/join-requests/{request['requestId']}/approve",
                    json={"role": "MEMBER"}, headers=owner)
        members.append(member)
    return owner, gid, group["myParticipantId"], members


def _dispatch_all() -> None:
    from app.notifications.dispatch import dispatch
    from models.notifications import Event

    for shard in Event.shards():
        for event in Event.pending(shard, "9999"):
            dispatch(event)


def _line(label: str, bill, readers: int) -> str:
    return (f"{label:<28} | {bill.calls_text()} | WRU {bill.wru:g} ({bill.wru / readers:.2f} a "
            f"reader) | RRU {bill.rru:g} ({bill.rru / readers:.2f} a reader)")


def main() -> None:
    import boto3

    from app.insight.digests import send_digests
    from app.local.smtp_server import MAILBOX, SmtpServer
    from app.notifications import push
    from bench.dynamo_meter import Meter

    push.use(push.RecordingProvider())
    smtp = SmtpServer("127.0.0.1", 0).start()
    now = datetime.now(timezone.utc)
    next_day = (now + timedelta(days=1)).strftime("%Y-%m-%dT00:30:00Z")
    day_after = (now + timedelta(days=2)).strftime("%Y-%m-%dT00:30:00Z")
    try:
        for readers in READERS:  # each size on tables of its own
            with bench_app(smtp_url=smtp.url) as (client, sign_in):
                meter = Meter(boto3.client("dynamodb", region_name="us-east-1"))
                meter.hook_models()
                owner, gid, pid, members = _group(client, sign_in, readers)
                with meter.block() as switch:
                    client.patch("/notifications/preferences",
                                 json={"types": {"MENTION": {"email": True}}},
                                 headers=members[0])
                with meter.block() as digest:
                    client.patch("/notifications/preferences", json={"digest": "DAILY"},
                                 headers=members[0])
                for member in members[1:]:
                    client.patch("/notifications/preferences", json={"digest": "DAILY"},
                                 headers=member)
                body = {"description": "Dinner", "date": "2026-05-01", "amount": 1000 * readers,
                        "payments": [{"participantId": pid, "amount": 1000 * readers}],
                        "splitMode": "EQUAL", "splits": [{"participantId": pid}]}
                client.post(f"/groups/{gid}/expenses", json=body, headers=owner)
                _dispatch_all()
                with meter.block() as changed:
                    sent = send_digests(now=next_day)
                with meter.block() as unchanged:
                    quiet = send_digests(now=day_after)
                assert sent["digestsSent"] == readers, sent
                if readers == READERS[0]:
                    print(f"PATCH preferences: an e-mail switch WRU {switch.wru:g}; with the "
                          f"digest WRU {digest.wru:g} (its subscriber rows: "
                          f"+{digest.wru - switch.wru:g})\n")
                print(f"{readers} readers:")
                print(_line("  a day with changes (sent)", changed, readers))
                print(_line("  a day without (none sent)", unchanged, quiet["digestsUnchanged"]))
                MAILBOX.clear()
    finally:
        smtp.stop()

if __name__ == "__main__":
    main()
