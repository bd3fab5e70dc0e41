"""Renaming one participant to another inside stored payments and itemised splits.

A transfer must not move a single minor unit between anyone but the source and the target,
so every rewrite keeps each split's stored owed amount: where only the source appears it is
renamed, and where both appear their payment amounts and owed amounts are summed into one
entry (at the earlier of the two positions, so the order others' rounding depended on is
kept). The split's ``value`` is rewritten so that re-resolving the item (a later partial
edit does) yields exactly the stored amounts: the mode is kept when summed values reproduce
them (SHARES and PERCENT weights, EXACT units), EQUAL becomes SHARES with the merged entry
weighing 2, and anything rounding would move falls back to EXACT with the owed amounts."""
from __future__ import annotations

from typing import List, Optional, Sequence

from app.errors import Invalid
from app.money.splits import resolve_item
from app.money.extras import participant_order
from models.groups import ExtraMap, ItemMap, PaymentMap, SplitMap


def _group(entry) -> Optional[int]:
    """A converted row's share in group minor units (None on other rows): summed alike."""
    value = getattr(entry, "GroupAmount", None)
    return None if value is None else int(value)


def _merged(entries: Sequence[tuple], source: str, target: str) -> Optional[List[list]]:
    """[pid, value, amount, groupAmount] rows with source folded into target; None if
    source is absent."""
    ids = [pid for pid, *_ in entries]
    if source not in ids:
        return None
    rows: List[list] = []
    at: Optional[int] = None
    for pid, value, amount, group in entries:
        if pid not in (source, target):
            rows.append([pid, value, amount, group])
        elif at is None:
            at = len(rows)
            rows.append([target, value, amount, group])
        else:
            rows[at][1] += value
            rows[at][2] += amount
            if group is not None:
                rows[at][3] = (rows[at][3] or 0) + group
    return rows


def merge_payments(payments: Sequence[PaymentMap], source: str,
                   target: str) -> Optional[List[PaymentMap]]:
    """The payments with the source's folded into the target's; None if the source paid nothing."""
    rows = _merged([(p.ParticipantId, 0, int(p.Amount), _group(p)) for p in payments or []],
                   source, target)
    if rows is None:
        return None
    return [PaymentMap(ParticipantId=pid, Amount=amount, GroupAmount=group)
            for pid, _, amount, group in rows]


def _values_for(mode: str, amount: int, rows: List[list], both: bool) -> tuple:
    """(mode, values) that re-resolve to the rows' owed amounts exactly."""
    owed = [row[2] for row in rows]
    if not both:
        return mode, [row[1] for row in rows]  # a plain rename resolves as it did
    if mode == "EQUAL":
        if len(rows) == 1:
            return "EQUAL", [0]
        # Each row weighs as many of the original equal splits as it stands for (2 merged).
        candidate = ("SHARES", [row[4] for row in rows])
    else:
        candidate = (mode, [row[1] for row in rows])
    try:
        splits = [(row[0], value) for row, value in zip(rows, candidate[1], strict=True)]
        if resolve_item(amount, candidate[0], splits) == owed:
            return candidate
    except Invalid:
        pass
    return "EXACT", owed


def merge_item(item: ItemMap, source: str, target: str) -> Optional[ItemMap]:
    """The item with the source's split folded into the target's; None if the source owes
    nothing here."""
    entries = [(s.ParticipantId, int(s.Value or 0), int(s.Amount), _group(s))
               for s in item.Splits or []]
    ids = [pid for pid, *_ in entries]
    rows = _merged(entries, source, target)
    if rows is None:
        return None
    both = target in ids
    if both and item.SplitMode == "EQUAL":
        for row in rows:
            row.append(2 if row[0] == target else 1)
    mode, values = _values_for(item.SplitMode, int(item.Amount), rows, both)
    return ItemMap(Name=item.Name, Amount=int(item.Amount), SplitMode=mode,
                   Splits=[SplitMap(ParticipantId=row[0], Value=value, Amount=row[2],
                                    GroupAmount=row[3])
                           for row, value in zip(rows, values, strict=True)])


def merge_body(payments: Sequence[PaymentMap], items: Sequence[ItemMap], source: str,
               target: str) -> Optional[tuple]:
    """(payments, items) with the source folded into the target, or None if it names no source."""
    new_payments = merge_payments(payments, source, target)
    new_items = [merge_item(item, source, target) for item in items or []]
    if new_payments is None and all(item is None for item in new_items):
        return None
    return (new_payments if new_payments is not None else list(payments or []),
            [new or old for new, old in zip(new_items, items or [], strict=False)])


def merge_extras(items: Sequence[ItemMap], extras: Optional[Sequence[ExtraMap]], source: str,
                 target: str) -> Optional[List[ExtraMap]]:
    """The extras with the source's shares folded into the target's. Their shares are aligned
    with the items' participant order; folding the items keeps the merged entry at the
    earlier of the two first appearances, and so does this."""
    if not extras:
        return None
    order = participant_order([(s.ParticipantId, 0) for s in item.Splits or []]
                              for item in items or [])
    merged = []
    for extra in extras:
        groups = getattr(extra, "GroupShares", None)
        rows = _merged([(pid, 0, int(share), None if groups is None else int(groups[k]))
                        for k, (pid, share) in enumerate(zip(order, extra.Shares,
                                                             strict=True))], source, target)
        if rows is None:
            merged.append(extra)
            continue
        merged.append(ExtraMap(Name=extra.Name, Amount=int(extra.Amount),
                               Shares=[row[2] for row in rows],
                               **({} if groups is None else
                                  {"GroupShares": [row[3] for row in rows]})))
    return merged
