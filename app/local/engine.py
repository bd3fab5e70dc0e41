"""Patches that make moto's DynamoDB cost flat in data size (local mode and tests).

moto 5.2 deep-copies every table a TransactWriteItems names, to roll back on failure: at 5,000
expenses one transaction took 7.5 s. Its base-table Query sorts every item of the table, then
keeps the partition asked for. Both grow with all the data ever written. Here:

- ``transact_write_items`` keeps an undo log (a copy of each touched item as it was, and the
  length of each touched stream) instead of copying tables; rollback puts those items back.
  The checks, their order, the cancellation reasons and the exceptions are moto's own code
  path (the body below is moto's with only the backup/rollback replaced).
- base-table ``Query`` hands moto only the items of the partition asked for, already bounded
  by the key condition (bisect on the sort key's ``cast_value``, the very value moto compares),
  and moto's own loop then sorts, pages, filters and projects them as before.
- ``install(stream_retention=N)`` caps each table's in-memory stream at its newest N records:
  moto keeps every stream record forever, which grows a long-running server's memory without
  bound (local mode reads no streams; sequence numbers stay monotonic).

Two more cut moto's per-call cost, which every request pays several times over (measured over
the test suite: 13% of all CPU in moto's response serializer, 7% parsing conditions):

- an item's attribute values are written out directly instead of through moto's shape-driven
  serializer, which asks its attribute picker for each of an AttributeValue's ten members by
  several spellings. The output is the serializer's own (tests/local/test_engine.py compares
  both over every attribute type); anything else still goes the serializer's way.
- a condition expression's parse is kept (bounded LRU) by its text, names and values: moto
  parses each condition at least twice per request, and the app sends the same few shapes.

``install()`` is idempotent and process-wide. This is the one module that patches moto;
tests/local/test_engine_shape.py fails when a moto upgrade changes a function patched here."""
from __future__ import annotations

import bisect
import collections
import copy
import threading
from typing import Any, Optional

_installed = False
_retention: Optional[int] = None
_override = threading.local()


def install(*, stream_retention: Optional[int] = None) -> None:
    global _installed, _retention
    if stream_retention is not None:
        _retention = stream_retention
    if _installed:
        return
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import StreamShard, Table

    from moto.core.serialize import BaseJSONSerializer
    from moto.dynamodb.comparisons import ConditionExpressionParser

    _originals.update(query=Table.query, all_items=Table.all_items, add=StreamShard.add,
                      structure=BaseJSONSerializer._serialize_type_structure,
                      parse=ConditionExpressionParser.parse)
    DynamoDBBackend.transact_write_items = _transact_write_items
    Table.query = _query
    Table.all_items = _all_items
    StreamShard.add = _stream_add
    BaseJSONSerializer._serialize_type_structure = _serialize_type_structure
    ConditionExpressionParser.parse = _parse_condition
    _installed = True


_originals: dict = {}


# --- Query -----------------------------------------------------------------------------------

def _all_items(self) -> list:
    items = getattr(_override, "items", None)
    if items is not None and getattr(_override, "table", None) is self:
        return items
    return _originals["all_items"](self)


def _query(self, hash_key, range_comparison, range_objs, limit, exclusive_start_key,
           scan_index_forward, projection_expressions, index_name=None, consistent_read=False,
           filter_expression=None, hash_key_conditions=None, range_key_conditions=None,
           **filter_kwargs):
    args = (self, hash_key, range_comparison, range_objs, limit, exclusive_start_key,
            scan_index_forward, projection_expressions, index_name, consistent_read,
            filter_expression)
    more = dict(hash_key_conditions=hash_key_conditions,
                range_key_conditions=range_key_conditions, **filter_kwargs)
    if index_name or hash_key is None or filter_kwargs:
        return _originals["query"](*args, **more)
    _override.table = self
    _override.items = _candidates(self, hash_key, range_comparison, range_objs)
    try:
        return _originals["query"](*args, **more)
    finally:
        _override.table = _override.items = None


def _candidates(table, hash_key, comparison: Optional[str], range_objs: list) -> list:
    """The partition's items, sorted by sort key, bounded to those the condition can match."""
    if hash_key not in table.items:  # `in` does not create an entry in the defaultdict
        return []
    partition = table.items[hash_key]
    if not table.range_key_attr:
        return [partition]
    pairs = sorted(((item.range_key.cast_value, item) for item in partition.values()),
                   key=lambda pair: pair[0])
    keys = [key for key, _ in pairs]
    items = [item for _, item in pairs]
    if not comparison or not range_objs:
        return items
    try:
        values = [obj.cast_value for obj in range_objs]
        low, high = _bounds(keys, comparison, values)
    except TypeError:  # a comparison across types: let moto decide item by item
        return items
    return items[low:high]


def _bounds(keys: list, comparison: str, values: list) -> tuple[int, int]:
    first, end = 0, len(keys)
    value = values[0]
    if comparison in ("EQ", "="):
        return bisect.bisect_left(keys, value), bisect.bisect_right(keys, value)
    if comparison in ("LT", "<"):
        return first, bisect.bisect_left(keys, value)
    if comparison in ("LE", "<="):
        return first, bisect.bisect_right(keys, value)
    if comparison in ("GT", ">"):
        return bisect.bisect_right(keys, value), end
    if comparison in ("GE", ">="):
        return bisect.bisect_left(keys, value), end
    if comparison == "BETWEEN":
        return bisect.bisect_left(keys, value), bisect.bisect_right(keys, values[1])
    if comparison == "BEGINS_WITH":
        low = high = bisect.bisect_left(keys, value)
        while high < end and keys[high].startswith(value):
            high += 1
        return low, high
    return first, end


# --- response serialization -----------------------------------------------------------------

# AttributeValue's members in the order of its botocore shape (the serializer's order).
_ATTRIBUTE_MEMBERS = ("S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL")
_MEMBER_SET = frozenset(_ATTRIBUTE_MEMBERS)


def _serialize_type_structure(self, serialized, value, shape, key):
    if (key and shape.name == "AttributeValue" and type(value) is dict
            and value.keys() <= _MEMBER_SET
            and not getattr(self._value_picker, "response_transformers", None)):
        try:
            serialized[self.get_serialized_name(shape, key)] = _attribute_value(self, value)
            return
        except _Unusual:
            pass
    _originals["structure"](self, serialized, value, shape, key)


def _text(value):
    # BaseJSONSerializer._serialize_type_string's rule, for S, N and the members of SS/NS.
    return str(value) if value not in (None, {}, []) else value


def _attribute_value(serializer, value: dict) -> dict:
    """What moto's serializer makes of one AttributeValue: members in shape order, None ones
    left out; strings through the string rule, blobs base64, maps and lists recursively (a
    None map value is dropped, a None list element kept), NULL/BOOL as they are."""
    out = {}
    for member in _ATTRIBUTE_MEMBERS:
        if member not in value:
            continue
        member_value = value[member]
        if member_value is None:
            continue
        if member in ("S", "N"):
            out[member] = _text(member_value)
        elif member == "B":
            out[member] = serializer._base64(member_value)
        elif member in ("SS", "NS"):
            out[member] = [_text(element) for element in member_value]
        elif member == "BS":
            out[member] = [serializer._base64(element) for element in member_value]
        elif member == "M":
            if "" in member_value:
                raise _Unusual  # moto writes an empty name's members into the map itself
            out[member] = {name: _attribute_value_or_shape(serializer, element)
                           for name, element in member_value.items() if element is not None}
        elif member == "L":
            out[member] = [None if element is None else
                           _attribute_value_or_shape(serializer, element)
                           for element in member_value]
        else:
            out[member] = member_value
    return out


def _attribute_value_or_shape(serializer, value):
    if type(value) is dict and value.keys() <= _MEMBER_SET:
        return _attribute_value(serializer, value)
    raise _Unusual  # something moto's picker would treat otherwise: let the serializer do it


class _Unusual(Exception):
    pass


# --- condition expressions -------------------------------------------------------------------

_PARSED_MAX = 4096
_parsed: "collections.OrderedDict[tuple, tuple]" = collections.OrderedDict()
_parsed_lock = threading.Lock()


def _parse_condition(self):
    """moto's parse, kept by (expression, names, values): the parse depends on nothing else,
    and its result (an operator tree evaluated against items) is never changed by its users.
    Expressions moto refuses raise as before and are not kept; an expression that fails only
    its caller's later checks (unused names) is the same tree, and the caller still sees the
    names and values it used."""
    try:
        key = (self.condition_expression, repr(self.expression_attribute_names),
               repr(self.expression_attribute_values))
    except Exception:  # noqa: BLE001 — an unprintable value: parse as moto would
        return _originals["parse"](self)
    with _parsed_lock:
        hit = _parsed.get(key)
        if hit is not None:
            _parsed.move_to_end(key)
    if hit is None:
        # Parsed from copies: the kept tree must not share the request's dicts.
        fresh = type(self)(self.condition_expression,
                           copy.deepcopy(self.expression_attribute_names),
                           copy.deepcopy(self.expression_attribute_values))
        op = _originals["parse"](fresh)
        hit = (op, tuple(fresh.expr_attr_names_found), tuple(fresh.expr_attr_values_found))
        with _parsed_lock:
            _parsed[key] = hit
            if len(_parsed) > _PARSED_MAX:
                _parsed.popitem(last=False)
    op, names, values = hit
    self.expr_attr_names_found.extend(names)
    self.expr_attr_values_found.extend(values)
    return op


# --- streams ---------------------------------------------------------------------------------

def _stream_add(self, old, new) -> None:
    _originals["add"](self, old, new)
    if _retention is not None and len(self.items) > 2 * _retention:
        # Trim in bulk (amortised) and advance the start so sequence numbers keep rising.
        drop = len(self.items) - _retention
        del self.items[:drop]
        self.starting_sequence_number += drop


# --- TransactWriteItems ----------------------------------------------------------------------

class _UndoLog:
    """Each touched item as it was before the transaction, and each touched stream's length."""

    def __init__(self, backend) -> None:
        self.backend = backend
        self.items: list[tuple] = []
        self.streams: dict[int, tuple] = {}

    def remember(self, table_name: str, key: dict) -> None:
        table = self.backend.tables.get(table_name)
        if table is None:
            return
        from moto.dynamodb.models.dynamo_type import DynamoType

        try:
            hash_value = DynamoType(key[table.hash_key_attr])
            range_value = (DynamoType(key[table.range_key_attr]) if table.range_key_attr
                           else None)
        except (KeyError, TypeError, AttributeError):
            return  # moto rejects this key before writing anything
        existed = hash_value in table.items and (
            range_value is None or range_value in table.items[hash_value])
        before = table.items[hash_value][range_value] if range_value is not None and existed \
            else table.items[hash_value] if existed else None
        self.items.append((table, hash_value, range_value, copy.deepcopy(before)))
        shard = table.stream_shard
        if shard is not None and id(shard) not in self.streams:
            self.streams[id(shard)] = (shard, shard.items, len(shard.items),
                                       shard.starting_sequence_number)

    def rollback(self) -> None:
        for table, hash_value, range_value, before in reversed(self.items):
            if range_value is None:
                if before is None:
                    table.items.pop(hash_value, None)
                else:
                    table.items[hash_value] = before
            elif before is None:
                if hash_value in table.items:
                    table.items[hash_value].pop(range_value, None)
            else:
                table.items[hash_value][range_value] = before
        for shard, records, length, start in self.streams.values():
            del records[length:]
            shard.items, shard.starting_sequence_number = records, start


def _transact_write_items(self, transact_items: list[dict[str, Any]]) -> None:
    from moto.dynamodb.comparisons import get_filter_expression
    from moto.dynamodb.exceptions import (ConditionalCheckFailed, MockValidationException,
                                          MultipleTransactionsException,
                                          TooManyTransactionsException,
                                          TransactionCanceledException,
                                          TransactWriteSingleOpException)

    if len(transact_items) > 100:
        raise TooManyTransactionsException()
    undo = _UndoLog(self)
    target_items: set = set()

    def check_unicity(table_name: str, key: dict[str, Any]) -> None:
        item = (str(table_name), str(dict(sorted(key.items()))))
        if item in target_items:
            raise MultipleTransactionsException()
        target_items.add(item)

    errors: list = []
    for item in transact_items:
        original_item = None
        if len(list(item.keys())) > 1:
            raise TransactWriteSingleOpException
        try:
            op_type, op = next(iter(item.items()))
            if op_type not in {"ConditionCheck", "Put", "Delete", "Update"}:
                raise ValueError("Unsupported transaction operation")
            table_name = op["TableName"]
            condition_expression = op.get("ConditionExpression")
            names = op.get("ExpressionAttributeNames")
            values = op.get("ExpressionAttributeValues")
            if op_type == "Put":
                attrs = op["Item"]
                table = self.get_table(table_name)
                key = {table.hash_key_attr: attrs[table.hash_key_attr]}
                if table.range_key_attr is not None:
                    key[table.range_key_attr] = attrs[table.range_key_attr]
            else:
                key = op["Key"]
            check_unicity(table_name, key)
            current = self.get_item(table_name, key)
            if condition_expression is not None:
                condition_op = get_filter_expression(condition_expression, names, values)
                if not condition_op.expr(current):
                    if op.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD" and current:
                        original_item = current.to_json()["Attributes"]
                    raise ConditionalCheckFailed(item=original_item)
            if op_type != "ConditionCheck":
                undo.remember(table_name, key)
            if op_type == "Put":
                self.put_item(table_name, op["Item"], condition_expression=condition_expression,
                              expression_attribute_names=names,
                              expression_attribute_values=values)
            elif op_type == "Delete":
                self.delete_item(table_name, key, condition_expression=condition_expression,
                                 expression_attribute_names=names,
                                 expression_attribute_values=values)
            elif op_type == "Update":
                self.update_item(table_name, key, update_expression=op["UpdateExpression"],
                                 condition_expression=condition_expression,
                                 expression_attribute_names=names,
                                 expression_attribute_values=values)
            errors.append((None, None, None))
        except (MultipleTransactionsException, MockValidationException):
            undo.rollback()
            raise
        except ConditionalCheckFailed as e:
            errors.append(("ConditionalCheckFailed", str(e.message), original_item))
        except Exception as e:  # noqa: BLE001 — moto's own catch-all, kept as is
            errors.append((type(e).__name__, str(e), original_item))
    if any(code is not None for code, _, _ in errors):
        undo.rollback()
        raise TransactionCanceledException(errors)
