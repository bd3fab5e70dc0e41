"""Cospend's project CSV (CospendService::getJsonProject): blank-line separated sections.

``name,weight,active,color`` (members), then ``what,amount,date,timestamp,payer_name,
payer_weight,payer_active,owers,repeat,repeatfreq,repeatallactive,repeatuntil,categoryid,
paymentmode,paymentmodeid,comment,deleted`` (bills; owers ``"a,b"``), then optional
``categoryname,categoryid,icon,color``, ``paymentmodename,paymentmodeid,icon,color`` and
``currencyname,exchange_rate`` sections (the main currency has rate 1). A section's header
is told by its column names, as Cospend's own importer does. Bills in the trash
(deleted = 1) and the ``deleteMeIfYouWant`` placeholder bills are not imported; category
-11 is Cospend's Reimbursement. Amounts are in the project's main currency."""
from __future__ import annotations

from decimal import Decimal
from typing import Dict, List, Optional

from app.imports.amounts import calendar_date, currency_code, timestamp_date, unescape
from app.imports.formats.spliit import SYMBOLS
from app.imports.formats.text import check_members, check_rows, is_blank, records, require
from app.imports.formats.weighted import Bills, weight_of
from app.imports.model import ImportFileError, Parsed

FORMAT = "cospend-csv"
REIMBURSEMENT_CATEGORY = "-11"
PLACEHOLDER = "deleteMeIfYouWant"
SECTIONS = {
    "bills": ("what", "amount", "payer_name", "payer_weight", "owers"),
    "members": ("name", "weight", "active", "color"),
    "paymentmodes": ("paymentmodename", "paymentmodeid", "icon", "color"),
    "categories": ("categoryname", "categoryid", "icon", "color"),
    "currencies": ("currencyname", "exchange_rate"),
}


def _section(line: int, header: List[str]) -> str:
    for name, needed in SECTIONS.items():
        if all(column in header for column in needed) and \
                (name != "bills" or "date" in header or "timestamp" in header):
            return name
    raise ImportFileError(line, "Malformed Cospend CSV: a section header Cospend does not "
                                "write.")


def parse(text: str) -> Parsed:
    members: Dict[str, str] = {}
    weights: Dict[str, Decimal] = {}
    bills: List[tuple] = []
    main_currency: Optional[str] = None
    section, header, previous_blank = None, [], True
    for line, cells in records(text):
        if is_blank(cells):
            previous_blank = True
            continue
        if previous_blank:
            previous_blank = False
            header = [cell.strip() for cell in cells]
            section = _section(line, header)
            continue
        row = dict(zip(header, cells, strict=False))
        if section == "members":
            name = unescape(row.get("name")).strip()
            require(bool(name), line, "A member without a name.")
            if name not in members:
                check_members(len(members) + 1, line)
            members[name] = name
            weights[name] = weight_of(row.get("weight"), line)
        elif section == "bills":
            check_rows(len(bills) + 1, line)
            bills.append((line, row))
        elif section == "currencies" and str(row.get("exchange_rate")).strip() in ("1", "1.0"):
            main_currency = row.get("currencyname", "").strip()
    currency = _currency(main_currency)
    parsed = Parsed(format=FORMAT, members=members, rows=[], currency=currency)
    split = Bills(parsed, weights)
    for line, row in bills:
        _bill(split, line, row, weights, currency or "")
    split.finish()
    return parsed


def _currency(name: Optional[str]) -> Optional[str]:
    if not name:
        return None
    for candidate in (name, SYMBOLS.get(name)):
        try:
            return currency_code(candidate, None)
        except ImportFileError:
            continue
    return None


def _bill(split: Bills, line: int, row: Dict[str, str], weights: Dict[str, Decimal],
          currency: str) -> None:
    parsed = split.parsed
    what = unescape(row.get("what")).strip()
    if what == PLACEHOLDER:
        return
    payer = unescape(row.get("payer_name")).strip()
    require(bool(payer), line, "payer_name is empty.")
    if payer not in parsed.members:
        check_members(len(parsed.members) + 1, line)
        parsed.members[payer] = payer
        weights.setdefault(payer, weight_of(row.get("payer_weight"), line))
    owers = [unescape(o).strip() for o in (row.get("owers") or "").split(",") if o.strip()]
    require(bool(owers), line, "A bill without owers.")
    for ower in owers:
        if ower not in parsed.members:
            check_members(len(parsed.members) + 1, line)
            parsed.members[ower] = ower
    if str(row.get("deleted") or "0").strip() not in ("", "0"):
        parsed.skip(line, "A bill in Cospend's trash: skipped.")
        return
    timestamp = (row.get("timestamp") or "").strip()
    date = timestamp_date(timestamp, line) if timestamp.isdigit() else \
        calendar_date(row.get("date"), line)
    if (row.get("repeat") or "n").strip() not in ("n", ""):
        parsed.warn(line, "A repeating bill: imported once (recurrence is not imported).")
    split.add(line, date=date, what=what, amount_value=row.get("amount"), currency=currency,
              payer=payer, owers=owers,
              reimbursement=(row.get("categoryid") or "").strip() == REIMBURSEMENT_CATEGORY)
