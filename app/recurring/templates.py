"""Recurring templates: create, read, list, patch (incl. pause), delete.

The expense part of a template is validated by the same code as a one-off expense
(``ledger.expense_input``). Every create and patch condition-checks the group head and each
referenced participant in its TransactWrite and bumps BALANCE#v1's BalanceRevision, which a
participant removal conditions on: a template naming someone that lands between the
removal's reference check and its commit makes the removal fail instead of dangle."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, Mapping, Optional


from app.errors import (not_found, version_conflict, ConcurrentUpdate,
                        concurrent_update, id_collision)
from app.core import scrub
from app.core import changelog, outbox, paging
from app.core.access import Access
from app.core.clock import new_id, now_iso
from app.core.transactions import Transaction
from app.ledger import balances, default_split, expense_build, guards as money_guards
from app.recurring import schedule as schedules
from app.ledger.expense_body import ExpenseBody, compared
from models.groups import RECURRING_PREFIX, ExpenseTemplateMap, RecurringExpense

SCHEDULE_FIELDS = ("frequency", "interval", "startDate", "endDate", "count", "timeZone")
_PATCH_ATTEMPTS = 3


def schedule_of(row: RecurringExpense) -> schedules.Schedule:
    return schedules.Schedule(row.Frequency, int(row.Interval or 1),
                              date.fromisoformat(row.StartDate),
                              date.fromisoformat(row.EndDate) if row.EndDate else None,
                              int(row.Count) if row.Count else None, row.TimeZone or "UTC")


@dataclass(frozen=True)
class Template:
    """A template row, its next occurrence's date and when that is recorded (both None
    when paused or finished).

    The stored NextRunAt can hold a tick's lease, so the reply's time comes from the
    schedule. Attribute reads fall through to the row, which the reply schema dumps."""

    row: RecurringExpense
    next_date: Optional[str]
    next_run_at: Optional[str]

    def __getattr__(self, name: str):
        return getattr(self.row, name)


def template_of(row: RecurringExpense) -> Template:
    if not row.NextSlot or row.Paused:
        return Template(row, None, None)
    return Template(row, row.NextSlot, schedule_of(row).run_at(date.fromisoformat(row.NextSlot)))


def _stored(draft: expense_build.Draft) -> ExpenseTemplateMap:
    return ExpenseTemplateMap(**draft.body.to_template_attributes())


def _schedule(body: Mapping[str, Any]) -> schedules.Schedule:
    return schedules.build(frequency=body["frequency"], interval=body.get("interval") or 1,
                           start_date=body["startDate"], end_date=body.get("endDate"),
                           count=body.get("count"), time_zone=body.get("timeZone") or "UTC")


def _guarded(access: Access, draft: expense_build.Draft) -> Transaction:
    tx = Transaction().require_live_account(access.user_id)
    money_guards.check_group(tx, access.group, participants=draft.participant_ids)
    # The counter participant removal conditions on (see the module docstring).
    balances.add_to_balance(tx, access.group_id, {}, row=None)  # names no one: no seat
    return tx


def create_template(access: Access, body: Mapping[str, Any]) -> Template:
    """A new active template; its first run is local midnight of its first occurrence."""
    schedule = _schedule(body)
    schedules.check_start_window(body["startDate"], schedule.time_zone)
    # A template that names nobody records the group's default split as it is now.
    expense = default_split.applied(access.group.DefaultSplit, body["expense"])
    draft = expense_build.build(expense.with_(date=body["startDate"]),
                                access.group.Currency, defer_auto=True)
    recurring_id, now = new_id(), now_iso()
    first = schedule.first()
    row = RecurringExpense(
        access.group_id, RecurringExpense.sort_key(recurring_id), RecurringId=recurring_id,
        Template=_stored(draft), Currency=access.group.Currency, Frequency=schedule.frequency,
        Interval=schedule.interval, StartDate=body["startDate"], EndDate=body.get("endDate"),
        Count=schedule.count, TimeZone=schedule.time_zone, Paused=False,
        NextSlot=first.isoformat(), CreatedBy=access.user_id, CreatedAt=now, UpdatedAt=now,
        **RecurringExpense.due_keys(access.group_id, schedule.run_at(first)))
    tx = _guarded(access, draft)
    tx.put(row, condition=RecurringExpense.SK.does_not_exist(),
           on_fail=id_collision())
    outbox.add_event(tx, "RECURRING_CREATED", scope_id=access.group_id,
                     resource_id=recurring_id, actor_user_id=access.user_id,
                     group_id=access.group_id)
    changelog.record(tx, access.group, row, changelog.CREATE, actor=access.participant_id)
    money_guards.commit(tx, access.group)
    return template_of(row)


def load_template(group_id: str, recurring_id: str) -> RecurringExpense:
    try:
        return RecurringExpense.get(group_id, RecurringExpense.sort_key(recurring_id),
                                    consistent_read=True)
    except (RecurringExpense.DoesNotExist, ValueError):
        raise not_found("Recurring expense") from None


def get_template(access: Access, recurring_id: str) -> Template:
    return template_of(load_template(access.group_id, recurring_id))


def list_templates(access: Access, *, limit: Optional[int], cursor: Optional[str],
                   scope: str) -> dict:
    rows = RecurringExpense.query(access.group_id,
                                  RecurringExpense.SK.startswith(RECURRING_PREFIX),
                                  limit=paging.clamp_limit(limit), consistent_read=True,
                                  last_evaluated_key=paging.decode(cursor, scope))
    return paging.page_of(rows, scope, template_of).as_dict()


def delete_template(access: Access, recurring_id: str) -> None:
    """Remove the template; occurrences already recorded stay (they are ordinary expenses)."""
    row = RecurringExpense(access.group_id, RecurringExpense.sort_key(recurring_id))
    tx = Transaction()
    tx.delete(row, condition=RecurringExpense.SK.exists(), on_fail=not_found("Recurring expense"))
    changelog.record(tx, access.group, row, changelog.DELETE, actor=access.participant_id)
    tx.commit()
    # After the commit: /activity stops quoting it (app.core.scrub).
    scrub.scrub_resource(access.group_id, "RECURRING", recurring_id)


def _local_today(schedule: schedules.Schedule) -> date:
    return schedule.local_today(datetime.now(timezone.utc))


def _next_slot(current: RecurringExpense, old: schedules.Schedule, new: schedules.Schedule,
               resumed: bool) -> Optional[date]:
    """Where the schedule stands after a patch: only future occurrences change.

    A new schedule starts at its first occurrence from today (never at or before the last
    recorded one); a resumed template skips what fell due while it was paused."""
    last = date.fromisoformat(current.LastSlot) if current.LastSlot else None
    if new != old:
        floor = _local_today(new)
        if last:
            floor = max(floor, last + timedelta(days=1))
        return new.on_or_after(floor)
    stored = date.fromisoformat(current.NextSlot) if current.NextSlot else None
    if resumed and stored:
        return new.on_or_after(max(stored, _local_today(new)))
    return stored


def update_template(access: Access, recurring_id: str, updated_at: str,
                    patch: Mapping[str, Any]) -> Template:
    """Apply a patch to the version read (``updatedAt``); stale → VERSION_CONFLICT.

    The write also conditions on NextRunAt as read: if a tick moved it meanwhile the patch
    is recomputed on the fresh row (the client's ``updatedAt`` still holds)."""
    for _ in range(_PATCH_ATTEMPTS):
        current = load_template(access.group_id, recurring_id)
        if current.UpdatedAt != updated_at:
            raise version_conflict("recurring expense")
        if current.ClaimedSlot:
            raise concurrent_update("An occurrence of this template is being recorded; "
                                    "try again.")
        try:
            return _apply(access, current, patch)
        except _TickMoved:
            continue
    raise concurrent_update("The template kept changing; try again.")


class _TickMoved(ConcurrentUpdate):
    """NextRunAt (or UpdatedAt) changed between our read and our write."""


def _apply(access: Access, current: RecurringExpense, patch: Mapping[str, Any]) -> Template:
    old = schedule_of(current)
    fields = {"frequency": current.Frequency, "interval": int(current.Interval or 1),
              "startDate": current.StartDate, "endDate": current.EndDate,
              "count": int(current.Count) if current.Count else None,
              "timeZone": current.TimeZone or "UTC"}
    fields.update({name: patch[name] for name in SCHEDULE_FIELDS if name in patch})
    if patch.get("endDate"):
        fields["count"] = patch.get("count")
    if patch.get("count"):
        fields["endDate"] = patch.get("endDate")
    new = _schedule(fields)
    if "startDate" in patch:
        schedules.check_start_window(fields["startDate"], new.time_zone)
    merged = expense_build.merge(ExpenseBody.from_template(current), fields["startDate"],
                                 patch["expense"])
    draft = expense_build.build(merged, access.group.Currency, defer_auto=True)
    paused = bool(patch["paused"]) if patch.get("paused") is not None else bool(current.Paused)
    following = _next_slot(current, old, new, resumed=bool(current.Paused) and not paused)
    run_at = new.run_at(following) if following and not paused else None
    now = now_iso()
    changes = {"Template": _stored(draft), "Frequency": new.frequency, "Interval": new.interval,
               "StartDate": fields["startDate"], "EndDate": fields["endDate"],
               "Count": new.count, "TimeZone": new.time_zone, "Paused": paused,
               "NextSlot": following.isoformat() if following else None, "UpdatedAt": now}
    actions = [getattr(RecurringExpense, name).set(value) if value is not None
               else getattr(RecurringExpense, name).remove() for name, value in changes.items()]
    actions += RecurringExpense.due_actions(access.group_id, run_at)
    condition = ((RecurringExpense.UpdatedAt == current.UpdatedAt)
                 & RecurringExpense.ClaimedSlot.does_not_exist()
                 & (RecurringExpense.NextRunAt == current.NextRunAt if current.NextRunAt
                    else RecurringExpense.NextRunAt.does_not_exist()))
    tx = _guarded(access, draft)
    tx.update(RecurringExpense(access.group_id, current.SK), actions, condition=condition,
              on_fail=_TickMoved("The template changed meanwhile."))
    changelog.record(tx, access.group, current, actor=access.participant_id,
                      diff=changelog.diff_of(compared(current.Template),
                                              compared(draft.body)))
    money_guards.commit(tx, access.group)
    for name, value in changes.items():
        setattr(current, name, value)
    current.DueBucket, current.NextRunAt = (RecurringExpense.bucket_of(access.group_id)
                                            if run_at else None), run_at
    return template_of(current)
