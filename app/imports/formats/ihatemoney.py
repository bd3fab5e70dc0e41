"""ihatemoney's bill exports (``/<project>/export/bills.json`` and ``bills.csv``).

Each bill: ``date, what, bill_type (Expense | Reimbursement; absent before 7.0), amount
(a decimal), currency ("XXX" when the project has none), payer_name, payer_weight, owers``
(a list in JSON, ``"a, b"`` in CSV). Members are named by the bills; a member's weight is
the payer_weight of a bill they paid (1 for someone who never paid), exactly as ihatemoney's
own importer reads it (utils.get_members). Balances: the payer +amount, each ower
-amount x weight / total weight (models.Project.full_balance), reimbursements alike."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Dict, List, Optional

from app.imports.amounts import calendar_date, currency_code, unescape
from app.imports.formats.text import (check_list, check_members, check_rows, is_blank,
                                      json_document, records, require)
from app.imports.formats.weighted import Bills, weight_of
from app.imports.model import ImportFileError, Parsed

JSON_FORMAT, CSV_FORMAT = "ihatemoney-json", "ihatemoney-csv"
NO_CURRENCY = "XXX"
REQUIRED = ("date", "what", "amount", "payer_name", "payer_weight", "owers")


def parse_json(text: str) -> Parsed:
    bills = json_document(text)
    require(isinstance(bills, list), 1, "Not an ihatemoney bills export: expected a list.")
    check_list(bills)
    records_ = []
    for position, bill in enumerate(bills, start=1):
        require(isinstance(bill, dict), position, "A bill must be an object.")
        owers = bill.get("owers")
        require(isinstance(owers, list) and all(isinstance(o, str) for o in owers), position,
                "owers must be a list of names.")
        records_.append((position, {**bill, "owers": [unescape(o).strip() for o in owers]}))
    return _bills(JSON_FORMAT, records_)


def parse_csv(text: str) -> Parsed:
    header: Optional[List[str]] = None
    rows = []
    for line, cells in records(text):
        if is_blank(cells):
            continue
        if header is None:
            header = [cell.strip() for cell in cells]
            missing = [name for name in REQUIRED if name not in header]
            require(not missing, line, f"The header lacks {', '.join(missing)} (ihatemoney's "
                                       f"bills.csv).")
            continue
        require(len(cells) == len(header), line, f"The row has {len(cells)} cells; the header "
                                                 f"has {len(header)}.")
        check_rows(len(rows) + 1, line)
        bill = dict(zip(header, cells, strict=True))
        bill["owers"] = [unescape(o).strip() for o in bill["owers"].split(",") if o.strip()]
        rows.append((line, bill))
    if header is None:
        raise ImportFileError(1, "The file is empty.")
    return _bills(CSV_FORMAT, rows)


def _bills(format_name: str, bills: List[tuple]) -> Parsed:
    members: Dict[str, str] = {}
    weights: Dict[str, Decimal] = {}
    for line, bill in bills:  # ihatemoney's get_members: payers (with weights), then owers
        payer = unescape(bill.get("payer_name")).strip()
        require(bool(payer), line, "payer_name is empty.")
        if payer not in members:
            check_members(len(members) + 1, line)
            members[payer] = payer
            weights[payer] = weight_of(bill.get("payer_weight"), line)
    for line, bill in bills:
        for ower in bill["owers"]:
            if ower not in members:
                check_members(len(members) + 1, line)
                members[ower] = ower
    parsed = Parsed(format=format_name, members=members, rows=[])
    split = Bills(parsed, weights)
    for line, bill in bills:
        _bill(split, line, bill)
    split.finish()
    used = [row.currency for row in parsed.rows if row.currency]
    parsed.currency = max(set(used), key=used.count) if used else None
    return parsed


def _bill(split: Bills, line: int, bill: Dict[str, Any]) -> None:
    code = str(bill.get("currency") or NO_CURRENCY).strip().upper()
    currency = None if code == NO_CURRENCY else currency_code(code, line)
    bill_type = str(bill.get("bill_type") or "Expense").strip()
    require(bill_type in ("Expense", "Reimbursement"), line,
            f"bill_type {bill_type!r} is neither Expense nor Reimbursement.")
    split.add(line, date=calendar_date(bill.get("date"), line),
              what=unescape(bill.get("what")).strip(), amount_value=bill.get("amount"),
              currency=currency or "", payer=unescape(bill.get("payer_name")).strip(),
              owers=bill["owers"], reimbursement=bill_type == "Reimbursement")
