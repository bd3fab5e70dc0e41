"""GET /groups/{groupId}/activity: who changed what, newest first, as a sentence and a
per-field diff, from the CHANGE rows (one Query) and the roster (one Query, for names).

Names are read from the roster when the feed is read, never stored in the log: a renamed
participant shows under their current name, and an erased account leaves no name behind."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from app.limits import IMPORT_SOURCES
from app.core.i18n import Texts, texts
from app.core import changelog, paging
from app.core.access import Access
from models.groups import Change, ChangeKind, Participant

SYSTEM = "TailSpend"  # the actor of the hourly tick's writes


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
    locale: str


def activity(access: Access, *, limit: Optional[int], cursor: Optional[str],
             scope: str, locale: Optional[str] = None) -> paging.Page:
    """A page of the group's activity, newest first, its sentences in ``locale`` (the
    reader's)."""
    rows = Change.newest_first(access.group_id, limit=paging.clamp_limit(limit),
                               consistent_read=True,
                               last_evaluated_key=paging.decode(cursor, scope))
    changes = list(rows)
    names = {p.ParticipantId: p.DisplayName
             for p in Participant.roster(access.group_id, consistent_read=True)}
    t = texts(locale)
    items = [_entry(row, names, access.group.Currency, t) for row in changes]
    return paging.Page(items, paging.encode(rows.last_evaluated_key, scope))


def _entry(row: Change, names: dict, currency: str, t: Texts) -> ActivityEntry:
    actor_id = row.ActorParticipantId
    actor = Actor(actor_id, names.get(actor_id) or t.gettext("A former participant")
                  if actor_id else SYSTEM)
    # A share-link session's writes name its guest, and say how it acted.
    said = t.gettext("{name} (by link)", name=actor.display_name) if row.ByLink \
        else actor.display_name
    return ActivityEntry(int(row.Revision), row.At, actor, row.Kind, row.ResourceId, row.Op,
                         summary(row, said, names, currency, t), row.edits or [], t.tag)


def _what(subject: dict, currency: str, t: Texts, unnamed: str) -> str:
    """"Pizza (€30.00)": the subject's name and, when known, its amount."""
    name = subject.get("name") or unnamed
    if "amount" not in subject:
        return name
    money = t.money(int(subject["amount"]), subject.get("currency") or currency)
    return t.gettext("{name} ({money})", name=name, money=money)


def _by_verb(action: str, added: str, edited: str, deleted: str,
             restored: Optional[str] = None) -> str:
    """The sentence for the change's action (a restore from the trash has its own where a
    kind can be restored; a whole sentence each, so a translation words each its way)."""
    return {changelog.CREATE: added, changelog.DELETE: deleted,
            changelog.RESTORE: restored or edited}.get(action, edited)


def summary(row: Change, actor: str, names: dict, currency: str, t: Texts) -> str:
    """"Ann added Pizza (€30.00)": one sentence per change, in the group's words and the
    reader's language."""
    action = row.Action or (changelog.DELETE if row.Op == changelog.DELETE else changelog.UPDATE)
    subject = row.Subject or {}
    kind = row.Kind
    former = t.gettext("a former participant")
    if kind == ChangeKind.EXPENSE:
        what = _what(subject, currency, t, t.gettext("an expense"))
        return _by_verb(action, t.gettext("{actor} added {what}", actor=actor, what=what),
                        t.gettext("{actor} edited {what}", actor=actor, what=what),
                        t.gettext("{actor} deleted {what}", actor=actor, what=what),
                        t.gettext("{actor} restored {what}", actor=actor, what=what))
    if kind == ChangeKind.RECURRING:
        what = _what(subject, currency, t, "").strip()
        return _by_verb(
            action, t.gettext("{actor} added the recurring expense {what}", actor=actor,
                              what=what).rstrip(),
            t.gettext("{actor} edited the recurring expense {what}", actor=actor,
                      what=what).rstrip(),
            t.gettext("{actor} deleted the recurring expense {what}", actor=actor,
                      what=what).rstrip())
    if kind == ChangeKind.SETTLEMENT:
        payer = names.get(subject.get("payerId")) or former
        payee = names.get(subject.get("payeeId")) or former
        money = t.money(int(subject["amount"]), subject.get("currency") or currency) \
            if "amount" in subject else ""
        params = {"actor": actor, "payer": payer, "payee": payee, "amount": money}
        return _by_verb(action, t.gettext("{actor} added a payment: {payer} paid {payee} "
                                          "{amount}", **params),
                        t.gettext("{actor} edited a payment: {payer} paid {payee} {amount}",
                                  **params),
                        t.gettext("{actor} deleted a payment: {payer} paid {payee} {amount}",
                                  **params),
                        t.gettext("{actor} restored a payment: {payer} paid {payee} {amount}",
                                  **params)).rstrip()
    if kind == ChangeKind.CONVERSION:
        params = {"actor": actor, "currency": subject.get("currency", ""),
                  "rate": subject.get("exchangeRate", ""), "main": currency}
        if action == changelog.DELETE:
            return t.gettext("{actor} undid the conversion of the {currency} balances at {rate}",
                             **params)
        return t.gettext("{actor} converted the {currency} balances into {main} at {rate}",
                         **params)
    if kind == ChangeKind.COMMENT:
        return _by_verb(action, t.gettext("{actor} commented on an expense", actor=actor),
                        t.gettext("{actor} edited a comment", actor=actor),
                        t.gettext("{actor} deleted a comment", actor=actor),
                        t.gettext("{actor} restored a comment", actor=actor))
    if kind == ChangeKind.LINK:
        return t.gettext("{actor} opened the group", actor=actor)
    if kind == ChangeKind.PARTICIPANT:
        who = names.get(subject.get("participantId")) or former
        if subject.get("participantId") == row.ActorParticipantId and \
                action in (changelog.CREATE, changelog.DELETE):
            # their own row: at the group's creation or a join, and a leave
            return t.gettext("{actor} joined the group", actor=actor) \
                if action == changelog.CREATE else t.gettext("{actor} left the group", actor=actor)
        return _by_verb(action, t.gettext("{actor} added {who}", actor=actor, who=who),
                        t.gettext("{actor} changed {who}", actor=actor, who=who),
                        t.gettext("{actor} removed {who}", actor=actor, who=who))
    if action == changelog.CREATE:
        return t.gettext("{actor} created the group {name}", actor=actor,
                         name=subject.get("name", "")).rstrip()
    if subject.get("importedFrom"):
        return t.gettext("{actor} imported the group from {source}", actor=actor,
                         source=_source(subject["importedFrom"]))
    return t.gettext("{actor} changed the group", actor=actor)


def _source(file_format: str) -> str:
    """ "splitwise-csv" -> "Splitwise": the one format -> app table (app.limits.IMPORT_SOURCES,
    which also names an imported group "Imported from <app>"); an unknown format reads as
    itself."""
    return IMPORT_SOURCES.get(str(file_format), str(file_format))
