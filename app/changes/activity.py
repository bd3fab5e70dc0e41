"""GET /groups/{groupId}/activity: who changed what, newest first, as a sentence and a
per-field diff, from the CHANGE rows (one Query) and the roster (one Query, for names).

Names are read from the roster when the feed is read, never stored in the log: a renamed
participant shows under their current name, and an erased account leaves no name behind."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from app.limits import IMPORT_SOURCES
from app.money.currencies import format_minor
from app.core import changelog, paging
from app.core.access import Access
from models.groups import Change, ChangeKind, Participant

SYSTEM = "TailSpend"  # the actor of the hourly tick's writes
FORMER = "a former participant"
VERBS = {changelog.CREATE: "added", changelog.UPDATE: "edited", changelog.DELETE: "deleted",
         changelog.RESTORE: "restored"}


@dataclass(frozen=True)
class Actor:
    participant_id: Optional[str]
    display_name: str


@dataclass(frozen=True)
class ActivityEntry:
    revision: int
    at: str
    actor: Actor
    kind: str
    id: str
    op: str
    summary: str
    diff: list


def activity(access: Access, *, limit: Optional[int], cursor: Optional[str],
             scope: str) -> paging.Page:
    """A page of the group's activity, newest first."""
    rows = Change.newest_first(access.group_id, limit=paging.clamp_limit(limit),
                               consistent_read=True,
                               last_evaluated_key=paging.decode(cursor, scope))
    changes = list(rows)
    names = {p.ParticipantId: p.DisplayName
             for p in Participant.roster(access.group_id, consistent_read=True)}
    items = [_entry(row, names, access.group.Currency) for row in changes]
    return paging.Page(items, paging.encode(rows.last_evaluated_key, scope))


def _entry(row: Change, names: dict, currency: str) -> ActivityEntry:
    actor_id = row.ActorParticipantId
    actor = Actor(actor_id, names.get(actor_id, FORMER.capitalize()) if actor_id else SYSTEM)
    # A share-link session's writes name its guest, and say how it acted.
    said = f"{actor.display_name} (by link)" if row.ByLink else actor.display_name
    return ActivityEntry(int(row.Revision), row.At, actor, row.Kind, row.ResourceId, row.Op,
                         summary(row, said, names, currency), row.Diff or [])


def _money(subject: dict, currency: str) -> str:
    if "amount" not in subject:
        return ""
    code = subject.get("currency") or currency
    return f" ({format_minor(int(subject['amount']), code)} {code})"


def summary(row: Change, actor: str, names: dict, currency: str) -> str:
    """"Ann added Pizza (30.00 EUR)": one sentence per change, in the group's words."""
    action = row.Action or (changelog.DELETE if row.Op == changelog.DELETE else changelog.UPDATE)
    verb, subject = VERBS[action], row.Subject or {}
    kind = row.Kind
    if kind == ChangeKind.EXPENSE:
        return f"{actor} {verb} {subject.get('name', 'an expense')}{_money(subject, currency)}"
    if kind == ChangeKind.RECURRING:
        what = f"the recurring expense {subject.get('name', '')}".rstrip()
        return f"{actor} {verb} {what}{_money(subject, currency)}"
    if kind == ChangeKind.SETTLEMENT:
        payer = names.get(subject.get("payerId"), FORMER)
        payee = names.get(subject.get("payeeId"), FORMER)
        amount = _money(subject, currency).strip(" ()")
        return f"{actor} {verb} a payment: {payer} paid {payee} {amount}".rstrip()
    if kind == ChangeKind.CONVERSION:
        if action == changelog.DELETE:
            return (f"{actor} undid the conversion of the {subject.get('currency', '')} "
                    f"balances at {subject.get('exchangeRate', '')}")
        return (f"{actor} converted the {subject.get('currency', '')} balances into {currency} "
                f"at {subject.get('exchangeRate', '')}")
    if kind == ChangeKind.COMMENT:
        return f"{actor} commented on an expense" if action == changelog.CREATE \
            else f"{actor} {verb} a comment"
    if kind == ChangeKind.LINK:
        return f"{actor} opened the group"
    if kind == ChangeKind.PARTICIPANT:
        who = names.get(subject.get("participantId"), FORMER)
        if subject.get("participantId") == row.ActorParticipantId and \
                action in (changelog.CREATE, changelog.DELETE):
            # their own row: at the group's creation or a join, and a leave
            return f"{actor} joined the group" if action == changelog.CREATE \
                else f"{actor} left the group"
        verb = {changelog.CREATE: "added", changelog.DELETE: "removed"}.get(action, "changed")
        return f"{actor} {verb} {who}"
    if action == changelog.CREATE:
        return f"{actor} created the group {subject.get('name', '')}".rstrip()
    if subject.get("importedFrom"):
        return f"{actor} imported the group from {_source(subject['importedFrom'])}"
    return f"{actor} changed the group"


def _source(file_format: str) -> str:
    """ "splitwise-csv" -> "Splitwise": the one format -> app table (app.limits.IMPORT_SOURCES,
    which also names an imported group "Imported from <app>"); an unknown format reads as
    itself."""
    return IMPORT_SOURCES.get(str(file_format), str(file_format))
