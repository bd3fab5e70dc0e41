"""Patches that make moto's DynamoDB cost flat in data size (local mode and tests).

moto 5.2 deep-copies every table a TransactWriteItems names, to roll back on failure: at 5,000
expenses one transaction took 7.5 s. Its base-table Query sorts every item of the table, then
keeps the partition asked for; a Query on an index walks them all too. Each grows with all the
data ever written. Here:

- ``transact_write_items`` keeps an undo log (a copy of each touched item as it was, and the
  length of each touched stream) instead of copying tables; rollback puts those items back.
  The checks, their order, the cancellation reasons and the exceptions are moto's own code
  path (the body below is moto's with only the backup/rollback replaced).
- base-table ``Query`` hands moto only the items of the partition asked for, already bounded
  by the key condition (bisect on the sort key's ``cast_value``, the very value moto compares),
  and moto's own loop then sorts, pages, filters and projects them as before.
- a ``Query`` on a GSI or LSI hands moto only the items of the index partition asked for, from
  a map of each index's partitions kept on every write (``app/local/engine_index.py``).
  ``unnarrowed()`` turns both narrowings off for a while: moto's own walk of the table, the
  reference the tests and bench/local_index_bench.py compare against.
- ``install(stream_retention=N)`` caps each table's in-memory stream at its newest N records:
  moto keeps every stream record forever, which grows a long-running server's memory without
  bound (local mode reads no streams; sequence numbers stay monotonic).

- ``app/local/engine_wire.py`` (installed from here) cuts moto's cost per call: the response
  serializer's work on attribute values, and repeated condition parses.

``install()`` is idempotent and process-wide. This module, engine_wire.py and engine_index.py
are the only ones that patch moto; tests/local/test_engine_shape.py fails when a moto upgrade
changes a function patched (or copied) here, or writes items somewhere new."""
from __future__ import annotations

import bisect
import contextlib
import copy
import threading
from typing import Any, Optional

from app.local import engine_index, engine_wire

_installed = False
_retention: Optional[int] = None
_override = threading.local()
_narrowing = True


def install(*, stream_retention: Optional[int] = None) -> None:
    global _installed, _retention
    if stream_retention is not None:
        _retention = stream_retention
    if _installed:
        return
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import StreamShard, Table

    _originals.update(query=Table.query, all_items=Table.all_items, add=StreamShard.add)
    DynamoDBBackend.transact_write_items = _transact_write_items
    Table.query = _query
    Table.all_items = _all_items
    StreamShard.add = _stream_add
    engine_wire.install()
    engine_index.install()
    _installed = True


@contextlib.contextmanager
def unnarrowed():
    """Every Query walks the whole table as moto's own does, for the block (process-wide, so the
    embedded endpoint's request threads see it too). The index maps are still kept meanwhile."""
    global _narrowing
    before, _narrowing = _narrowing, False
    try:
        yield
    finally:
        _narrowing = before


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
    if not _narrowing or filter_kwargs:
        return _originals["query"](*args, **more)
    if index_name:
        items = engine_index.candidates(self, index_name, hash_key_conditions)
    elif hash_key is not None:
        items = _candidates(self, hash_key, range_comparison, range_objs)
    else:
        items = None
    if items is None:
        return _originals["query"](*args, **more)
    _override.table = self
    _override.items = items
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
            engine_index.reindex(table, hash_value, range_value)
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
