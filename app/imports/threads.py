"""Comments and recurring templates of an imported export: their rows, and the templates'
filing on the due index once the group is ACTIVE.

Comments are written as the importer's (``AuthorUserId``: they brought the text in, as
every imported row's ``CreatedBy`` is theirs) under the participant who wrote them
(``AuthorParticipantId``), with no mentions (the export's user ids name another group's
members; nobody is notified twice). Templates are written out of the due index: a tick
meeting one while the group is still IMPORTING would fail its occurrence and move on.
:func:`file_templates` files them after the flip, and a rerun of a finished import files
any left (a crash between the two)."""
from __future__ import annotations

from datetime import date
from typing import Callable, Dict, List, Optional

from app.errors import DomainError
from app.money.fx import AUTO
from app.core.clock import new_id
from app.core.conditional import update_if
from app.imports.model import ImportFileError, Parsed, Row, TemplateRow
from app.ledger import expense_build
from app.ledger.expense_input import ExpenseInput
from app.recurring import schedule as schedules
from app.recurring.templates import schedule_of
from models.groups import (RATE_CLIENT, RECURRING_PREFIX, Comment, ExpenseTemplateMap,
                           RecurringExpense)


def comment_rows(group_id: str, parsed: Parsed, ids: Dict[str, str],
                 expense_ids: Dict[int, str], importer: str) -> List[Comment]:
    rows = []
    for comment in parsed.comments:
        comment_id = new_id()
        rows.append(Comment(
            group_id, Comment.sort_key(expense_ids[comment.row_index], comment.created_at,
                                       comment_id),
            CommentId=comment_id, AuthorUserId=importer,
            AuthorParticipantId=ids.get(comment.author) if comment.author else None,
            Body=comment.body, EditedAt=comment.edited_at, CreatedAt=comment.created_at))
    return rows


def _rate_fields(template: TemplateRow, main: str) -> dict:
    if template.body.currency == main or not template.exchange_rate:
        return {}
    if template.exchange_rate == AUTO:
        return {"exchange_rate": AUTO}
    fields = {"exchange_rate": template.exchange_rate, "rate_source": RATE_CLIENT}
    if template.group_amount is not None:
        fields["group_amount"] = template.group_amount
    return fields


def _next_slot(template: TemplateRow, schedule: schedules.Schedule) -> Optional[str]:
    """The stored next occurrence: the export's for an active template; for a paused one
    (the export shows none) the first after its last, which resuming moves past today."""
    if not template.paused:
        return template.next_date
    following = schedule.after(date.fromisoformat(template.last_date)) \
        if template.last_date else schedule.first()
    return following.isoformat() if following else None


def template_rows(group_id: str, parsed: Parsed, main: str, importer: str, stamp: str,
                  body_of: Callable[[Row], ExpenseInput]) -> List[RecurringExpense]:
    """``body_of``: the writer's ExpenseInput of an expense row (members named by participant
    id), the one way an imported row becomes an expense body."""
    rows = []
    for template in parsed.templates:
        body = body_of(template.body).with_(**_rate_fields(template, main))
        try:
            draft = expense_build.build(body, main, defer_auto=True)
        except DomainError as error:
            raise ImportFileError(template.line, str(error)) from None
        schedule = schedules.build(**template.schedule)
        recurring_id = new_id()
        rows.append(RecurringExpense(
            group_id, RecurringExpense.sort_key(recurring_id), RecurringId=recurring_id,
            Template=ExpenseTemplateMap(**draft.body.to_template_attributes()), Currency=main,
            Frequency=schedule.frequency, Interval=schedule.interval,
            StartDate=template.schedule["start_date"], EndDate=template.schedule["end_date"],
            Count=schedule.count, TimeZone=schedule.time_zone, Paused=template.paused,
            NextSlot=_next_slot(template, schedule), LastSlot=template.last_date,
            CreatedBy=importer, CreatedAt=stamp, UpdatedAt=stamp))
    return rows


def file_templates(group_id: str) -> int:
    """Put the group's active imported templates on the due index (each unless a patch or
    an earlier filing got there first); returns how many were filed."""
    filed = 0
    for row in RecurringExpense.query(group_id, RecurringExpense.SK.startswith(RECURRING_PREFIX),
                                      consistent_read=True):
        if row.Paused or not row.NextSlot or row.DueBucket:
            continue
        run_at = schedule_of(row).run_at(date.fromisoformat(row.NextSlot))
        filed += update_if(RecurringExpense(group_id, row.SK),
                           RecurringExpense.due_actions(group_id, run_at),
                           RecurringExpense.DueBucket.does_not_exist()
                           & (RecurringExpense.UpdatedAt == row.UpdatedAt))
    return filed
