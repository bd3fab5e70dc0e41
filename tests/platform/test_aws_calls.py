"""tests/support/aws_calls.py holds: its hooks reach every client through botocore's public
events, and the one workaround (PynamoDB's session) still takes. Each check fails when the
library behaviour it relies on changes."""
from __future__ import annotations

import threading

import boto3
import pytest
from botocore.exceptions import EndpointConnectionError
from botocore.handlers import BUILTIN_HANDLERS

from tests.support import aws_calls


def _client():
    return boto3.client("dynamodb", region_name="us-east-1")


def test_every_new_session_carries_the_hooks():
    names = [spec[0] for spec in BUILTIN_HANDLERS if spec[1] in (
        aws_calls._before, aws_calls._after, aws_calls._one_at_a_time)]
    assert sorted(names) == ["after-call", "before-parameter-build", "before-send"]
    aws_calls.install()  # idempotent
    assert len([s for s in BUILTIN_HANDLERS if s[1] is aws_calls._before]) == 1
    from moto.core.models import botocore_stubber
    # moto's stubber is reached through the lock only: botocore runs every before-send
    # handler, so a second registration would apply each write twice.
    assert not [s for s in BUILTIN_HANDLERS if s[1] is botocore_stubber]


def test_a_write_is_applied_once(aws):
    client = _client()
    table = client.list_tables()["TableNames"][0]
    schema = client.describe_table(TableName=table)["Table"]["KeySchema"]
    key = {part["AttributeName"]: {"S": "count"} for part in schema}
    client.update_item(TableName=table, Key=key, UpdateExpression="ADD n :one",
                       ExpressionAttributeValues={":one": {"N": "1"}})
    assert client.get_item(TableName=table, Key=key)["Item"]["n"] == {"N": "1"}


def test_calls_of_a_fresh_client_are_recorded_with_their_parameters(aws):
    client = _client()
    with aws_calls.requests_made() as made, aws_calls.recorded() as names:
        client.list_tables(Limit=3)
    assert made == [("ListTables", {"Limit": 3})] and names == ["ListTables"]
    client.list_tables()
    assert names == ["ListTables"]  # nothing after the block


def test_a_failing_call_never_leaves_and_raises_what_the_hook_chose(aws):
    client = _client()
    table = client.list_tables()["TableNames"][0]
    schema = client.describe_table(TableName=table)["Table"]["KeySchema"]
    item = {part["AttributeName"]: {"S": "a"} for part in schema}
    unreachable = EndpointConnectionError(endpoint_url="https://dynamodb.invalid")
    with aws_calls.failing(lambda op, _p: unreachable if op == "PutItem" else None):
        with pytest.raises(EndpointConnectionError):
            client.put_item(TableName=table, Item=item)
        assert client.scan(TableName=table)["Count"] == 0  # other calls go through
    assert client.scan(TableName=table)["Count"] == 0  # the PutItem never reached moto


def test_after_sees_each_reply_and_whether_it_was_an_error(aws):
    client = _client()
    seen = []
    with aws_calls.watched(after=lambda op, parsed, ok: seen.append((op, ok))):
        client.list_tables()
        with pytest.raises(client.exceptions.ResourceNotFoundException):
            client.describe_table(TableName="no-such-table")
    assert seen == [("ListTables", True), ("DescribeTable", False)]


def test_moto_answers_one_request_at_a_time(aws):
    client = _client()
    client.list_tables()  # the client is built: the thread below only makes its call
    replies = []
    with aws_calls._moto_lock:
        caller = threading.Thread(target=lambda: replies.append(client.list_tables()))
        caller.start()
        caller.join(timeout=0.5)
        assert caller.is_alive() and replies == []  # held at moto's door by the lock
    caller.join(timeout=10)
    assert replies and "TableNames" in replies[0]


def test_an_answered_call_gets_the_reply_it_was_given_and_never_reaches_moto(aws):
    client = _client()
    table = client.list_tables()["TableNames"][0]
    schema = client.describe_table(TableName=table)["Table"]["KeySchema"]
    item = {part["AttributeName"]: {"S": "a"} for part in schema}
    refused = (400, {"Error": {"Code": "ProvisionedThroughputExceededException",
                               "Message": "slow down"}})
    with aws_calls.answered(lambda op, params: refused if params.get("Item") == item else None):
        with pytest.raises(client.exceptions.ProvisionedThroughputExceededException):
            client.put_item(TableName=table, Item=item)
    assert client.scan(TableName=table)["Count"] == 0
