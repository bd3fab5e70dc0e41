"""Reading a file's text: the BOM, CSV records with the line each ends on, JSON."""
from __future__ import annotations

import csv
import io
import json
import re
from typing import Any, Iterator, List, Tuple

from app.limits import IMPORT_MAX_BYTES, MAX_GROUP_PARTICIPANTS
from app.imports.model import ImportFileError

BOM = "\ufeff"
# The csv module refuses a field past 128 KB by default; a file is at most 5 MB (checked
# before parsing), so no field can be longer than that.
FIELD_LIMIT = IMPORT_MAX_BYTES
MAX_ROWS = 20_000  # expenses and settlements in one file
# Records a CSV may hold: the rows plus headers, members, sections and blank lines. Reading
# stops at the first one past it, so a file of 120,000 rows is refused after 21,000.
MAX_RECORDS = MAX_ROWS + 1_000
MAX_JSON_INTEGER_DIGITS = 30
_LONG_INTEGER = re.compile(r"\d{%d,}" % (MAX_JSON_INTEGER_DIGITS + 1))


def without_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def records(text: str) -> Iterator[Tuple[int, List[str]]]:
    """(line, cells) of every CSV record, CRLF or LF, quoted cells with embedded newlines;
    ``line`` is the 1-based line the record starts on."""
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)
    reader = csv.reader(io.StringIO(without_bom(text), newline=""), strict=True)
    start = 1
    try:
        for count, cells in enumerate(reader, start=1):
            if count > MAX_RECORDS:
                raise ImportFileError(start, f"More than {MAX_RECORDS} records: a file holds "
                                             f"at most {MAX_ROWS} expenses and settlements.")
            yield start, cells
            start = reader.line_num + 1
    except csv.Error as error:
        raise ImportFileError(reader.line_num, f"Not readable as CSV: {error}.") from None


def is_blank(cells: List[str]) -> bool:
    return all(not cell.strip() for cell in cells)


class _LongInteger(ValueError):
    pass


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_INTEGER_DIGITS:
        raise _LongInteger(text)
    return int(text)


def _constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not a JSON value", "", 0)


def json_document(text: str) -> Any:
    """The parsed document; ImportFileError (with the line) for invalid JSON, NaN/Infinity,
    an integer longer than MAX_JSON_INTEGER_DIGITS (converted never, so a 5 MB integer
    costs nothing) or nesting past the interpreter's recursion limit."""
    text = without_bom(text)
    try:
        return json.loads(text, parse_int=_integer, parse_constant=_constant)
    except _LongInteger:
        found = _LONG_INTEGER.search(text)
        line = text.count("\n", 0, found.start()) + 1 if found else None
        raise ImportFileError(line, f"Not importable JSON: an integer of more than "
                                    f"{MAX_JSON_INTEGER_DIGITS} digits.") from None
    except json.JSONDecodeError as error:
        if not error.doc:  # raised by _constant: find the constant's line
            found = re.search(r"-?\b(NaN|Infinity)\b", text)
            line = text.count("\n", 0, found.start()) + 1 if found else None
            raise ImportFileError(line, f"Not valid JSON: {error.msg}.") from None
        raise ImportFileError(error.lineno, f"Not valid JSON: {error.msg}.") from None
    except RecursionError:
        raise ImportFileError(1, "Not importable JSON: nested too deeply.") from None


def check_rows(count: int, line) -> None:
    """Stop reading at row MAX_ROWS + 1 (a JSON list's length, a CSV's rows so far)."""
    if count > MAX_ROWS:
        raise ImportFileError(line, f"More than {MAX_ROWS} expenses and settlements.")


def check_list(items: list, what: str = "expenses and settlements") -> None:
    """A JSON list of rows: refused as a whole when past MAX_ROWS, before any is read (its
    line is the position of the first one too many)."""
    if len(items) > MAX_ROWS:
        raise ImportFileError(MAX_ROWS + 1, f"More than {MAX_ROWS} {what}.")


# Member entries a file may hold in all (a row's member cells, a bill's owers, an expense's
# splits, summed): 20,000 rows of 12 members, or 1,250 rows of 199. Reading stops at the
# first past it, so the POST's check stays within its 2 s whatever the file's shape.
MAX_MEMBER_ENTRIES = 250_000


class CellBudget:
    """Member entries read so far, against MAX_MEMBER_ENTRIES."""

    def __init__(self) -> None:
        self.used = 0

    def spend(self, count: int, line) -> None:
        self.used += count
        if self.used > MAX_MEMBER_ENTRIES:
            raise ImportFileError(line, f"More than {MAX_MEMBER_ENTRIES:,} member entries "
                                        f"(each row's members, summed): split the file.")


def check_members(count: int, line) -> None:
    """Stop reading at member MAX_GROUP_PARTICIPANTS + 1."""
    if count > MAX_GROUP_PARTICIPANTS:
        raise ImportFileError(line, f"More than {MAX_GROUP_PARTICIPANTS} members: a group "
                                    f"holds at most {MAX_GROUP_PARTICIPANTS} participants.")


def text_field(value: Any, line, what: str) -> str:
    """A text value of a JSON document ("" for null); ImportFileError for an object, a
    list, a number or a boolean."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ImportFileError(line, f"{what} must be text, not {type(value).__name__}.")
    return value


def require(condition: bool, line, reason: str) -> None:
    if not condition:
        raise ImportFileError(line, reason)
