"""Our own JSON export (GET /groups/{groupId}/export?format=json), read back losslessly.

Items keep their split modes and values, payments their payers, settlements their notes,
so export -> import -> export gives the same expenses, settlements and nets."""
from __future__ import annotations

from typing import Any

from app.services.imports.amounts import calendar_date, currency_code
from app.services.imports.formats.text import json_document, require
from app.services.imports.model import EXPENSE, SETTLEMENT, Item, Parsed, Row

FORMAT = "tailspend-json"


def parse(text: str) -> Parsed:
    document = json_document(text)
    require(isinstance(document, dict) and isinstance(document.get("participants"), list),
            1, "Not a TailSpend export: expected an object with participants.")
    group = document.get("group") or {}
    members = {}
    for position, person in enumerate(document["participants"], start=1):
        require(isinstance(person, dict) and person.get("participantId")
                and person.get("displayName"), position,
                "A participant needs a participantId and a displayName.")
        members[person["participantId"]] = person["displayName"]
    currency = currency_code(group.get("currency"), 1) if group.get("currency") else None
    parsed = Parsed(format=FORMAT, members=members, rows=[], name=group.get("name"),
                    currency=currency)
    for position, expense in enumerate(document.get("expenses") or [], start=1):
        parsed.rows.append(_expense(position, expense, parsed, currency))
    for position, settlement in enumerate(document.get("settlements") or [], start=1):
        parsed.rows.append(_settlement(position, settlement, parsed, currency))
    return parsed


def _member(parsed: Parsed, line: int, pid: Any) -> str:
    require(pid in parsed.members, line, f"{pid!r} is not a participant of the export.")
    return pid


def _int(value: Any, line: int, what: str) -> int:
    require(isinstance(value, int) and not isinstance(value, bool), line,
            f"{what} must be an integer of minor units.")
    return value


def _expense(line: int, expense: Any, parsed: Parsed, currency) -> Row:
    require(isinstance(expense, dict), line, "An expense must be an object.")
    items = []
    for item in expense.get("items") or []:
        splits = [(_member(parsed, line, s.get("participantId")), _int(s.get("value", 0), line,
                                                                     "A split value"))
                  for s in item.get("splits") or []]
        items.append(Item(item.get("name") or "Item", _int(item.get("amount"), line,
                                                           "An item amount"),
                          item.get("splitMode") or "EXACT", splits))
    payments = [(_member(parsed, line, p.get("participantId")),
                 _int(p.get("amount"), line, "A payment")) for p in expense.get("payments") or []]
    return Row(line=line, kind=EXPENSE, date=calendar_date(expense.get("date"), line),
               currency=currency_code(expense.get("currency") or currency, line),
               description=expense.get("description") or "Expense",
               category=expense.get("category"), payments=payments, items=items)


def _settlement(line: int, settlement: Any, parsed: Parsed, currency) -> Row:
    require(isinstance(settlement, dict), line, "A settlement must be an object.")
    return Row(line=line, kind=SETTLEMENT,
               date=calendar_date(settlement.get("date") or settlement.get("createdAt"), line),
               currency=currency_code(settlement.get("currency") or currency, line),
               payer=_member(parsed, line, settlement.get("payerId")),
               payee=_member(parsed, line, settlement.get("payeeId")),
               amount=_int(settlement.get("amount"), line, "A settlement amount"),
               note=settlement.get("note"))
