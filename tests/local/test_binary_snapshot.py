"""Binary attributes survive local mode's snapshot and restore: a B value and a binary set
(the balance row's Users set is one) come back as the same bytes, not as base64 text, and a
snapshot with a binary set can be written at all (moto leaves its members as bytes)."""
from __future__ import annotations

import boto3

from app.local.dynamodb import EmbeddedDynamoDB

TABLE = "tailspend-dev-rate-limits"


def _client(db):
    return boto3.client("dynamodb", endpoint_url=db.endpoint, region_name="us-east-1",
                        aws_access_key_id="local", aws_secret_access_key="local")


def test_binary_values_and_sets_come_back_as_the_same_bytes(tmp_path):
    blob, members = b"\x00\xffraw", {b"\x01" * 32, b"\x02" * 32}
    item = {"Key": {"S": "k"}, "Blob": {"B": blob}, "Set": {"BS": sorted(members)},
            "Nested": {"M": {"Inner": {"B": blob}}}}
    db = EmbeddedDynamoDB(port=0, data_dir=str(tmp_path)).start()
    try:
        _client(db).put_item(TableName=TABLE, Item=item)
        db.snapshot()  # the journal is folded into a snapshot: the restore reads only that
    finally:
        db.stop()
    db = EmbeddedDynamoDB(port=0, data_dir=str(tmp_path)).start()
    try:
        back = _client(db).get_item(TableName=TABLE, Key={"Key": {"S": "k"}})["Item"]
    finally:
        db.stop()
    assert back["Blob"] == {"B": blob} and set(back["Set"]["BS"]) == members
    assert back["Nested"] == {"M": {"Inner": {"B": blob}}}
