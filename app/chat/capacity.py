"""Consumed capacity of chat's DynamoDB calls, logged per message (never keys or content).

While a :func:`metered` block runs, every DynamoDB call it makes through the clients chat
uses asks for ``ReturnConsumedCapacity=TOTAL`` and adds the units DynamoDB reports to the
block's meter; calls made outside a block are left exactly as they were. The hooks are
botocore's documented event system (``provide-client-params`` / ``after-call``) on each
client, registered once per client by a unique id."""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Iterator, Optional

import models
from app.logs import logger
from models import pynamodb_adapter
from models.groups import Expense, Group, GroupItem, Participant, UserMember
from models.notifications import NotificationItem
from models.users import (ChatBalance, ChatDraft, ChatMessage, ChatSession, ChatWork,
                          LedgerEntry, Profile, UserItem)

# Every model chat's calls go through, bases first: a subclass shares its base's connection
# once the base has one, so these are a handful of clients, each hooked once.
MODELS = (UserItem, GroupItem, NotificationItem, Profile, ChatBalance, ChatDraft, ChatMessage,
          ChatSession, ChatWork, LedgerEntry, Group, Participant, UserMember, Expense)

_meter: contextvars.ContextVar = contextvars.ContextVar("chat_capacity", default=None)
READS = {"GetItem", "Query", "BatchGetItem", "TransactGetItems", "Scan"}
_HOOK_ID = "tailspend-chat-capacity"


@dataclass
class Meter:
    """Calls and capacity units of one metered block."""

    calls: int = 0
    read_units: float = 0.0
    write_units: float = 0.0
    operations: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"calls": self.calls, "readUnits": round(self.read_units, 2),
                "writeUnits": round(self.write_units, 2), "operations": dict(self.operations)}


def _ask(params, **_kwargs) -> None:
    if _meter.get() is not None:
        params["ReturnConsumedCapacity"] = "TOTAL"


def _units(consumed) -> float:
    items = consumed if isinstance(consumed, list) else [consumed] if consumed else []
    return sum(float(item.get("CapacityUnits") or 0) for item in items)


def _count(http_response, parsed, model, **_kwargs) -> None:
    meter: Optional[Meter] = _meter.get()
    if meter is None:
        return
    name = model.name
    meter.calls += 1
    meter.operations[name] = meter.operations.get(name, 0) + 1
    units = _units((parsed or {}).get("ConsumedCapacity"))
    if name in READS:
        meter.read_units += units
    else:
        meter.write_units += units


def _hook(client) -> None:
    events = client.meta.events
    events.register("provide-client-params.dynamodb", _ask, unique_id=_HOOK_ID + "-ask")
    events.register("after-call.dynamodb", _count, unique_id=_HOOK_ID + "-count")


def _clients() -> list:
    """The botocore clients chat's calls go through: the transaction connection and the
    connections of the models chat reads and writes."""
    connections = [models.connection()] + [pynamodb_adapter.table_connection(m).connection
                                           for m in MODELS]
    return list({id(c.client): c.client for c in connections}.values())


@contextlib.contextmanager
def metered(phase: str) -> Iterator[Meter]:
    """Meter the block's DynamoDB calls and log ``chat.capacity`` with the totals."""
    for client in _clients():
        _hook(client)
    meter = Meter()
    token = _meter.set(meter)
    try:
        yield meter
    finally:
        _meter.reset(token)
        logger.info("chat.capacity", extra={"phase": phase, **meter.as_dict()})
