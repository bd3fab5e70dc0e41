"""DynamoDB on-demand metering of every call a block makes, through botocore's event hooks.

The meter registers ``before-call.dynamodb`` / ``after-call.dynamodb`` handlers (botocore's
public event system, ``client.meta.events.register``) on the clients PynamoDB uses, and bills
each call by DynamoDB's on-demand rules, reading the items it touches through a separate,
unhooked client:

- a write request unit (WRU) per started KB of the item; PutItem, UpdateItem and DeleteItem on
  the larger of the item's before and after images; a failed conditional write still pays;
- TransactWriteItems: every item twice, and a ConditionCheck is billed as a transactional
  write of the item it checks (2 WRU per started KB);
- every global secondary index the write touches: one write of the projected image per index
  (two when the index key moves: a delete and a put), per started KB;
- reads (RRU): a strongly consistent read 1 per started 4 KB, an eventual one half;
  GetItem / BatchGetItem per item (an absent item still pays the minimum); a Query on the
  bytes it evaluated before any filter, summed then rounded; TransactGetItems twice.
"""
from __future__ import annotations

import collections
import contextlib
import copy
import math
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional

WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}


# --- sizes ------------------------------------------------------------------------------------

def value_size(value: dict) -> int:
    """An attribute value's size as DynamoDB counts it."""
    (kind, inner), = value.items()
    if kind in ("S", "B"):
        return len(inner.encode() if isinstance(inner, str) else inner)
    if kind == "N":
        digits = inner.lstrip("-").replace(".", "").lstrip("0") or "0"
        return math.ceil(len(digits) / 2) + 1
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return 3 + sum(len(k.encode()) + value_size(v) for k, v in inner.items())
    if kind == "L":
        return 3 + sum(1 + value_size(v) for v in inner)
    if kind == "NS":
        return sum(value_size({"N": x}) for x in inner)
    return sum(len(x.encode() if isinstance(x, str) else x) for x in inner)  # SS / BS


def item_size(item: Optional[dict]) -> int:
    return sum(len(name.encode()) + value_size(value) for name, value in (item or {}).items())


def write_units(size: int) -> int:
    return max(1, math.ceil(size / 1024))


def read_units(size: int, consistent: bool) -> float:
    units = max(1, math.ceil(size / 4096))
    return units if consistent else units / 2


# --- the bill of one call ---------------------------------------------------------------------

@dataclass
class Bill:
    """Units of the calls made inside one metered block."""

    calls: collections.Counter = field(default_factory=collections.Counter)
    wru: float = 0.0
    rru: float = 0.0
    check_wru: float = 0.0   # of wru: ConditionChecks
    gsi_wru: float = 0.0     # of wru: index writes
    pushes: float = 0.0      # push deliveries (the notification worker's)
    # (call, row kind, bytes, WRU) of every item written: the row kind is its sort key up to
    # the first '#' (BALANCE, EXPENSE, ...), or the key itself; the bench's --items prints it
    items: list = field(default_factory=list)
    # Set by bench/cost_bench.py around a request: its serving thread's CPU and the bytes the
    # app logged (measured beside the priced model)
    cpu_seconds: float = 0.0
    log_bytes: float = 0.0
    log_lines: float = 0.0

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    def add(self, other: "Bill") -> None:
        self.calls.update(other.calls)
        self.wru += other.wru
        self.rru += other.rru
        self.check_wru += other.check_wru
        self.gsi_wru += other.gsi_wru
        self.items += other.items
        self.cpu_seconds += other.cpu_seconds
        self.log_bytes += other.log_bytes
        self.log_lines += other.log_lines

    def calls_text(self) -> str:
        return ", ".join(f"{name} {count:g}" for name, count in sorted(self.calls.items()))


class _Tables:
    """Key schema and index projections of each table, described once."""

    def __init__(self, client) -> None:
        self._client = client
        self._known: Dict[str, dict] = {}

    def describe(self, name: str) -> dict:
        if name not in self._known:
            table = self._client.describe_table(TableName=name)["Table"]
            keys = [k["AttributeName"] for k in table["KeySchema"]]
            indexes = []
            for index in table.get("GlobalSecondaryIndexes", []):
                index_keys = [k["AttributeName"] for k in index["KeySchema"]]
                projection = index["Projection"]
                indexes.append((index["IndexName"], index_keys, projection["ProjectionType"],
                                projection.get("NonKeyAttributes", [])))
            self._known[name] = {"keys": keys, "indexes": indexes}
        return self._known[name]


def _projected(item: Optional[dict], index: tuple, table_keys: List[str]) -> Optional[dict]:
    """The item as the index stores it, or None when the item is not in the index."""
    _, index_keys, kind, extra = index
    if not item or any(k not in item for k in index_keys):
        return None
    if kind == "ALL":
        return dict(item)
    names = set(index_keys) | set(table_keys) | (set(extra) if kind == "INCLUDE" else set())
    return {k: v for k, v in item.items() if k in names}


def _row_kind(key: dict, item: Optional[dict]) -> str:
    """A written item's kind for the item table: its EntityType, else its sort key (else its
    hash key) up to the first '#', the kind's prefix (ids after it)."""
    entity = (item or {}).get("EntityType", {}).get("S")
    if entity:
        return entity
    values = [next(iter(v.values())) for v in key.values()]
    text = str(values[-1])
    return text.split("#")[0] or text


class Meter:
    """Bills every DynamoDB call of the hooked clients while :meth:`block` is open."""

    def __init__(self, reader) -> None:
        self._reader = reader  # an unhooked client on the same endpoint
        self._tables = _Tables(reader)
        self._hooked: set = set()
        self._bill: Optional[Bill] = None

    # hooks ------------------------------------------------------------------------------------

    def hook(self, client) -> None:
        """Register on one botocore client (once): ``before-parameter-build`` sees the call's
        parameters as the caller passed them, ``after-call`` its parsed reply; both share the
        call's ``context`` dict."""
        if id(client) in self._hooked:
            return
        self._hooked.add(id(client))
        client.meta.events.register("before-parameter-build.dynamodb", self._before)
        client.meta.events.register("after-call.dynamodb", self._after)

    def hook_models(self) -> None:
        """The PynamoDB client of every model class (each row kind's class has its own
        connection): the app's only DynamoDB clients."""
        import models
        from models import pynamodb_adapter

        def walk(model):
            yield model
            for sub in model.__subclasses__():
                yield from walk(sub)

        for base in models.registered_tables().values():
            for model in walk(base):
                self.hook(pynamodb_adapter.table_connection(model).connection.client)
        self.hook(models.connection().client)  # transactions spanning tables

    @contextlib.contextmanager
    def block(self) -> Iterator[Bill]:
        outer, self._bill = self._bill, Bill()
        try:
            yield self._bill
        finally:
            inner, self._bill = self._bill, outer
            if outer is not None:
                outer.add(inner)

    def _before(self, model, params, context, **_):
        """The call's own parameters (before serialization) and the items it will write."""
        if self._bill is None:
            return
        name = model.name
        self._bill.calls[name] += 1
        before = [(t, k, self._get(t, k)) for t, k, _ in self._write_targets(name, params)]
        context["cost_meter"] = (name, copy.deepcopy(params), before)

    def _after(self, model, parsed, context, **_):
        if self._bill is None or "cost_meter" not in context:
            return
        name, params, before = context.pop("cost_meter")
        if name in WRITES:
            self._bill_writes(name, params, before)
        else:
            self._bill_reads(name, params, parsed)

    # reading what a call touches ---------------------------------------------------------------

    def _get(self, table: str, key: dict) -> Optional[dict]:
        return self._reader.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")

    def _key_of(self, table: str, item: dict) -> dict:
        return {k: item[k] for k in self._tables.describe(table)["keys"]}

    def _write_targets(self, name: str, params: dict) -> List[tuple]:
        """(table, key, kind) of each item a write call touches."""
        if name == "PutItem":
            return [(params["TableName"], self._key_of(params["TableName"], params["Item"]), "Put")]
        if name in ("UpdateItem", "DeleteItem"):
            return [(params["TableName"], params["Key"], name[:-4])]
        targets = []
        if name == "TransactWriteItems":
            for entry in params["TransactItems"]:
                (kind, body), = entry.items()
                key = body.get("Key") or self._key_of(body["TableName"], body["Item"])
                targets.append((body["TableName"], key, kind))
        elif name == "BatchWriteItem":
            for table, requests in params["RequestItems"].items():
                for request in requests:
                    if "PutRequest" in request:
                        item = request["PutRequest"]["Item"]
                        targets.append((table, self._key_of(table, item), "Put"))
                    else:
                        targets.append((table, request["DeleteRequest"]["Key"], "Delete"))
        return targets

    # billing ----------------------------------------------------------------------------------

    def _bill_writes(self, name: str, params: dict, before: List[tuple]) -> None:
        kinds = [kind for _, _, kind in self._write_targets(name, params)]
        factor = 2 if name == "TransactWriteItems" else 1
        for (table, key, old), kind in zip(before, kinds, strict=True):
            new = old if kind == "ConditionCheck" else self._get(table, key)
            size = max(item_size(old), item_size(new))
            units = factor * write_units(size)
            self._bill.wru += units
            self._bill.items.append((name, kind, _row_kind(key, new or old), size, units))
            if kind == "ConditionCheck":
                self._bill.check_wru += units
                continue
            self._bill_indexes(table, old, new)

    def _bill_indexes(self, table: str, old: Optional[dict], new: Optional[dict]) -> None:
        described = self._tables.describe(table)
        for index in described["indexes"]:
            was, now = (_projected(old, index, described["keys"]),
                        _projected(new, index, described["keys"]))
            if was == now:
                continue
            moved = was is not None and now is not None and any(
                was[k] != now[k] for k in index[1])
            writes = 2 if moved else 1
            units = writes * write_units(max(item_size(was), item_size(now)))
            self._bill.wru += units
            self._bill.gsi_wru += units

    def _bill_reads(self, name: str, params: dict, parsed: dict) -> None:
        consistent = bool(params.get("ConsistentRead"))
        if name == "GetItem":
            self._bill.rru += read_units(item_size(parsed.get("Item")), consistent)
        elif name == "BatchGetItem":
            for table, request in params["RequestItems"].items():
                strong = bool(request.get("ConsistentRead"))
                for key in request["Keys"]:  # billed on the whole item, whatever it projects
                    self._bill.rru += read_units(item_size(self._get(table, key)), strong)
        elif name == "TransactGetItems":
            for entry in params["TransactItems"]:
                body = entry["Get"]
                self._bill.rru += 2 * read_units(item_size(self._get(body["TableName"],
                                                                     body["Key"])), True)
        elif name in ("Query", "Scan"):
            self._bill.rru += read_units(self._evaluated_bytes(name, params, parsed), consistent)

    def _evaluated_bytes(self, name: str, params: dict, parsed: dict) -> int:
        """The bytes the call read before its filter and projection: the same page again."""
        again = {k: v for k, v in params.items()
                 if k not in ("FilterExpression", "ProjectionExpression", "Select",
                              "ReturnConsumedCapacity")}
        if "ExpressionAttributeNames" in again:
            used = " ".join(str(again.get(k, "")) for k in ("KeyConditionExpression",))
            again["ExpressionAttributeNames"] = {
                k: v for k, v in again["ExpressionAttributeNames"].items() if k in used}
            if not again["ExpressionAttributeNames"]:
                del again["ExpressionAttributeNames"]
        if "ExpressionAttributeValues" in again:
            used = str(again.get("KeyConditionExpression", ""))
            again["ExpressionAttributeValues"] = {
                k: v for k, v in again["ExpressionAttributeValues"].items() if k in used}
            if not again["ExpressionAttributeValues"]:
                del again["ExpressionAttributeValues"]
        reply = getattr(self._reader, "query" if name == "Query" else "scan")(**again)
        items = reply.get("Items", [])
        scanned = parsed.get("ScannedCount")
        if scanned is not None:
            items = items[:scanned]
        return sum(item_size(item) for item in items)
