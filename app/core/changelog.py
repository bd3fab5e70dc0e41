"""The group's change log: every change to a group's content raises its revision by one and
writes a CHANGE row in the same TransactWrite, through the one hook :func:`record`.

Where the counter lives: ``Revision`` on the group head (``META``). Every access check
already reads the head (so an ETag costs no extra call), the home screen reads it too, and
most writers already condition-check or update it: :class:`ChangeLog` folds the bump into
that item (see app.core.transactions.Counter), so a transaction touches the counter
exactly once. The CHANGE row's key carries the new revision, so the bump is conditioned on
the revision read (at authorization, or read at commit): a writer that lost the number to
another renumbers and resends, which keeps revisions gap-free and strictly increasing.

A transaction changing several resources (a transfer batch, an occurrence and its
template) records each: the revision rises by the number of rows, still in one update."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Dict, List, Mapping, Optional, Union

from pynamodb.attributes import MapAttribute

from app.errors import DomainError, group_archived, group_not_found
from app.core import request_reads
from app.core.clock import epoch, now_iso
from app.core.transactions import Transaction
from models.groups import (Change, ChangeKind, Comment, Conversion, Expense, Group, Participant,
                           RecurringExpense, Settlement, ShareLink)

KEEP_SECONDS = 90 * 24 * 3600
# What a writer did (``record``'s ``action``); the API's op is UPSERT for the first two.
CREATE, UPDATE, DELETE = "CREATE", "UPDATE", "DELETE"
# A row brought back from the trash (app.ledger.trash): an UPSERT in the feed.
RESTORE = "RESTORE"
UPSERT = "UPSERT"
K = ChangeKind
KINDS = {Group: K.GROUP, Participant: K.PARTICIPANT, Expense: K.EXPENSE, Comment: K.COMMENT,
         Settlement: K.SETTLEMENT, RecurringExpense: K.RECURRING, Conversion: K.CONVERSION,
         ShareLink: K.LINK}
# A head without Revision holds content that was never logged: an imported group, whose
# rows the import worker wrote in bulk before the group turned ACTIVE. Its first change is
# numbered 2, so CHANGE#1 is missing and a client asking from 0 is told to refetch.
_UNLOGGED = 1
_UNREAD = object()


def revision_of(group: Optional[Group]) -> int:
    """A head's revision. A group older than the log counts as revision 1 (everything
    before the log), so a client told to refetch it syncs from 1 and its first logged
    change, numbered 2, continues from there."""
    if group is None:
        return 0
    return _UNLOGGED if group.Revision is None else int(group.Revision)


def resource_id(row) -> str:
    """The id a change names, read from the row's sort key (a bare key model is enough)."""
    if isinstance(row, Group):
        return row.GroupId
    if isinstance(row, Expense):
        return row.SK.split("#")[1]
    return row.SK.rsplit("#", 1)[-1]


@dataclass
class _Entry:
    kind: str
    resource_id: str
    resource_key: str
    action: str
    actor: Optional[str]
    at: str
    diff: Optional[list]
    subject: Optional[dict]
    by_link: bool = False
    sorted_as: Optional[str] = None


@dataclass
class ChangeLog:
    """The counter of one transaction: the head's Revision, and the rows it numbers.

    ``stored`` is Revision as read (None: absent, a group older than the log; _UNREAD: not
    read yet, read when the transaction is built)."""

    group_id: str
    stored: Any
    entries: List[_Entry] = field(default_factory=list)
    # The head the writer holds (its Access's): told the revisions we learn and write, so a
    # writer making several transactions with one Access (a transfer's batches, the tick)
    # does not find its own last commit a stranger's and renumber each time.
    head: Optional[Group] = None
    _rows: Optional[tuple] = None  # (first revision, rows): built once per numbering
    model = Group

    def _stored(self) -> Optional[int]:
        if self.stored is _UNREAD:
            self.stored = _raw_revision(Group.raw_get(*Group.key(self.group_id)))
        return self.stored

    def _first(self) -> int:
        """The revision of this transaction's first row."""
        stored = self._stored()
        return (_UNLOGGED if stored is None else stored) + 1

    # --- the Counter protocol (app.core.transactions) ---------------------------
    def key(self) -> tuple:
        return Group.key(self.group_id)

    @staticmethod
    def key_of(row) -> tuple:
        return row.GroupId, row.SK

    def actions(self) -> list:
        return [Group.Revision.set(self._first() + len(self.entries) - 1)]

    def condition(self):
        stored = self._stored()
        seen = Group.Revision.does_not_exist() if stored is None else Group.Revision == stored
        return Group.SK.exists() & seen

    def stamp(self, row) -> None:
        """A head created in this transaction (created with Revision 0) carries its count."""
        row.Revision = self._first() + len(self.entries) - 1

    def rows(self) -> list:
        first = self._first()
        if self._rows is None or self._rows[0] != first:
            self._rows = (first, self._build_rows(first))
        return self._rows[1]

    def _build_rows(self, first: int) -> list:
        expires = epoch() + KEEP_SECONDS
        return [Change(self.group_id, Change.sort_key(first + n), Revision=first + n,
                       Kind=e.kind, ResourceId=e.resource_id, ResourceKey=e.resource_key,
                       Op=DELETE if e.action == DELETE else UPSERT, Action=e.action,
                       ActorParticipantId=e.actor, At=e.at, Diff=e.diff or None,
                       Subject=e.subject or None, ExpiresAt=expires,
                       ByLink=True if e.by_link else None, SortedAs=e.sorted_as)
                for n, e in enumerate(self.entries)]

    def row_count(self) -> int:
        return len(self.entries)

    def moved(self, old: Optional[dict]) -> bool:
        return bool(old) and _raw_revision(old) != self._stored()

    def renumber(self, old: Optional[dict]) -> None:
        if request_reads.writes_in(self.group_id) and _raw_archived(old):
            # archived after this request's write was authorized: refused, not renumbered
            raise group_archived()
        self.stored = _raw_revision(old)
        self._tell_head(self.stored)

    def committed(self) -> None:
        self._tell_head(self._first() + len(self.entries) - 1)

    def _tell_head(self, revision: Optional[int]) -> None:
        if self.head is not None and revision is not None:
            self.head.Revision = max(int(self.head.Revision or 0), revision)

    @staticmethod
    def refused() -> DomainError:
        return group_not_found()


def _raw_revision(raw: Optional[dict]) -> Optional[int]:
    """The Revision of a head image (an old image from a failed condition), or None."""
    head = Group.from_raw(raw)
    return None if head is None or head.Revision is None else int(head.Revision)


def _raw_archived(raw: Optional[dict]) -> bool:
    head = Group.from_raw(raw)
    return head is not None and head.archived


def record(tx: Transaction, group: Union[Group, str], row, action: str = UPDATE, *,
           actor: Optional[str] = None, diff: Optional[list] = None,
           subject: Optional[dict] = None) -> None:
    """Record, in ``tx``, that ``row`` (a GroupData content row; a bare key model will do)
    was created (CREATE), changed (UPDATE) or deleted (DELETE) by participant ``actor``.

    ``group`` is the head read at authorization (its Revision is the one expected; the
    commit renumbers if another writer got there first) or the group id (the revision is
    then read when the transaction is built). ``diff`` lists the edited fields
    (:func:`diff_of`), ``subject`` what the activity sentence names (:func:`subject_of` of
    the row by default). The revision rises by one per call, in one update of the head."""
    group_id = group if isinstance(group, str) else group.GroupId
    stored = _UNREAD if isinstance(group, str) else \
        (None if group.Revision is None else int(group.Revision))
    log = tx.count_with(ChangeLog(group_id, stored,
                                  head=None if isinstance(group, str) else group))
    if not isinstance(log, ChangeLog) or log.group_id != group_id:
        raise ValueError("one transaction records changes of one group")
    log._rows = None
    log.entries.append(_Entry(KINDS[type(row)], resource_id(row), row.SK, action, actor,
                              now_iso(), diff,
                              subject if subject is not None else subject_of(row),
                              request_reads.acts_by_link(actor),
                              None if action == CREATE else sorted_as(row)))


def sorted_as(row) -> Optional[str]:
    """The row's place in the cross-group projection as the writer read it, or None (not a
    projected kind, or a bare key model: the projector then looks the row up by group)."""
    try:
        return row.projected_sort() if hasattr(row, "projected_sort") else None
    except ValueError:
        return None


# --- what the activity feed shows ----------------------------------------------------------

def plain(value: Any) -> Any:
    """A stored value as JSON: maps with API-cased keys, Decimals as ints, lists as lists."""
    if isinstance(value, MapAttribute):
        value = value.attribute_values
    if isinstance(value, Mapping):
        return {name[:1].lower() + name[1:]: plain(v) for name, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [plain(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def diff_of(before: Mapping[str, Any], after: Mapping[str, Any]) -> list:
    """[{field, before, after}] for every field whose plain value differs."""
    diff = []
    for name in dict.fromkeys([*before, *after]):
        old, new = plain(before.get(name)), plain(after.get(name))
        if old != new:
            diff.append({"field": name, "before": old, "after": new})
    return diff


def subject_of(row) -> Dict[str, Any]:
    """What a sentence about the row names, from whatever attributes the row carries (never
    a person's name: participants are named from the roster when the feed is read)."""
    subject: Dict[str, Any] = {}
    if isinstance(row, Expense):
        subject = {"name": row.Description, "amount": row.Amount, "currency": row.Currency}
    elif isinstance(row, Settlement):
        subject = {"amount": row.Amount, "payerId": row.PayerId, "payeeId": row.PayeeId}
    elif isinstance(row, Comment):
        subject = {"expenseId": row.expense_id}
    elif isinstance(row, RecurringExpense) and row.Template is not None:
        subject = {"name": row.Template.Description, "amount": row.Template.Amount,
                   "currency": row.Currency}
    elif isinstance(row, Conversion):
        subject = {"currency": row.Currency, "exchangeRate": row.ExchangeRate}
    elif isinstance(row, Group):
        subject = {"name": row.Name}
    elif isinstance(row, Participant):
        subject = {"participantId": resource_id(row)}
    return {name: plain(value) for name, value in subject.items() if value is not None}


