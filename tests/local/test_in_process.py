"""`python -m app serve`'s own table calls reach its embedded DynamoDB without a socket
(app/local/in_process.py), and get what a socket client gets: the same answers and errors,
the same journal (an acknowledged write survives a restart), binary values intact."""
from __future__ import annotations

import sys

import botocore.exceptions
import pytest

from app.local.dynamodb import EmbeddedDynamoDB
from app.local.in_process import InProcess
from models import pynamodb_adapter
from tests.support import audit

TABLE = "tailspend-dev-rate-limits"


def _client(db, *, in_process: bool):
    session = pynamodb_adapter.session()  # what PynamoDB's connections get
    session.set_credentials("local", "local")
    if in_process:
        session.register("before-send.dynamodb", InProcess(db))
    return session.create_client("dynamodb", region_name="us-east-1", endpoint_url=db.endpoint)


@pytest.fixture
def db(tmp_path):
    database = EmbeddedDynamoDB(port=0, data_dir=str(tmp_path), snapshot_seconds=0).start()
    yield database
    database.stop()


def test_calls_answered_in_process_open_no_socket_and_a_socket_client_sees_them(db):
    client = _client(db, in_process=True)
    item = {"Key": {"S": "k"}, "Blob": {"B": b"\x00\xff"}, "N": {"N": "1"}}
    with audit.watching("socket.connect") as connects:
        client.put_item(TableName=TABLE, Item=item)
        assert client.get_item(TableName=TABLE, Key={"Key": {"S": "k"}})["Item"] == item
    assert audit.connects_to(connects, db.port) == []
    # The socket still serves everyone else, and they see the same table.
    outside = _client(db, in_process=False)
    with audit.watching("socket.connect") as connects:
        assert outside.get_item(TableName=TABLE, Key={"Key": {"S": "k"}})["Item"] == item
    assert audit.connects_to(connects, db.port)  # what the check would have seen for each call


def test_refusals_come_back_as_the_same_errors(db):
    client = _client(db, in_process=True)
    client.put_item(TableName=TABLE, Item={"Key": {"S": "k"}})
    with pytest.raises(botocore.exceptions.ClientError) as refused:
        client.put_item(TableName=TABLE, Item={"Key": {"S": "k"}},
                        ConditionExpression="attribute_not_exists(#k)",
                        ExpressionAttributeNames={"#k": "Key"})
    assert refused.value.response["Error"]["Code"] == "ConditionalCheckFailedException"
    with pytest.raises(client.exceptions.ResourceNotFoundException):
        client.get_item(TableName="no-such-table", Key={"Key": {"S": "k"}})


def test_a_write_answered_in_process_is_journaled_before_its_reply(tmp_path):
    database = EmbeddedDynamoDB(port=0, data_dir=str(tmp_path), snapshot_seconds=0).start()
    _client(database, in_process=True).put_item(TableName=TABLE, Item={"Key": {"S": "kept"}})
    journal = [p for p in (tmp_path / "dynamodb").iterdir() if "journal" in p.name]
    assert journal and any(b"kept" in p.read_bytes() for p in journal)  # on disk already
    database.stop()
    again = EmbeddedDynamoDB(port=0, data_dir=str(tmp_path), snapshot_seconds=0).start()
    try:
        back = _client(again, in_process=True).get_item(TableName=TABLE,
                                                        Key={"Key": {"S": "kept"}})
    finally:
        again.stop()
    assert back["Item"] == {"Key": {"S": "kept"}}


def test_another_endpoint_is_left_to_botocore(db):
    handler = InProcess(db)

    class Request:
        url, method, headers, body = "http://127.0.0.1:1/", "POST", {}, b"{}"

    assert handler(Request()) is None
    Request.url = db.endpoint + "0/"  # a port that merely starts with ours
    assert handler(Request()) is None


# What `python -m app serve` does, in a process of its own (the registration is process-wide):
# the models and a stream poller's clients, on an embedded endpoint answered in process.
SERVED = """
import json, os, tempfile
os.environ.update(AWS_ACCESS_KEY_ID="local", AWS_SECRET_ACCESS_KEY="local")
from tests.support import audit
from app.local.dynamodb import EmbeddedDynamoDB
from app.local.in_process import serve_in_process
from app.local.stream_poller import StreamPoller
import models
db = EmbeddedDynamoDB(port=0, stage="dev", data_dir=tempfile.mkdtemp()).start()
serve_in_process(db)
models.configure(stage="dev", region="us-east-1", host=db.endpoint)
with audit.watching("socket.connect") as raw:
    tables = db.client().list_tables()["TableNames"]  # a raw client: the socket
with audit.watching("socket.connect") as served:
    dynamodb, streams = StreamPoller(db.endpoint, tables[0], lambda records: None)._clients()
    dynamodb.list_tables()
    models.connection().client.list_tables()  # PynamoDB's connection: the app's table calls
print(json.dumps({"raw": len(audit.connects_to(raw, db.port)),
                  "answered_in_process": len(audit.connects_to(served, db.port))}))
db.stop()
"""


def test_serve_answers_the_models_and_the_pollers_in_process_and_a_raw_client_by_socket():
    import json
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", SERVED], cwd=root, capture_output=True,
                         text=True, check=True).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["raw"] >= 1  # the socket is open, and the hook sees its connects
    assert seen["answered_in_process"] == 0


def test_a_stopped_endpoints_handler_answers_nothing(tmp_path):
    # A later endpoint may get the same port: its requests must reach it by the socket,
    # never the stopped one's moto.
    database = EmbeddedDynamoDB(port=0, data_dir=str(tmp_path), snapshot_seconds=0).start()
    handler = InProcess(database)

    class Request:
        url, method, headers, body = database.endpoint + "/", "POST", {}, b"{}"

    database.stop()
    assert handler(Request()) is None


def test_a_start_makes_its_tables_and_restores_its_snapshot_without_a_socket(tmp_path):
    """The set-up calls of each start (tables, TTLs, a snapshot's items) are answered in
    process, as the app's own calls are."""
    first = EmbeddedDynamoDB(port=0, data_dir=str(tmp_path), snapshot_seconds=0).start()
    first.client().put_item(TableName=TABLE, Item={"Key": {"S": "kept"}})
    first.stop()  # a clean stop writes the snapshot the next start restores
    with audit.watching("socket.connect") as connects:
        again = EmbeddedDynamoDB(port=0, data_dir=str(tmp_path), snapshot_seconds=0).start()
    try:
        assert audit.connects_to(connects, again.port) == []
        assert again.client().get_item(TableName=TABLE, Key={"Key": {"S": "kept"}})["Item"]
    finally:
        again.stop()
