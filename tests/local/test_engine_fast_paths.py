"""app.local.engine_wire's two per-call cuts give moto's own answers.

The AttributeValue writer must produce, byte for byte, what moto's shape-driven serializer
makes of the same result; the condition parse kept by text, names and values must evaluate and
validate as a fresh parse would."""
from __future__ import annotations

import contextlib
import json
import os

import botocore.exceptions
import pytest
from hypothesis import given, settings, strategies as st

from app.local import engine, engine_wire
from tests.support import audit

engine.install()

_text = st.text(max_size=8)
_number = st.integers(-10**6, 10**6).map(str)
_blob = st.binary(max_size=8)
_scalar = st.one_of(
    st.builds(lambda v: {"S": v}, _text), st.builds(lambda v: {"N": v}, _number),
    st.builds(lambda v: {"B": v}, _blob), st.builds(lambda v: {"BOOL": v}, st.booleans()),
    st.just({"NULL": True}),
    st.builds(lambda v: {"SS": v}, st.lists(_text, min_size=1, max_size=3, unique=True)),
    st.builds(lambda v: {"NS": v}, st.lists(_number, min_size=1, max_size=3, unique=True)),
    st.builds(lambda v: {"BS": v}, st.lists(_blob, min_size=1, max_size=3, unique=True)))
attribute_value = st.recursive(_scalar, lambda inner: st.one_of(
    st.builds(lambda v: {"M": v}, st.dictionaries(_text, st.one_of(inner, st.none()),
                                                  max_size=3)),
    st.builds(lambda v: {"L": v}, st.lists(st.one_of(inner, st.none()), max_size=3))),
    max_leaves=8)
item = st.dictionaries(st.text(min_size=1, max_size=6), attribute_value, max_size=5)


def _serialize(operation: str, result: dict, *, fast: bool) -> str:
    from moto.core.responses import ActionContext, ActionResult, BaseResponse
    from moto.core.serialize import get_serializer_class
    from moto.core.utils import get_service_model

    model = get_service_model("dynamodb")
    context = ActionContext(model, model.operation_model(operation),
                            get_serializer_class("dynamodb", "json"), BaseResponse("dynamodb"))
    with contextlib.nullcontext() if fast else engine_wire.serializer_only():
        return ActionResult(result).execute_result(context)[2]


@settings(max_examples=150, deadline=None)
@given(items=st.lists(item, max_size=3), key=item)
def test_items_are_written_out_exactly_as_motos_serializer_writes_them(items, key):
    results = {
        "GetItem": {"Item": items[0] if items else key},
        "Query": {"Items": items, "Count": len(items), "ScannedCount": len(items),
                  "LastEvaluatedKey": key},
        "BatchGetItem": {"Responses": {"t": items}, "UnprocessedKeys": {"t": {"Keys": [key]}}},
        "TransactGetItems": {"Responses": [{"Item": one} for one in items]},
        "UpdateItem": {"Attributes": key},
    }
    for operation, result in results.items():
        assert _serialize(operation, result, fast=True) == _serialize(operation, result,
                                                                      fast=False), operation


def test_the_fast_writer_is_the_one_installed():
    from moto.core.serialize import BaseJSONSerializer

    assert BaseJSONSerializer._serialize_type_structure is engine_wire._serialize_type_structure


def test_every_attribute_type_comes_back_through_boto3(ddb):
    stored = {"PK": {"S": "a"}, "SK": {"S": "a"}, "s": {"S": ""}, "n": {"N": "-1.5"},
              "b": {"B": b"\x00\xff"},
              "ss": {"SS": ["x", "y"]}, "ns": {"NS": ["1", "2"]}, "bs": {"BS": [b"\x01", b"\x02"]},
              "m": {"M": {"k": {"L": [{"NULL": True}, {"BOOL": False}, {"B": b"z"}]}}}}
    ddb.put_item(TableName="t", Item=stored)
    got = ddb.get_item(TableName="t", Key={"PK": {"S": "a"}, "SK": {"S": "a"}},
                       ConsistentRead=True)["Item"]
    assert got == stored


COUNTER = {"PK": {"S": "c"}, "SK": {"S": "c"}}


def _put_if_below(ddb, limit: int) -> bool:
    try:
        ddb.update_item(TableName="t", Key=COUNTER, UpdateExpression="ADD #n :one",
                        ConditionExpression="attribute_not_exists(#n) OR #n < :limit",
                        ExpressionAttributeNames={"#n": "Count"},
                        ExpressionAttributeValues={":one": {"N": "1"},
                                                   ":limit": {"N": str(limit)}})
        return True
    except botocore.exceptions.ClientError as error:
        assert error.response["Error"]["Code"] == "ConditionalCheckFailedException"
        return False


def test_a_kept_parse_evaluates_each_request_with_its_own_values(ddb):
    assert [_put_if_below(ddb, 2) for _ in range(4)] == [True, True, False, False]
    assert _put_if_below(ddb, 3) and not _put_if_below(ddb, 3)
    assert ddb.get_item(TableName="t", Key=COUNTER)["Item"]["Count"] == {"N": "3"}


def test_a_kept_parse_still_refuses_a_name_the_request_does_not_use(ddb):
    for _ in range(2):  # the second parse comes from the cache
        with pytest.raises(botocore.exceptions.ClientError, match="unused"):
            ddb.put_item(TableName="t", Item={"PK": {"S": "d"}, "SK": {"S": "d"}},
                         ConditionExpression="attribute_not_exists(#k)",
                         ExpressionAttributeNames={"#k": "PK", "#spare": "X"})


def test_a_kept_parse_does_not_share_the_requests_dicts():
    from moto.dynamodb.comparisons import ConditionExpressionParser

    values = {":v": {"S": "first"}}
    op = ConditionExpressionParser("#a = :v", {"#a": "A"}, values).parse()
    values[":v"]["S"] = "changed"  # a caller reusing its dict after the call
    again = ConditionExpressionParser("#a = :v", {"#a": "A"}, {":v": {"S": "first"}}).parse()
    assert again is op and op.rhs.value == "first"


def test_a_kept_update_parse_is_parsed_once_and_each_update_applies_to_its_own_item(ddb):
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser

    from app.local import engine_wire

    text = "SET #t = :t ADD #n :one"
    before = engine_wire._parsed_update.cache_info()
    for key, label in (("u1", "first"), ("u2", "second"), ("u1", "again")):
        ddb.update_item(TableName="t", Key={"PK": {"S": key}, "SK": {"S": key}},
                        UpdateExpression=text, ExpressionAttributeNames={"#t": "T", "#n": "N"},
                        ExpressionAttributeValues={":t": {"S": label}, ":one": {"N": "1"}})
    after = engine_wire._parsed_update.cache_info()
    assert after.misses - before.misses <= 1 and after.hits - before.hits >= 5  # 2 a call
    got = {key: ddb.get_item(TableName="t", Key={"PK": {"S": key}, "SK": {"S": key}})["Item"]
           for key in ("u1", "u2")}
    assert (got["u1"]["T"], got["u1"]["N"]) == ({"S": "again"}, {"N": "2"})
    assert (got["u2"]["T"], got["u2"]["N"]) == ({"S": "second"}, {"N": "1"})
    assert UpdateExpressionParser.make(text) is UpdateExpressionParser.make(text)
    with pytest.raises(botocore.exceptions.ClientError, match="Syntax|syntax|Invalid"):
        ddb.update_item(TableName="t", Key={"PK": {"S": "u3"}, "SK": {"S": "u3"}},
                        UpdateExpression="SET = broken")


def test_a_handlers_method_names_are_listed_once_and_are_motos_list():
    from moto.core import responses
    from moto.dynamodb.responses import DynamoHandler

    listed = responses.method_names_from_class(DynamoHandler)
    assert listed == engine_wire._originals["method_names"](DynamoHandler)
    assert "transact_write_items" in listed and "query" in listed
    hits = responses.method_names_from_class.cache_info().hits
    assert responses.method_names_from_class(DynamoHandler) is listed  # not listed again
    assert responses.method_names_from_class.cache_info().hits == hits + 1


def _list_tables_through(app) -> list:
    """ListTables through a moto server app; the directories it listed on the way."""
    from werkzeug.test import Client

    with audit.watching("os.listdir") as listed:
        reply = Client(app).post("/", data=b"{}", headers={
            "X-Amz-Target": "DynamoDB_20120810.ListTables",
            "Content-Type": "application/x-amz-json-1.0",
            "Authorization": "AWS4-HMAC-SHA256 Credential=local/20261206/us-east-1/dynamodb/"
                             "aws4_request, SignedHeaders=host, Signature=0"})
    assert reply.status_code == 200 and "TableNames" in json.loads(reply.data)
    return [str(args[0]) for args in listed]


def test_the_embedded_endpoints_dispatcher_answers_without_listing_motos_packages():
    import moto
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

    ours = engine_wire.dispatcher()
    _list_tables_through(ours)  # the first request builds moto's DynamoDB app
    assert _list_tables_through(ours) == []
    package = os.path.dirname(moto.__file__)
    # moto's own server app lists its package on each request: what the test would catch.
    motos = DomainDispatcherApplication(create_backend_app)
    _list_tables_through(motos)
    assert package in _list_tables_through(motos)
