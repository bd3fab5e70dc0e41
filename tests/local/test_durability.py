"""kill -9 at random points: every acknowledged write survives, no transaction is half-applied."""
from __future__ import annotations

import random
import signal
import threading
import time
from collections import defaultdict

import botocore.config
import botocore.exceptions
import pytest

from tests.local.serving import Server, call, sign_in

TABLE = "tailspend-dev-rate-limits"  # hash key "Key" only: the simplest table of the template
ROUNDS = 8
# Compaction after a few KiB of journal and a snapshot check every 0.1 s: kills also land
# mid-snapshot, between journal switch, snapshot write, CURRENT rename and the old files' removal.
ENV = {"TAILSPEND_SNAPSHOT_SECONDS": "0.1", "TAILSPEND_COMPACT_BYTES": "4000"}


def _client(server):
    import boto3

    return boto3.client("dynamodb", endpoint_url=server.db_url, region_name="us-east-1",
                        aws_access_key_id="local", aws_secret_access_key="local",
                        config=botocore.config.Config(retries={"max_attempts": 0},
                                                      connect_timeout=2, read_timeout=5))


def _writer(server, name, acked, attempted, counter_acked, stop):
    client = _client(server)
    n = 0
    while not stop.is_set():
        txn = f"{name}-{n}"
        attempted.add(txn)
        try:
            client.transact_write_items(TransactItems=[
                {"Put": {"TableName": TABLE, "Item": {"Key": {"S": f"{txn}/{part}"},
                                                      "Txn": {"S": txn}}}}
                for part in range(3)] + [
                {"Update": {"TableName": TABLE, "Key": {"Key": {"S": "counter"}},
                            "UpdateExpression": "ADD Hits :one",
                            "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
        except (botocore.exceptions.BotoCoreError, botocore.exceptions.ClientError):
            return  # the server died under us: this one is in flight, not acknowledged
        acked.add(txn)
        counter_acked.append(1)
        n += 1


def _contents(server) -> tuple[dict, int]:
    client = _client(server)
    groups, hits = defaultdict(set), 0
    for page in client.get_paginator("scan").paginate(TableName=TABLE):
        for item in page["Items"]:
            if item["Key"]["S"] == "counter":
                hits = int(item["Hits"]["N"])
            else:
                groups[item["Txn"]["S"]].add(item["Key"]["S"])
    return groups, hits


@pytest.mark.slow
def test_acknowledged_writes_survive_sigkill_at_random_points(tmp_path):
    rng = random.Random(20240611)
    acked, attempted, counter_acked = set(), set(), []
    for round_number in range(ROUNDS):
        server = Server(tmp_path, command="db", env=ENV)
        groups, hits = _contents(server)
        # Everything acknowledged so far is there, each transaction whole, the counter exact
        # up to the transactions that were in flight at a kill.
        assert acked <= set(groups), sorted(acked - set(groups))[:5]
        assert all(len(keys) == 3 for keys in groups.values()), {
            t: k for t, k in groups.items() if len(k) != 3}
        assert set(groups) <= attempted
        assert hits == len(groups)  # the counter moved in the same transactions, exactly once
        stop = threading.Event()
        writers = [threading.Thread(target=_writer, args=(server, f"r{round_number}w{w}", acked,
                                                          attempted, counter_acked, stop))
                   for w in range(3)]
        for writer in writers:
            writer.start()
        time.sleep(rng.uniform(0.1, 0.8))
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=30)
        stop.set()
        for writer in writers:
            writer.join(timeout=30)
    server = Server(tmp_path, command="db", env=ENV)
    try:
        groups, hits = _contents(server)
        assert acked <= set(groups) and len(acked) > ROUNDS
        assert all(len(keys) == 3 for keys in groups.values())
        assert hits == len(groups)
    finally:
        server.stop()


def test_an_api_write_survives_sigkill_right_after_its_reply(tmp_path):
    server = Server(tmp_path)
    token, user_id = sign_in(server)
    status, group = call("POST", server.url + "/groups", {"name": "Trip", "currency": "EUR"},
                         token)
    assert status == 201, group
    server.process.send_signal(signal.SIGKILL)  # no snapshot period has passed
    server.process.wait(timeout=30)
    server = Server(tmp_path)
    try:
        status, body = call("GET", server.url + f"/groups/{group['groupId']}", token=token)
        assert status == 200 and body["groupId"] == group["groupId"]
    finally:
        server.stop()
