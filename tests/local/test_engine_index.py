"""app.local.engine_index: a Query on an index answers exactly as moto's walk of the whole table.

Random writes (items lacking index keys, updates that move an item between index partitions or
out of the index, deletes, batches, transactions that commit or roll back) on each template table
with a GSI, then random Queries on its GSIs, each asked twice: as the engine answers it (from
the index partition) and as moto does on its own (``engine.unnarrowed()``). The two replies,
errors included, must be equal page after page."""
from __future__ import annotations

import itertools
import signal

import boto3
import botocore.exceptions
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.local import engine, engine_index
from app.local.template_tables import load_table_specs

engine.install()

STAGE = "test"  # tests/conftest.py's aws fixture builds the template's tables for it
SPECS = {short: spec for short, spec in load_table_specs(STAGE).items()
         if spec.get("GlobalSecondaryIndexes")}
HASHES = ("a", "b", "c")
RANGES = ("k1", "k12", "k2", "k3")
_examples = itertools.count()


def _keys(schema: list) -> tuple:
    hash_name = next(k["AttributeName"] for k in schema if k["KeyType"] == "HASH")
    range_name = next((k["AttributeName"] for k in schema if k["KeyType"] == "RANGE"), None)
    return hash_name, range_name


class World:
    """One table's shape, and the values of one example (prefixed: examples share the table)."""

    def __init__(self, spec: dict, prefix: str) -> None:
        self.spec, self.prefix = spec, prefix
        self.name = spec["TableName"]
        self.types = {d["AttributeName"]: d["AttributeType"] for d in spec["AttributeDefinitions"]}
        assert set(self.types.values()) <= {"S", "N"}, "add the other types' values here"
        self.base = _keys(spec["KeySchema"])
        self.indexes = {i["IndexName"]: _keys(i["KeySchema"])
                        for i in spec["GlobalSecondaryIndexes"]}
        self.hash_attrs = {self.base[0]} | {h for h, _ in self.indexes.values()}
        self.movable = sorted(set(self.types) - set(self.base) - {None})

    def value(self, attribute: str, choice: int) -> dict:
        kind = self.types[attribute]
        if kind == "N":
            return {"N": str(choice * 7 % 11)}
        pool = HASHES if attribute in self.hash_attrs else RANGES
        text = pool[choice % len(pool)]
        return {"S": f"{self.prefix}{text}" if attribute in self.hash_attrs else text}

    def key(self, choices: tuple) -> dict:
        hash_name, range_name = self.base
        key = {hash_name: self.value(hash_name, choices[0])}
        if range_name:
            key[range_name] = self.value(range_name, choices[1])
        return key


@st.composite
def _item(draw) -> tuple:
    """(key choices, a choice or None (absent) for each other key attribute, V, Note or None)."""
    return (draw(st.tuples(st.integers(0, 3), st.integers(0, 3))),
            draw(st.lists(st.one_of(st.none(), st.integers(0, 5)), min_size=10, max_size=10)),
            draw(st.integers(0, 9)), draw(st.one_of(st.none(), st.sampled_from(["x", "y"]))))


def _item_json(world: World, drawn: tuple) -> dict:
    choices, others, v, note = drawn
    item = world.key(choices)
    for attribute, choice in zip(world.movable, others[:len(world.movable)], strict=True):
        if choice is not None:
            item[attribute] = world.value(attribute, choice)
    item["V"] = {"N": str(v)}
    if note is not None:
        item["Note"] = {"S": note}
    return item


_key_choice = st.tuples(st.integers(0, 3), st.integers(0, 3))
_op = st.one_of(
    st.tuples(st.just("put"), _item()),
    st.tuples(st.just("delete"), _key_choice),
    # SET (choice) or REMOVE (None) one attribute that an index keys on: moves the item
    # between index partitions, into an index or out of it.
    st.tuples(st.just("update"), _key_choice, st.integers(0, 7),
              st.one_of(st.none(), st.integers(0, 5))),
    st.tuples(st.just("batch"), st.lists(_item(), max_size=5), st.lists(_key_choice, max_size=3)),
    st.tuples(st.just("transact"), st.lists(_item(), min_size=1, max_size=4),
              st.lists(st.tuples(_key_choice, st.integers(0, 7),
                                 st.one_of(st.none(), st.integers(0, 5))), max_size=2),
              st.booleans()),
)


def _update_args(world: World, choices, which: int, choice) -> dict:
    attribute = world.movable[which % len(world.movable)]
    args = {"TableName": world.name, "Key": world.key(choices),
            "ExpressionAttributeNames": {"#a": attribute}}
    if choice is None:
        args["UpdateExpression"] = "REMOVE #a"
    else:
        args["UpdateExpression"] = "SET #a = :v"
        args["ExpressionAttributeValues"] = {":v": world.value(attribute, choice)}
    return args


def _unique(items: list, world: World) -> list:
    seen, kept = set(), []
    for item in items:
        key = repr(sorted((name, item[name]) for name in world.base if name))
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


def _apply(client, world: World, op: tuple) -> None:
    kind = op[0]
    if kind == "put":
        client.put_item(TableName=world.name, Item=_item_json(world, op[1]))
    elif kind == "delete":
        client.delete_item(TableName=world.name, Key=world.key(op[1]))
    elif kind == "update":
        client.update_item(**_update_args(world, *op[1:]))
    elif kind == "batch":
        # One request names each key once, as DynamoDB requires.
        puts = _unique([_item_json(world, drawn) for drawn in op[1]], world)
        taken = [{n: item[n] for n in world.base if n} for item in puts]
        requests = [{"PutRequest": {"Item": item}} for item in puts]
        for key in (world.key(choices) for choices in op[2]):
            if key not in taken:
                taken.append(key)
                requests.append({"DeleteRequest": {"Key": key}})
        if requests:
            client.batch_write_item(RequestItems={world.name: requests})
    else:  # a transaction; when it ends in a failing check, moto rolls every write back
        puts = _unique([_item_json(world, drawn) for drawn in op[1]], world)
        writes = [{"Put": {"TableName": world.name, "Item": item}} for item in puts]
        touched = [{n: item[n] for n in world.base if n} for item in puts]
        for update in op[2]:
            args = _update_args(world, *update)
            if args["Key"] not in touched:
                touched.append(args["Key"])
                writes.append({"Update": args})
        if op[3]:
            writes.append({"ConditionCheck": {
                "TableName": world.name,
                "Key": world.key((0, 0)) | {world.base[0]: {"S": f"{world.prefix}never"}},
                "ConditionExpression": "attribute_exists(V)"}})
        try:
            client.transact_write_items(TransactItems=writes)
        except botocore.exceptions.ClientError as error:
            assert op[3], error


_query = st.fixed_dictionaries({
    "index": st.integers(0, 5),  # the table's GSIs in name order, modulo their number
    "hash": st.integers(0, 3),
    "comparison": st.sampled_from([None, "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"]),
    "values": st.tuples(st.integers(0, 4), st.integers(0, 4)),
    "filter": st.booleans(),
    "shape": st.sampled_from(["all", "projection", "count"]),
    "forward": st.booleans(),
    "limit": st.one_of(st.none(), st.integers(1, 4)),
    "consistent": st.integers(0, 9).map(lambda n: n == 0),  # refused on a GSI, both ways
})


def _query_args(world: World, drawn: dict) -> dict:
    names = sorted(world.indexes)
    index = names[drawn["index"] % len(names)]
    hash_name, range_name = world.indexes[index]
    names = {"#h": hash_name}
    values = {":h": world.value(hash_name, drawn["hash"])}
    condition = "#h = :h"
    comparison = drawn["comparison"] if range_name else None
    if comparison:
        names["#r"] = range_name
        low, high = sorted((world.value(range_name, v) for v in drawn["values"]),
                           key=lambda value: value.get("S") or int(value.get("N", 0)))
        values[":r"] = low
        if comparison == "BETWEEN":
            condition += " AND #r BETWEEN :r AND :r2"
            values[":r2"] = high
        elif comparison == "begins_with":
            condition += " AND begins_with(#r, :r)"
            values[":r"] = {"S": low["S"][:2]} if "S" in low else low
        else:
            condition += f" AND #r {comparison} :r"
    args = {"TableName": world.name, "IndexName": index,
            "KeyConditionExpression": condition, "ScanIndexForward": drawn["forward"]}
    if drawn["filter"]:
        names["#v"] = "V"
        values[":fv"] = {"N": "4"}
        args["FilterExpression"] = "#v >= :fv"
    if drawn["shape"] == "count":
        args["Select"] = "COUNT"
    elif drawn["shape"] == "projection":
        projected = sorted({hash_name, "V", "Note", world.base[0]})
        names.update({f"#p{n}": name for n, name in enumerate(projected)})
        args["ProjectionExpression"] = ", ".join(f"#p{n}" for n in range(len(projected)))
    if drawn["limit"]:
        args["Limit"] = drawn["limit"]
    if drawn["consistent"]:
        args["ConsistentRead"] = True
    args["ExpressionAttributeNames"] = names
    args["ExpressionAttributeValues"] = values
    return args


def _ask(client, args: dict):
    try:
        reply = client.query(**args)
    except botocore.exceptions.ClientError as error:
        return ("error", error.response["Error"]["Code"], error.response["Error"]["Message"])
    reply.pop("ResponseMetadata", None)
    return ("ok", reply)


def _both(client, args: dict):
    narrowed = _ask(client, args)
    with engine.unnarrowed():
        walked = _ask(client, args)
    assert narrowed == walked, args
    return narrowed


def _moto_table(name: str):
    from moto.dynamodb.models import dynamodb_backends

    return dynamodb_backends["123456789012"]["us-east-1"].tables[name]


def _fill_once(client, world: World) -> None:
    """Items in other partitions of every index: what a narrowed Query must leave out."""
    filler = World(world.spec, "filler-")
    if "Item" in client.get_item(TableName=world.name, Key=filler.key((0, 0))):
        return
    items = _unique([_item_json(filler, ((h, r), [r + n for n in range(10)], h, "x"))
                     for h in range(3) for r in range(4)], filler)
    client.batch_write_item(RequestItems={world.name: [
        {"PutRequest": {"Item": item}} for item in items]})


def _clear(client, world: World) -> None:
    """The example's own items (every one has its prefix in the table's partition key)."""
    hash_name, range_name = world.base
    for choice in range(len(HASHES)):
        pages = client.get_paginator("query").paginate(
            TableName=world.name, KeyConditionExpression="#h = :h",
            ExpressionAttributeNames={"#h": hash_name},
            ExpressionAttributeValues={":h": world.value(hash_name, choice)})
        for page in pages:
            for item in page["Items"]:
                client.delete_item(TableName=world.name,
                                   Key={n: item[n] for n in (hash_name, range_name) if n})


@pytest.mark.parametrize("short", sorted(SPECS))
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(writes=st.lists(_op, min_size=1, max_size=14),
       queries=st.lists(_query, min_size=1, max_size=6))
def test_an_index_query_answers_as_moto_walking_the_whole_table(aws, short, writes, queries):
    # The examples share the table: each writes under its own prefix and clears it after.
    world = World(SPECS[short], f"{next(_examples)}-")
    client = boto3.client("dynamodb", region_name="us-east-1")
    _fill_once(client, world)
    try:
        for op in writes:
            _apply(client, world, op)
        for drawn in queries:
            args = _query_args(world, drawn)
            for _page in range(40):
                reply = _both(client, args)
                if reply[0] != "ok" or "LastEvaluatedKey" not in reply[1]:
                    break
                args = {**args, "ExclusiveStartKey": reply[1]["LastEvaluatedKey"]}
            else:
                pytest.fail(f"more than 40 pages: {args}")
        assert engine_index.drift(_moto_table(world.name)) == {}
    finally:
        _clear(client, world)


def _create(client, name: str, attributes=("PK", "SK", "Owner", "At"), **indexes) -> None:
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                   {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"}
                              for n in attributes], **indexes)


_BY_OWNER = [{"IndexName": "ByOwner", "Projection": {"ProjectionType": "ALL"},
              "KeySchema": [{"AttributeName": "Owner", "KeyType": "HASH"},
                            {"AttributeName": "At", "KeyType": "RANGE"}]}]


def _owned(client, table: str, owner: str, index: str = "ByOwner", key: str = "Owner") -> list:
    args = dict(TableName=table, IndexName=index, KeyConditionExpression="#k = :o",
                ExpressionAttributeNames={"#k": key},
                ExpressionAttributeValues={":o": {"S": owner}})
    narrowed = client.query(**args)["Items"]
    with engine.unnarrowed():
        assert client.query(**args)["Items"] == narrowed
    return [(item["PK"]["S"], item["SK"]["S"]) for item in narrowed]


def test_a_table_deleted_and_created_again_starts_with_empty_index_maps(ddb):
    _create(ddb, "i", GlobalSecondaryIndexes=_BY_OWNER)
    ddb.put_item(TableName="i", Item={"PK": {"S": "p"}, "SK": {"S": "s"}, "Owner": {"S": "ada"},
                                      "At": {"S": "1"}})
    assert _owned(ddb, "i", "ada") == [("p", "s")]
    ddb.delete_table(TableName="i")
    _create(ddb, "i", GlobalSecondaryIndexes=_BY_OWNER)
    assert _owned(ddb, "i", "ada") == []
    ddb.put_item(TableName="i", Item={"PK": {"S": "p"}, "SK": {"S": "s"}, "Owner": {"S": "bob"},
                                      "At": {"S": "1"}})
    assert _owned(ddb, "i", "ada") == [] and _owned(ddb, "i", "bob") == [("p", "s")]


def test_a_local_secondary_index_reads_its_partition_as_moto_does(ddb):
    _create(ddb, "l", attributes=("PK", "SK", "At"), LocalSecondaryIndexes=[
        {"IndexName": "ByAt", "Projection": {"ProjectionType": "KEYS_ONLY"},
         "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                       {"AttributeName": "At", "KeyType": "RANGE"}]}])
    for n in range(12):
        item = {"PK": {"S": f"p{n % 3}"}, "SK": {"S": f"s{n}"}}
        if n % 4:
            item["At"] = {"S": f"{n % 5}"}  # the others are not in the sparse index
        ddb.put_item(TableName="l", Item=item)
    ddb.delete_item(TableName="l", Key={"PK": {"S": "p1"}, "SK": {"S": "s1"}})
    assert _owned(ddb, "l", "p1", index="ByAt", key="PK") == [("p1", "s10"), ("p1", "s7")]
    assert engine_index.drift(_moto_table("l")) == {}


def _participants(client, user: str) -> list:
    """UserParticipantsIndex's partition for ``user`` as the endpoint answers it, and as a Scan
    of the whole table says it must be (ordered by the index's sort key, then the table's)."""
    table = "tailspend-dev-groups"
    reply = client.query(TableName=table, IndexName="UserParticipantsIndex",
                         KeyConditionExpression="UserId = :u",
                         ExpressionAttributeValues={":u": {"S": user}})
    scanned = client.scan(TableName=table, FilterExpression="UserId = :u",
                          ExpressionAttributeValues={":u": {"S": user}})["Items"]
    expected = sorted((item["GroupId"]["S"], item["SK"]["S"]) for item in scanned)
    assert [(item["GroupId"]["S"], item["SK"]["S"]) for item in reply["Items"]] == expected
    return expected


def test_after_a_restart_the_index_answers_from_snapshot_and_journal_and_keeps_up(tmp_path):
    from tests.local.serving import Server

    server = Server(tmp_path, command="db")
    try:
        client = server.db_client()
        for group, user in (("g1", "ada"), ("g2", "ada"), ("g3", "bob"), ("g4", "ada")):
            client.put_item(TableName="tailspend-dev-groups", Item={
                "GroupId": {"S": group}, "SK": {"S": "M#1"}, "UserId": {"S": user}})
        assert _participants(client, "ada") == [("g1", "M#1"), ("g2", "M#1"), ("g4", "M#1")]
        client.update_item(TableName="tailspend-dev-groups",
                           Key={"GroupId": {"S": "g2"}, "SK": {"S": "M#1"}},
                           UpdateExpression="SET UserId = :b",
                           ExpressionAttributeValues={":b": {"S": "bob"}})
        client.update_item(TableName="tailspend-dev-groups",
                           Key={"GroupId": {"S": "g1"}, "SK": {"S": "M#1"}},
                           UpdateExpression="REMOVE UserId")
        client.delete_item(TableName="tailspend-dev-groups",
                           Key={"GroupId": {"S": "g3"}, "SK": {"S": "M#1"}})
    finally:
        server.process.send_signal(signal.SIGKILL)  # the journal alone carries the writes
        server.process.wait(timeout=30)
    server = Server(tmp_path, command="db")
    try:
        client = server.db_client()
        assert _participants(client, "ada") == [("g4", "M#1")]
        assert _participants(client, "bob") == [("g2", "M#1")]
        client.update_item(TableName="tailspend-dev-groups",
                           Key={"GroupId": {"S": "g4"}, "SK": {"S": "M#1"}},
                           UpdateExpression="SET UserId = :b",
                           ExpressionAttributeValues={":b": {"S": "bob"}})
        assert _participants(client, "ada") == []
        assert _participants(client, "bob") == [("g2", "M#1"), ("g4", "M#1")]
    finally:
        server.stop()
