"""Notification worker benchmark: `.venv/bin/python bench/notifications_bench.py` from the root.

Prints the DynamoDB calls the stream worker makes for one EXPENSE_ADDED event as a function
of the number of recipients (each with one device), and for a replay of the same record.
Expected shape: a constant part (dispatched check, one Query for group head + roster, the
dispatch mark, one BatchGetItem of preferences per 100 recipients) plus two calls per
recipient (the conditional history PutItem and the device Query); a replay is one GetItem.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls

RECIPIENTS = (1, 5, 20)  # joining members through the API dominates the run time


def group_with(client, sign_in, recipients: int) -> tuple:
    owner, _ = sign_in(f"owner{recipients}@example.com")
    group = client.post("/groups", json={"name": "Bench", "currency": "EUR"},
                        headers=owner).get_json()
    gid = group["groupId"]
    code = client.get(f"/groups/{gid}/invite", headers=owner).get_json()["code"]
    for index in range(recipients):
        member, _ = sign_in(f"m{recipients}-{index}@example.com")
        request = client.post(f"/groups/{gid}/join-requests", json={"code": code, "mode": "NEW"},
                              headers=member).get_json()
        client.post(f"/groups/{gid}/join-requests/{request['requestId']}/approve",
                    json={"role": "MEMBER"}, headers=owner)
        client.post("/notifications/devices", json={"platform": "IOS", "token": f"t{gid}{index}"},
                    headers=member)
    return owner, gid, group["myParticipantId"]


def pending_images() -> list:
    from models.notifications import Event, NotificationItem
    return [NotificationItem.raw_get(*Event.key(event.EventId))
            for shard in Event.shards() for event in Event.pending(shard, "9999")]


def main() -> None:
    from app.notifications import push
    from app.notifications.worker import handle as handle_stream_record

    push.use(push.RecordingProvider())
    print("recipients | worker DynamoDB calls for one EXPENSE_ADDED | replay of the record")
    with bench_app() as (client, sign_in):
        for recipients in RECIPIENTS:
            owner, gid, pid = group_with(client, sign_in, recipients)
            for image in pending_images():  # the join events
                handle_stream_record({"dynamodb": {"NewImage": image}})
            body = {"description": "Dinner", "date": "2026-05-01", "amount": 1000,
                    "payments": [{"participantId": pid, "amount": 1000}],
                    "splitMode": "EQUAL", "splits": [{"participantId": pid}]}
            assert client.post(f"/groups/{gid}/expenses", json=body,
                               headers=owner).status_code == 201
            (image,) = pending_images()
            record = {"dynamodb": {"NewImage": image}}
            with count_dynamodb_calls() as first:
                handle_stream_record(record)
            with count_dynamodb_calls() as replay:
                handle_stream_record(record)
            print(f"{recipients:>10} | {first} | {replay}")


if __name__ == "__main__":
    main()
