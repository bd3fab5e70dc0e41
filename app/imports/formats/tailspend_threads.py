"""The comments and recurring templates of our own JSON export, read back.

A comment names its expense by the export's ``expenseId`` and its author by
``authorParticipantId`` (null: an author no longer in the roster); a template is its
expense body (read like an exported expense, dated its ``startDate``) plus its schedule
and where the schedule stands (``paused``, ``nextDate``, ``lastDate``). Every value is
checked here and every schedule by the recurring code's own rules (at import time, not
when a tick first meets it); a bad one is a 400 naming the record."""
from __future__ import annotations

from typing import Any, Dict, Optional

from app.limits import MAX_COMMENT_BODY
from app.dates import is_calendar_date
from app.errors import Invalid
from app.money.fx import AUTO
from app.imports.formats.text import require, text_field
from app.imports.model import CommentRow, ImportFileError, Parsed, Row, TemplateRow
from app.recurring import schedule as schedules

MAX_STAMP = 40


def _stamp(value: Any, line: int, what: str, *, required: bool) -> Optional[str]:
    text = text_field(value, line, what)
    require(bool(text) or not required, line, f"{what} is required.")
    require(len(text) <= MAX_STAMP, line, f"{what} is longer than {MAX_STAMP} characters.")
    return text or None


def comment(line: int, record: dict, parsed: Parsed, expense_rows: Dict[str, int]) -> CommentRow:
    expense_id = record.get("expenseId")
    require(isinstance(expense_id, str) and expense_id in expense_rows, line,
            f"A comment's expenseId {str(expense_id)[:40]!r} is not an expense of the export.")
    author = record.get("authorParticipantId")
    require(author is None or (isinstance(author, str) and author in parsed.members), line,
            f"{str(author)[:40]!r} is not a participant of the export.")
    body = text_field(record.get("body"), line, "A comment's body")
    require(bool(body.strip()) and len(body) <= MAX_COMMENT_BODY, line,
            f"A comment's body must be 1-{MAX_COMMENT_BODY} characters.")
    return CommentRow(line, expense_rows[expense_id], author, body,
                      _stamp(record.get("createdAt"), line, "createdAt", required=True),
                      _stamp(record.get("editedAt"), line, "editedAt", required=False))


def _date(value: Any, line: int, what: str) -> Optional[str]:
    require(value is None or is_calendar_date(value), line, f"{what} must be YYYY-MM-DD.")
    return value


def _count(value: Any, line: int, what: str, top: int) -> Optional[int]:
    require(value is None or (isinstance(value, int) and not isinstance(value, bool)
                              and 1 <= value <= top), line,
            f"{what} must be an integer from 1 to {top}.")
    return value


def template(line: int, record: dict, body: Row) -> TemplateRow:
    schedule = {"frequency": text_field(record.get("frequency"), line, "frequency"),
                "interval": _count(record.get("interval"), line, "interval", 1000) or 1,
                "start_date": _date(record.get("startDate"), line, "startDate"),
                "end_date": _date(record.get("endDate"), line, "endDate"),
                "count": _count(record.get("count"), line, "count", 10000),
                "time_zone": text_field(record.get("timeZone"), line, "timeZone") or "UTC"}
    require(schedule["start_date"] is not None, line, "startDate is required.")
    try:
        schedules.build(**schedule)
    except Invalid as error:
        raise ImportFileError(line, error.message) from None
    paused = record.get("paused", False)
    require(isinstance(paused, bool), line, "paused must be true or false.")
    rate = text_field(record.get("exchangeRate"), line, "exchangeRate") or None
    group_amount = record.get("groupAmount")
    require(group_amount is None or (isinstance(group_amount, int)
                                     and not isinstance(group_amount, bool)), line,
            "groupAmount must be an integer of minor units.")
    return TemplateRow(line, body, schedule, paused=paused,
                       next_date=_date(record.get("nextDate"), line, "nextDate"),
                       last_date=_date(record.get("lastDate"), line, "lastDate"),
                       exchange_rate=rate, group_amount=None if rate == AUTO else group_amount)
