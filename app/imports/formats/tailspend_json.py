"""Our own JSON export (GET /groups/{groupId}/export?format=json), read back losslessly.

Items keep their split modes and values, payments their payers, settlements their notes,
converted rows their rate and group amount, and every expense's comments and every recurring
template come along (tailspend_threads.py), so export -> import -> export gives the same
roster, expenses, settlements, comments, templates and nets. The group's defaultSplit comes
along too, and an expense written as a REST body that names nobody (an amount, no items,
split mode or splits) is shared by it (app.imports.parse.shared_by_default). Every value is
type-checked: a file that is not our export's shape is a 400 naming the record, never a
crash."""
from __future__ import annotations

from typing import Any

from app.limits import MAX_HOUSEHOLD
from app.imports.amounts import calendar_date, currency_code
from app.imports.formats.text import (CellBudget, check_list, check_members, json_document,
                                      require, text_field)
from app.imports.formats import tailspend_threads
from app.imports.model import (EXPENSE, SETTLEMENT, ImportFileError, Item, Parsed,
                               RecordedRate, Row)
from app.errors import Invalid
from app.ledger import default_split

FORMAT = "tailspend-json"


def parse(text: str) -> Parsed:
    document = json_document(text)
    require(isinstance(document, dict) and isinstance(document.get("participants"), list),
            1, "Not a TailSpend export: expected an object with participants.")
    group = document.get("group") or {}
    require(isinstance(group, dict), 1, "group must be an object.")
    check_members(len(document["participants"]), 1)
    members, roles, households = {}, {}, {}
    for position, person in enumerate(document["participants"], start=1):
        require(isinstance(person, dict) and isinstance(person.get("participantId"), str)
                and person.get("displayName"), position,
                "A participant needs a participantId and a displayName.")
        members[person["participantId"]] = text_field(person["displayName"], position,
                                                      "displayName")
        roles[person["participantId"]] = _guest_role(person.get("role"), position)
        household = text_field(person.get("household"), position, "household").strip()
        require(len(household) <= MAX_HOUSEHOLD, position,
                f"A household is at most {MAX_HOUSEHOLD} characters.")
        if household:
            households[person["participantId"]] = household
    currency = currency_code(group.get("currency"), 1) if group.get("currency") else None
    parsed = Parsed(format=FORMAT, members=members, rows=[], roles=roles, households=households,
                    name=text_field(group.get("name"), 1, "The group's name") or None,
                    currency=currency, default_split=_default_split(group, members))
    expenses = _objects(document.get("expenses"), 1, "expenses")
    settlements = _objects(document.get("settlements"), 1, "settlements")
    comments = _objects(document.get("comments"), 1, "comments")
    templates = _objects(document.get("recurring"), 1, "recurring")
    check_list(expenses + settlements + comments + templates)
    budget = CellBudget()
    expense_rows = {}
    for position, expense in enumerate(expenses, start=1):
        budget.spend(_entries(expense), position)
        if isinstance(expense.get("expenseId"), str):
            expense_rows[expense["expenseId"]] = len(parsed.rows)
        parsed.rows.append(_expense(position, expense, parsed, currency))
        _recorded(position, expense, parsed.rows[-1], currency)
    for position, settlement in enumerate(settlements, start=1):
        parsed.rows.append(_settlement(position, settlement, parsed, currency))
        _recorded(position, settlement, parsed.rows[-1], currency)
    for position, comment in enumerate(comments, start=1):
        parsed.comments.append(tailspend_threads.comment(position, comment, parsed,
                                                         expense_rows))
    for position, template in enumerate(templates, start=1):
        budget.spend(_entries(template), position)
        body = _expense(position, {**template, "date": template.get("startDate")}, parsed,
                        currency)
        parsed.templates.append(tailspend_threads.template(position, template, body))
    return parsed


def _guest_role(role: Any, line: int) -> str:
    """The role the participant's guest holds: a VIEWER stays one; an OWNER (or an export
    without roles) comes back a MEMBER, since a guest cannot own the group."""
    require(role in (None, "OWNER", "MEMBER", "VIEWER"), line,
            "A participant's role must be OWNER, MEMBER or VIEWER.")
    return "VIEWER" if role == "VIEWER" else "MEMBER"


def _entries(expense: dict) -> int:
    """Member entries of an expense: its payments and every item's splits."""
    items = expense.get("items") if isinstance(expense.get("items"), list) else []
    payments = expense.get("payments") if isinstance(expense.get("payments"), list) else []
    return len(payments) + sum(len(item.get("splits") or []) for item in items
                               if isinstance(item, dict) and isinstance(item.get("splits"), list))


def _objects(value: Any, line: int, what: str) -> list:
    value = value or []
    require(isinstance(value, list) and all(isinstance(v, dict) for v in value), line,
            f"{what} must be a list of objects.")
    return value


def _member(parsed: Parsed, line: int, pid: Any) -> str:
    require(isinstance(pid, str) and pid in parsed.members, line,
            f"{str(pid)[:40]!r} is not a participant of the export.")
    return pid


def _int(value: Any, line: int, what: str) -> int:
    require(isinstance(value, int) and not isinstance(value, bool), line,
            f"{what} must be an integer of minor units.")
    return value


def _default_split(group: dict, members: dict):
    """The group's defaultSplit as (mode, [(member key, value)]), checked as PATCH checks
    one (a 400 on the file's first line), or None."""
    default = group.get("defaultSplit")
    if default is None:
        return None
    require(isinstance(default, dict), 1, "defaultSplit must be an object.")
    entries = [(s.get("participantId"), s.get("value"))
               for s in _objects(default.get("splits"), 1, "defaultSplit.splits")]
    try:
        stored = default_split.stored(default.get("splitMode"), entries, members)
    except Invalid as error:
        raise ImportFileError(1, error.message) from None
    return stored.SplitMode, [(s.ParticipantId, None if s.Value is None else int(s.Value))
                              for s in stored.Splits]


def _items(line: int, expense: dict, parsed: Parsed) -> list:
    """The expense's items as exported, or its one item when it was written as the REST
    shorthand (amount, splitMode, splits); none when it names nobody (amount alone)."""
    if "items" not in expense and ("splitMode" in expense or "splits" in expense):
        extras = sum(_int(e.get("amount"), line, "An extra's amount")
                     for e in _objects(expense.get("extras") or [], line, "extras"))
        expense = {"items": [{"name": expense.get("description"),
                              "amount": _int(expense.get("amount"), line, "amount") - extras,
                              "splitMode": expense.get("splitMode"),
                              "splits": expense.get("splits")}]}
    items = []
    for item in _objects(expense.get("items"), line, "items"):
        splits = [(_member(parsed, line, s.get("participantId")),
                   _int(s.get("value", 0), line, "A split value"))
                  for s in _objects(item.get("splits"), line, "splits")]
        items.append(Item(text_field(item.get("name"), line, "An item name") or "Item",
                          _int(item.get("amount"), line, "An item amount"),
                          text_field(item.get("splitMode"), line, "splitMode") or "EXACT",
                          splits))
    return items


def _expense(line: int, expense: dict, parsed: Parsed, currency) -> Row:
    items = _items(line, expense, parsed)
    unshared = None if items else _int(expense.get("amount"), line, "amount")
    payments = [(_member(parsed, line, p.get("participantId")),
                 _int(p.get("amount"), line, "A payment"))
                for p in _objects(expense.get("payments"), line, "payments")]
    return Row(line=line, kind=EXPENSE, date=calendar_date(expense.get("date"), line),
               currency=currency_code(expense.get("currency") or currency, line),
               description=text_field(expense.get("description"), line, "description")
               or "Expense",
               category=text_field(expense.get("category"), line, "category") or None,
               notes=text_field(expense.get("notes"), line, "notes") or None,
               payments=payments, items=items, unshared_amount=unshared,
               income=_income(expense.get("kind"), line),
               extras=[(text_field(e.get("name"), line, "An extra's name") or "Extra",
                        _int(e.get("amount"), line, "An extra's amount"))
                       for e in _objects(expense.get("extras") or [], line, "extras")])


def _income(kind: Any, line: int) -> bool:
    """An exported expense's kind (absent before kinds: an EXPENSE)."""
    require(kind in (None, "EXPENSE", "INCOME"), line, "kind must be EXPENSE or INCOME.")
    return kind == "INCOME"


def _settlement(line: int, settlement: dict, parsed: Parsed, currency) -> Row:
    return Row(line=line, kind=SETTLEMENT,
               date=calendar_date(settlement.get("date") or settlement.get("createdAt"), line),
               currency=currency_code(settlement.get("currency") or currency, line),
               payer=_member(parsed, line, settlement.get("payerId")),
               payee=_member(parsed, line, settlement.get("payeeId")),
               amount=_int(settlement.get("amount"), line, "A settlement amount"),
               note=text_field(settlement.get("note"), line, "note") or None)


def _recorded(line: int, record: dict, row: Row, currency) -> None:
    """A converted row's rate and group amount as exported, so it converts back exactly."""
    if currency is None or row.currency == currency or record.get("groupAmount") is None:
        return
    rate = record.get("exchangeRate")
    row.recorded_rate = RecordedRate(currency, _int(record.get("groupAmount"), line,
                                                    "groupAmount"),
                                     text_field(rate, line, "exchangeRate") or None)
