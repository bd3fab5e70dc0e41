"""app.local.engine: moto's semantics kept, its whole-table costs gone."""
from __future__ import annotations

import copy

import botocore.exceptions
import pytest

from app.local import engine

engine.install()


def _fill(client, pk, sks, **attrs):
    for start in range(0, len(sks), 25):
        client.batch_write_item(RequestItems={"t": [
            {"PutRequest": {"Item": {"PK": {"S": pk}, "SK": {"S": sk}, **attrs}}}
            for sk in sks[start:start + 25]]})


def _moto_table():
    from moto.dynamodb.models import dynamodb_backends

    return dynamodb_backends["123456789012"]["us-east-1"].tables["t"]


def test_a_transaction_copies_no_table(ddb, monkeypatch):
    _fill(ddb, "G", [f"E#{n:04}" for n in range(50)])
    from moto.dynamodb.models.table import Table

    copied = []
    real = copy.deepcopy

    def spying(value, *args, **kwargs):
        if isinstance(value, Table):
            copied.append(value.name)
        return real(value, *args, **kwargs)

    monkeypatch.setattr(copy, "deepcopy", spying)
    ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": "t", "Item": {"PK": {"S": "G"}, "SK": {"S": "E#new"}}}}])
    with pytest.raises(botocore.exceptions.ClientError):
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": "t", "Item": {"PK": {"S": "G"}, "SK": {"S": "E#0001"}},
                     "ConditionExpression": "attribute_not_exists(PK)"}}])
    assert copied == []


def test_a_cancelled_transaction_leaves_items_and_stream_as_they_were(ddb):
    _fill(ddb, "G", ["A", "B", "E"], V={"N": "1"})
    stream_before = len(_moto_table().stream_shard.items)
    before = ddb.scan(TableName="t")["Items"]
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": "t", "Item": {"PK": {"S": "G"}, "SK": {"S": "A"},
                                                "V": {"N": "2"}}}},
            {"Update": {"TableName": "t", "Key": {"PK": {"S": "G"}, "SK": {"S": "B"}},
                        "UpdateExpression": "SET V = :v",
                        "ExpressionAttributeValues": {":v": {"N": "3"}}}},
            {"Put": {"TableName": "t", "Item": {"PK": {"S": "G"}, "SK": {"S": "C"}}}},
            {"Delete": {"TableName": "t", "Key": {"PK": {"S": "G"}, "SK": {"S": "D"}},
                        "ConditionExpression": "attribute_exists(PK)"}},
            {"ConditionCheck": {"TableName": "t", "Key": {"PK": {"S": "G"}, "SK": {"S": "E"}},
                                "ConditionExpression": "V = :two",
                                "ExpressionAttributeValues": {":two": {"N": "2"}}}},
        ])
    error = caught.value.response
    assert error["Error"]["Code"] == "TransactionCanceledException"
    assert [reason["Code"] for reason in error["CancellationReasons"]] == [
        "None", "None", "None", "ConditionalCheckFailed", "ConditionalCheckFailed"]
    assert ddb.scan(TableName="t")["Items"] == before
    assert len(_moto_table().stream_shard.items) == stream_before


def test_a_transaction_that_succeeds_applies_every_item(ddb):
    _fill(ddb, "G", ["A"], V={"N": "1"})
    ddb.transact_write_items(TransactItems=[
        {"Update": {"TableName": "t", "Key": {"PK": {"S": "G"}, "SK": {"S": "A"}},
                    "UpdateExpression": "ADD V :v", "ConditionExpression": "V = :one",
                    "ExpressionAttributeValues": {":v": {"N": "2"}, ":one": {"N": "1"}}}},
        {"Put": {"TableName": "t", "Item": {"PK": {"S": "G"}, "SK": {"S": "B"}}}}])
    items = {i["SK"]["S"]: i for i in ddb.scan(TableName="t")["Items"]}
    assert items["A"]["V"] == {"N": "3"} and "B" in items


def test_a_transaction_naming_one_item_twice_is_refused_whole(ddb):
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": "t", "Item": {"PK": {"S": "G"}, "SK": {"S": "X"}}}},
            {"Put": {"TableName": "t", "Item": {"PK": {"S": "G"}, "SK": {"S": "X"}}}}])
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    assert ddb.scan(TableName="t")["Items"] == []


def _sks(reply):
    return [item["SK"]["S"] for item in reply["Items"]]


@pytest.mark.parametrize("condition, values, expected", [
    ("PK = :p AND begins_with(SK, :a)", {":a": {"S": "M#"}}, ["M#1", "M#2", "M#3"]),
    ("PK = :p AND SK = :a", {":a": {"S": "M#2"}}, ["M#2"]),
    ("PK = :p AND SK < :a", {":a": {"S": "E#0002"}}, ["E#0000", "E#0001"]),
    ("PK = :p AND SK <= :a", {":a": {"S": "E#0001"}}, ["E#0000", "E#0001"]),
    ("PK = :p AND SK > :a", {":a": {"S": "M#1"}}, ["M#2", "M#3", "Z"]),
    ("PK = :p AND SK >= :a", {":a": {"S": "M#3"}}, ["M#3", "Z"]),
    ("PK = :p AND SK BETWEEN :a AND :b", {":a": {"S": "E#0998"}, ":b": {"S": "M#1"}},
     ["E#0998", "E#0999", "M#1"]),
])
def test_query_answers_as_before_from_the_partition_alone(ddb, condition, values, expected):
    _fill(ddb, "G", [f"E#{n:04}" for n in range(1000)] + ["M#1", "M#2", "M#3", "Z"])
    _fill(ddb, "H", ["M#1", "M#9"])
    reply = ddb.query(TableName="t", KeyConditionExpression=condition,
                      ExpressionAttributeValues={":p": {"S": "G"}, **values})
    assert _sks(reply) == expected
    backwards = ddb.query(TableName="t", KeyConditionExpression=condition, ScanIndexForward=False,
                          ExpressionAttributeValues={":p": {"S": "G"}, **values})
    assert _sks(backwards) == expected[::-1]


def test_query_pages_through_a_partition_as_before(ddb):
    _fill(ddb, "G", [f"E#{n:04}" for n in range(60)])
    seen, start = [], None
    while True:
        kwargs = {"ExclusiveStartKey": start} if start else {}
        reply = ddb.query(TableName="t", KeyConditionExpression="PK = :p", Limit=25,
                          ExpressionAttributeValues={":p": {"S": "G"}}, **kwargs)
        seen += _sks(reply)
        start = reply.get("LastEvaluatedKey")
        if not start:
            break
    assert seen == [f"E#{n:04}" for n in range(60)]


def test_query_compares_only_within_the_key_range(ddb, monkeypatch):
    """Before: every item of the table was sorted (thousands of comparisons) for 3 results."""
    from moto.dynamodb.models.dynamo_type import DynamoType

    _fill(ddb, "G", [f"E#{n:04}" for n in range(1500)] + ["M#1", "M#2", "M#3"])
    _fill(ddb, "H", [f"E#{n:04}" for n in range(500)])
    comparisons = []
    real = DynamoType.__lt__

    def counting(self, other):
        comparisons.append(1)
        return real(self, other)

    monkeypatch.setattr(DynamoType, "__lt__", counting)
    reply = ddb.query(TableName="t", KeyConditionExpression="PK = :p AND begins_with(SK, :m)",
                      ExpressionAttributeValues={":p": {"S": "G"}, ":m": {"S": "M#"}})
    assert _sks(reply) == ["M#1", "M#2", "M#3"]
    assert len(comparisons) < 20


def test_stream_retention_keeps_the_newest_records_and_rising_sequence_numbers(ddb, monkeypatch):
    monkeypatch.setattr(engine, "_retention", 10)
    _fill(ddb, "G", [f"E#{n:04}" for n in range(50)])
    shard = _moto_table().stream_shard
    assert 10 <= len(shard.items) <= 20
    numbers = [int(record.record["dynamodb"]["SequenceNumber"]) for record in shard.items]
    assert numbers == sorted(numbers) and numbers[-1] == shard.starting_sequence_number + len(
        shard.items) - 1


def test_an_index_query_compares_only_within_its_index_partition(ddb, monkeypatch):
    """Before: moto matched the index key of every item of the table (here 2,000) for 20."""
    from moto.dynamodb.models.dynamo_type import DynamoType

    ddb.update_table(TableName="t", AttributeDefinitions=[
        {"AttributeName": "Owner", "AttributeType": "S"},
        {"AttributeName": "At", "AttributeType": "S"}], GlobalSecondaryIndexUpdates=[
        {"Create": {"IndexName": "ByOwner", "Projection": {"ProjectionType": "ALL"},
                    "KeySchema": [{"AttributeName": "Owner", "KeyType": "HASH"},
                                  {"AttributeName": "At", "KeyType": "RANGE"}]}}])
    for owner in range(100):
        _fill(ddb, f"G{owner % 7}", [f"E#{owner:03}#{n:02}" for n in range(20)],
              Owner={"S": f"O{owner}"}, At={"S": "2026"})
    query = dict(TableName="t", IndexName="ByOwner", KeyConditionExpression="Owner = :o",
                 ExpressionAttributeValues={":o": {"S": "O42"}})
    ddb.query(**query)  # the first Query of an index builds its map from the table
    comparisons = []
    real = DynamoType.__ne__

    def counting(self, other):
        comparisons.append(1)
        return real(self, other)

    monkeypatch.setattr(DynamoType, "__ne__", counting)
    reply = ddb.query(**query)
    assert _sks(reply) == [f"E#042#{n:02}" for n in range(20)]
    assert len(comparisons) <= 20
    comparisons.clear()
    with engine.unnarrowed():
        assert ddb.query(**query)["Items"] == reply["Items"]
    assert len(comparisons) >= 2000  # the switch is moto's own walk
