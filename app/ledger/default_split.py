"""A group's default split: how a create that names nobody to share its amount shares it.

``PATCH /groups/{groupId}`` stores it on the head (``Group.DefaultSplit``: EQUAL, SHARES or
PERCENT over named participants); every create reads the head that authorized it, so
:func:`applied` costs no read. A create "names nobody" when it sends an amount but neither
items nor a split mode nor splits; it then records the default's mode and splits, and its
reply shows them resolved like any other. Participants added later take no share until the
default names them.

The default stays exact as the roster shrinks: whatever removes a participant (a removal, a
leave, a guest merged away by a transfer) rewrites the default in the same TransactWrite
(:func:`after_leaving`), so a create that names nobody never names someone who is gone."""
from __future__ import annotations

from typing import Any, Iterable, List, Optional, Tuple

from app.errors import Invalid
from app.ledger.expense_input import ExpenseInput, SplitInput
from app.money.splits import DEFAULT_SPLIT_MODES as MODES, resolve_item
from models.groups import DefaultShareMap, DefaultSplitMap
NO_DEFAULT = ("splitMode and splits are required: this group has no defaultSplit "
              "(PATCH /groups/{groupId}).")


def names_nobody(expense: ExpenseInput) -> bool:
    """An amount with no items, split mode or splits: what the group's default completes."""
    return (expense.amount is not None and expense.items is None
            and expense.split_mode is None and expense.splits is None)


def applied(default: Optional[DefaultSplitMap], expense: ExpenseInput) -> ExpenseInput:
    """``expense`` completed by the group's default split when it names nobody (as is
    otherwise); Invalid when it names nobody and the group has no default."""
    if not names_nobody(expense):
        return expense
    if default is None:
        raise Invalid(NO_DEFAULT, details={"splits": [NO_DEFAULT]})
    return expense.with_(split_mode=default.SplitMode,
                         splits=tuple(SplitInput(s.ParticipantId, _int(s.Value))
                                      for s in default.Splits))


def stored(mode: str, splits: Iterable[Tuple[str, Any]],
           roster: Iterable[str]) -> DefaultSplitMap:
    """A default split checked as an item of it would be (distinct participants, SHARES
    at least 1, PERCENT summing to 10000 basis points), naming only roster participants;
    Invalid otherwise."""
    entries: List[Tuple[str, Any]] = list(splits)
    if mode not in MODES:
        raise Invalid(f"defaultSplit.splitMode must be one of {', '.join(MODES)}.",
                      details={"defaultSplit.splitMode": [f"One of {', '.join(MODES)}."]})
    known = set(roster)
    for n, (pid, _) in enumerate(entries):
        if pid not in known:
            message = f"defaultSplit names {pid}, not a participant of this group."
            raise Invalid(message, details={f"defaultSplit.splits[{n}].participantId":
                                            [message]})
    try:
        resolve_item(PROBE_AMOUNT, mode, entries)
    except Invalid as error:
        field = f"defaultSplit.{error.details.get('field') or 'splits'}"
        raise Invalid(error.message, details={field: [error.message]}) from None
    return DefaultSplitMap(SplitMode=mode, Splits=[
        DefaultShareMap(ParticipantId=pid, Value=None if mode == "EQUAL" else value)
        for pid, value in entries])


def after_leaving(default: Optional[DefaultSplitMap], participant_id: str, *,
                  heir: Optional[str] = None) -> Tuple[bool, Optional[DefaultSplitMap]]:
    """(changed, the default once ``participant_id`` has left the group): unchanged when it
    does not name them. ``heir``: the participant a transfer merges them into, who takes
    their place (and, when already named, their weight: SHARES and PERCENT add up; EQUAL
    keeps one entry). Without an heir the others keep their proportions: EQUAL and SHARES
    drop the entry; PERCENT, whose rest no longer sums to 100%, becomes SHARES weighted by
    the remaining basis points (the same proportions, exactly; 0% entries, which took
    nothing, go). Nobody left with a share: no default (None)."""
    if default is None or all(s.ParticipantId != participant_id for s in default.Splits):
        return False, default
    mode = default.SplitMode
    entries = [(s.ParticipantId, _int(s.Value)) for s in default.Splits]
    if heir is not None:
        merged: dict = {}
        for pid, value in entries:
            pid = heir if pid == participant_id else pid
            if pid in merged and mode != "EQUAL":
                merged[pid] = merged[pid] + value
            else:
                merged.setdefault(pid, value)
        rest = list(merged.items())
    else:
        rest = [(pid, value) for pid, value in entries if pid != participant_id]
        if mode == "PERCENT":
            mode, rest = "SHARES", [(pid, value) for pid, value in rest if value]
    if not rest:
        return True, None
    return True, DefaultSplitMap(SplitMode=mode, Splits=[
        DefaultShareMap(ParticipantId=pid, Value=None if mode == "EQUAL" else value)
        for pid, value in rest])


def same(one: Optional[DefaultSplitMap], other: Optional[DefaultSplitMap]) -> bool:
    """True when two stored defaults are the same (both absent, or equal maps)."""
    return (None if one is None else one.as_dict()) == \
        (None if other is None else other.as_dict())


# Any amount checks a default's shape (resolve_item judges the values, not the amount).
PROBE_AMOUNT = 10_000


def _int(value: Any) -> Optional[int]:
    return None if value is None else int(value)
