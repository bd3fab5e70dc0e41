"""Reading a file's text: the BOM, CSV records with the line each ends on, JSON."""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Iterator, List, Tuple

from app.services.imports.model import ImportFileError

BOM = "\ufeff"
# The csv module refuses a field past 128 KB by default; a file is at most 5 MB (checked
# before parsing), so no field can be longer than that.
FIELD_LIMIT = 5 * 1024 * 1024


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
        for cells in reader:
            yield start, cells
            start = reader.line_num + 1
    except csv.Error as error:
        raise ImportFileError(reader.line_num, f"Not readable as CSV: {error}.") from None


def is_blank(cells: List[str]) -> bool:
    return all(not cell.strip() for cell in cells)


def json_document(text: str) -> Any:
    try:
        return json.loads(without_bom(text))
    except json.JSONDecodeError as error:
        raise ImportFileError(error.lineno, f"Not valid JSON: {error.msg}.") from None


def require(condition: bool, line, reason: str) -> None:
    if not condition:
        raise ImportFileError(line, reason)
