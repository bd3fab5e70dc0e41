"""Index Queries read only their index partition (part of app/local/engine.py's patches).

moto answers a Query on a GSI or LSI by walking every item of the table and keeping those whose
index key matches, so each one cost O(table). Here every table keeps, per index, a map from the
index partition-key value(s) to the primary keys of the items in that partition, and engine.py
hands moto's own Query loop only that partition's items (through the same ``all_items`` hook
as the base-table narrowing). moto still decides everything: the key match, the sort-key
condition, the order, paging, the filter, the projection, COUNT, the refusal of a consistent
read on a GSI. The map only has to hold every item moto would keep: one it holds in excess is
dropped by moto's own checks.

Kept exact where moto changes an item, each time by re-reading the item now at that key:
``Table.put_item`` and ``Table.delete_item`` (PutItem, DeleteItem, BatchWriteItem, PartiQL,
an import from S3, the create half of UpdateItem), ``DynamoDBBackend.update_item`` (changes in
place, an index key removed: even when it raises half-way), and engine.py's transaction
rollback. A map is built from the table on the first Query of its index (a table restored from
a backup, an index added by UpdateTable, a key schema changed), and lives on moto's Table
object, so a deleted and recreated table starts afresh. moto never expires items by TTL;
local mode's start-up (snapshot, then the journal's calls) goes through the same calls.
tests/local/test_engine_shape.py pins the moto functions that write items.

Sparse indexes: an item lacking one of the index's partition-key attributes is in no
partition. Keys are (type, cast_value) per attribute, DynamoType's own equality; a value that
cannot be hashed (a set, a list, a map) equals no hashable one, and a Query naming such a value
is left to moto's walk."""
from __future__ import annotations

import threading
from typing import Any, Optional

_ATTRIBUTE = "_tailspend_index_partitions"
_lock = threading.Lock()
_installed = False
_originals: dict = {}


def install() -> None:
    global _installed
    if _installed:
        return
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import Table

    _originals.update(put_item=Table.put_item, delete_item=Table.delete_item,
                      update_item=DynamoDBBackend.update_item)
    Table.put_item = _put_item
    Table.delete_item = _delete_item
    DynamoDBBackend.update_item = _update_item
    _installed = True


class _Partitions:
    """One index: partition key -> primary keys, and each indexed primary key's partition."""

    def __init__(self, hash_attrs: tuple) -> None:
        self.hash_attrs = hash_attrs
        self.members: dict[tuple, set] = {}
        self.where: dict[tuple, tuple] = {}

    def place(self, primary: tuple, item) -> None:
        new = _partition_of(item, self.hash_attrs) if item is not None else None
        old = self.where.get(primary)
        if old == new:
            return
        if old is not None:
            members = self.members[old]
            members.discard(primary)
            if not members:
                del self.members[old]
            del self.where[primary]
        if new is not None:
            self.members.setdefault(new, set()).add(primary)
            self.where[primary] = new


def _partition_of(item, hash_attrs: tuple) -> Optional[tuple]:
    values = []
    for name in hash_attrs:
        value = item.attrs.get(name)
        if value is None:
            return None  # sparse: not in the index
        values.append(value)
    return _key(values)


def _key(values) -> Optional[tuple]:
    try:
        key = tuple((value.type, value.cast_value) for value in values)
        hash(key)
    except TypeError:
        return None
    return key


def _hash_attrs(index) -> tuple:
    return tuple(part["AttributeName"] for part in index.schema if part["KeyType"] == "HASH")


def _item_at(table, primary: tuple):
    hash_value, range_value = primary
    found = table.items.get(hash_value)  # .get: no empty entry in the defaultdict
    if table.range_key_attr and found is not None:
        return found.get(range_value)
    return found


def _every_item(table) -> list:
    items = []
    for entry in list(table.items.values()):
        items.extend(list(entry.values()) if table.range_key_attr else [entry])
    return items


def _built(table, hash_attrs: tuple) -> _Partitions:
    partitions = _Partitions(hash_attrs)
    for item in _every_item(table):
        partitions.place((item.hash_key, item.range_key), item)
    return partitions


def candidates(table, index_name: str, hash_key_conditions) -> Optional[list]:
    """The items of the index partition a Query names, in moto's ``all_items`` order; None when
    the Query is one to leave to moto's walk (an unknown index, its refusals, odd values)."""
    index = next((i for i in table.all_indexes() if i.name == index_name), None)
    if index is None:
        return None
    hash_attrs = _hash_attrs(index)
    conditions = dict(hash_key_conditions or [])
    if not hash_attrs or set(conditions) != set(hash_attrs):
        return None
    key = _key(conditions[name] for name in hash_attrs)
    if key is None:
        return None
    with _lock:
        indexes = vars(table).setdefault(_ATTRIBUTE, {})
        partitions = indexes.get(index_name)
        if partitions is None or partitions.hash_attrs != hash_attrs:
            partitions = indexes[index_name] = _built(table, hash_attrs)
        primaries = tuple(partitions.members.get(key, ()))
    items = [item for item in (_item_at(table, primary) for primary in primaries)
             if item is not None]
    # moto's all_items order, so its stable sort meets the very same sequence as before.
    items.sort(key=lambda x: (x.hash_key, x.range_key) if x.range_key else x.hash_key)
    return items


def drift(table) -> dict:
    """Each kept map that differs from one rebuilt from the table now: {index name: (kept,
    rebuilt)}, each {partition key: primary keys}. Empty when every write was seen (the tests'
    check that the maps are exact, not merely wide enough)."""
    with _lock:
        differ = {}
        for name, kept in vars(table).get(_ATTRIBUTE, {}).items():
            rebuilt = _built(table, kept.hash_attrs)
            if kept.members != rebuilt.members:
                differ[name] = (kept.members, rebuilt.members)
        return differ


def reindex(table, hash_value, range_value) -> None:
    """Whatever is now at this primary key (or nothing) takes its place in every kept index."""
    indexes = vars(table).get(_ATTRIBUTE)
    if not indexes:
        return
    primary = (hash_value, range_value if table.range_key_attr else None)
    with _lock:
        item = _item_at(table, primary)
        for partitions in indexes.values():
            partitions.place(primary, item)


def _reindex_key(table, key: Any) -> None:
    from moto.dynamodb.models.dynamo_type import DynamoType

    try:
        hash_value = DynamoType(key[table.hash_key_attr])
        range_value = DynamoType(key[table.range_key_attr]) if table.range_key_attr else None
    except (KeyError, TypeError, AttributeError):
        return  # a key moto refused before changing anything
    reindex(table, hash_value, range_value)


# --- the write paths -------------------------------------------------------------------------

def _put_item(self, item_attrs, *args, **kwargs):
    item = _originals["put_item"](self, item_attrs, *args, **kwargs)
    reindex(self, item.hash_key, item.range_key)
    return item


def _delete_item(self, hash_key, range_key):
    try:
        return _originals["delete_item"](self, hash_key, range_key)
    finally:
        reindex(self, hash_key, range_key)


def _update_item(self, table_name, key, *args, **kwargs):
    try:
        return _originals["update_item"](self, table_name, key, *args, **kwargs)
    finally:
        table = self.tables.get(table_name)
        if table is not None:
            _reindex_key(table, key)
