"""A file of any supported format -> a checked :class:`Parsed`, or the first bad line.

The API runs this before it creates anything (an unreadable file is a 400 naming the line),
and the worker runs it again on the staged text: the same code, the same answer."""
from __future__ import annotations

from typing import Callable, Dict, Optional

from app import names
from app.ledger.expense_input import TEXT_MAX
from app.errors import Invalid
from app.money.splits import MAX_AMOUNT
from app.limits import IMPORT_FORMATS, IMPORT_MAX_BYTES, MAX_GROUP_PARTICIPANTS
from app.imports.formats import cospend_csv, ihatemoney, spliit, splitwise_csv, tailspend_json
from app.imports.formats.text import MAX_ROWS
from app.imports.model import EXPENSE, ImportFileError, Item, Parsed, Row
from app.ledger import expense_input

MAX_BYTES = IMPORT_MAX_BYTES
PARSERS: Dict[str, Callable[[str], Parsed]] = {
    "splitwise-csv": splitwise_csv.parse,
    "spliit-json": spliit.parse_json,
    "spliit-csv": spliit.parse_csv,
    "ihatemoney-json": ihatemoney.parse_json,
    "ihatemoney-csv": ihatemoney.parse_csv,
    "cospend-csv": cospend_csv.parse,
    "tailspend-json": tailspend_json.parse,
}
FORMATS = IMPORT_FORMATS


class FileTooLarge(ImportFileError):
    """The file is past MAX_BYTES; ``line`` is the line on which it crosses the limit."""


def check_size(content: str) -> None:
    data = content.encode("utf-8", "surrogatepass")
    if len(data) > MAX_BYTES:
        raise FileTooLarge(data[:MAX_BYTES].count(b"\n") + 1,
                           f"The file is {len(data)} bytes; at most {MAX_BYTES} (5 MB).")


def parse_file(file_format: str, content: str, *, currency: Optional[str] = None,
               fallback_currency: str = "EUR") -> Parsed:
    """Parse, settle the main currency, and check every row the way the ledger will."""
    check_size(content)
    parsed = PARSERS[file_format](content)
    used = {code: n for code, n in parsed.currencies().items() if code}
    main = currency or parsed.currency or (max(used, key=used.get) if used else None)
    if main is None:
        main = fallback_currency
        parsed.warn(None, f"The file names no currency: imported in {main}.")
    parsed.currency = main
    for row in parsed.rows:
        row.currency = row.currency or main
    if "" in parsed.totals:  # balances a file kept in no currency at all
        parsed.totals[main] = parsed.totals.pop("")
    if len(parsed.rows) > MAX_ROWS:
        raise ImportFileError(parsed.rows[MAX_ROWS].line,
                              f"More than {MAX_ROWS} expenses and settlements.")
    if len(parsed.members) + 1 > MAX_GROUP_PARTICIPANTS:
        raise ImportFileError(None, f"{len(parsed.members)} members: a group holds at most "
                                    f"{MAX_GROUP_PARTICIPANTS} participants.")
    if not parsed.members:
        raise ImportFileError(None, "The file names no members.")
    check_names(parsed)
    for row in parsed.rows + [template.body for template in parsed.templates]:
        shared_by_default(row, parsed.default_split)
        check_row(row)
    return parsed


NO_DEFAULT = ("The expense names nobody to share it (no items, split mode or splits) and "
              "the file has no defaultSplit.")


def shared_by_default(row: Row, default) -> None:
    """An expense row that names nobody gets the file's default split, as a REST create
    that names nobody gets its group's (app.ledger.default_split.applied): one item of the
    total less the extras, named after the description, split by the default's mode and
    values. The default names members by the file's keys."""
    if row.kind != EXPENSE or row.items or row.unshared_amount is None:
        return
    if default is None:
        raise ImportFileError(row.line, NO_DEFAULT)
    mode, entries = default
    amount = row.unshared_amount - sum(amount for _, amount in row.extras)
    if amount < 1:
        raise ImportFileError(row.line, f"The amount {row.unshared_amount} leaves nothing "
                                        "once the extras are taken off.")
    row.items = [Item(row.description or "Item", amount, mode,
                      [(key, 0 if value is None else value) for key, value in entries])]


def check_names(parsed: Parsed) -> None:
    """Every member name and category by the rules REST holds them to (app.names.validated,
    the DisplayName field's rule; a category's 50 characters), refused the way REST
    refuses them: a name with a bidi override or an invisible character is a 400, never
    stored or silently changed. Member names are stored NFC-normalised."""
    for position, (key, name) in enumerate(parsed.members.items(), start=1):
        try:
            parsed.members[key] = names.validated(name)
        except ValueError as error:
            raise ImportFileError(None, f"Member {position} ({name[:40]!r}): {error}") from None
    for row in parsed.rows:
        if row.category is not None and len(row.category) > TEXT_MAX["category"]:
            raise ImportFileError(row.line, f"The category is {len(row.category)} characters; "
                                            f"at most {TEXT_MAX['category']}.")


def group_name(name: Optional[str], file_name: Optional[str], default: str) -> str:
    """The new group's name: the request's (its schema checked it), else the file's by the
    same rule (a 400 naming it when refused), else ``default``."""
    if name is not None:
        return name
    if file_name is None or not file_name.strip():
        return default
    try:
        return names.validated(file_name.strip())
    except ValueError as error:
        raise ImportFileError(1, f"The file's group name {file_name[:40]!r}: {error} Send "
                                 f"a name to use instead.") from None


def check_row(row: Row) -> None:
    """The row by the ledger's money rules (app.money.splits, which expense_build.build
    applies), as an ImportFileError. The worker builds each expense with build itself; here
    the API judges a whole file fast enough for its time limit (building 20,000 bodies'
    row maps would not be)."""
    if row.kind == EXPENSE:
        try:
            row.nets()
            expense_input.check_date(row.date)
        except Invalid as error:
            raise ImportFileError(row.line, error.message) from None
        return
    if row.payer == row.payee or not 0 < row.amount <= MAX_AMOUNT:
        raise ImportFileError(row.line, "A settlement needs two different members and an "
                                        f"amount from 1 to {MAX_AMOUNT}.")


def resolve_me(parsed: Parsed, me: Optional[str]) -> Optional[str]:
    """The member key ``me`` names (a key, or a display name, case-insensitively)."""
    if me is None:
        return None
    if me in parsed.members:
        return me
    wanted = me.strip().casefold()
    matches = [key for key, name in parsed.members.items() if name.casefold() == wanted]
    if len(matches) != 1:
        raise Invalid(f"me must name one member of the file; {me!r} names {len(matches)}.",
                      details={"me": ["Must name exactly one member of the file."]})
    return matches[0]
