"""Pairwise debts: who owes whom because of which row, before any simplification.

A row's pairwise debts answer "why do I owe Bo?" the way a user reads the row: each share
owes each payer in proportion to what that payer paid. For one row of ``amount`` with
payments ``paid_p`` and owed shares ``owed_s`` (both summing to ``amount``), share s owes
payer p ``floor(owed_s * paid_p / amount)`` or one more, chosen so that

* each share's debts sum exactly to what it owes, and
* each payer's credits sum exactly to what they paid,

so the debts of every row net, per participant, to exactly that row's paid - owed, and
the pairwise view always nets to the balances. After the floors, a share's leftover units
go one each to payers whose credit is not yet reached; among those, the payer still
furthest from their credit first, ties in payer list order. (Taking the furthest first is
Ryser's rule for filling a 0/1 matrix with given row and column sums: it always completes,
where plain list order can strand a share with fewer open payers than units left.)

An INCOME row (money the group received) runs the other way: each receiver owes each
share. A settlement is a debt of the payee to the payer. Debts between the same two
people are then netted per pair (:func:`net_pairs`) and never simplified further.

Pure integer arithmetic; participants are plain strings, so a household, an extra's
shares or a converted row's group amounts plug in as the (payments, owed) they produce."""
from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Sequence, Tuple

EXPENSE = "EXPENSE"
INCOME = "INCOME"
KINDS = (EXPENSE, INCOME)

# The two views of a group's balances: the fewest payments that settle every net, or these
# debts netted per pair.
SIMPLIFIED, PAIRWISE = "simplified", "pairwise"
VIEWS = (SIMPLIFIED, PAIRWISE)

Pair = Tuple[str, str]  # (debtor, creditor)
Debts = Dict[Pair, int]


def _merged(entries: Iterable[Tuple[str, int]]) -> List[Tuple[str, int]]:
    """Entries summed per participant, first appearance order kept, zeros dropped."""
    totals: Dict[str, int] = {}
    for pid, value in entries:
        totals[pid] = totals.get(pid, 0) + int(value)
    return [(pid, value) for pid, value in totals.items() if value]


def row_debts(payments: Sequence[Tuple[str, int]], owed: Sequence[Tuple[str, int]],
              kind: str = EXPENSE) -> Debts:
    """(debtor, creditor) -> minor units for one row; self-debts dropped.

    ``payments`` are (participantId, paid) in list order, ``owed`` (participantId, owed)
    per share (a participant named twice, e.g. in two items, is summed first); both must
    sum to the same amount. ``kind`` INCOME reverses every debt."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    payers, shares = _merged(payments), _merged(owed)
    amount = sum(value for _, value in payers)
    if amount != sum(value for _, value in shares):
        raise ValueError("payments and owed shares must sum to the same amount")
    if amount == 0:
        return {}
    cells = [[owed_s * paid_p // amount for _, paid_p in payers] for _, owed_s in shares]
    open_credit = [paid_p - sum(row[j] for row in cells) for j, (_, paid_p) in
                   enumerate(payers)]
    for i, (_, owed_s) in enumerate(shares):
        leftover = owed_s - sum(cells[i])
        # Furthest from their credit first, ties in list order (see the module docstring).
        order = sorted((j for j in range(len(payers)) if open_credit[j] > 0),
                       key=lambda j: (-open_credit[j], j))
        if leftover > len(order):  # pragma: no cover - impossible by Ryser's theorem
            raise AssertionError("pairwise rounding could not place a share's leftover")
        for j in order[:leftover]:
            cells[i][j] += 1
            open_credit[j] -= 1
    debts: Debts = {}
    for i, (share, _) in enumerate(shares):
        for j, (payer, _) in enumerate(payers):
            if share == payer or not cells[i][j]:
                continue
            pair = (share, payer) if kind == EXPENSE else (payer, share)
            debts[pair] = debts.get(pair, 0) + cells[i][j]
    return debts


def settlement_debts(payer_id: str, payee_id: str, amount: int) -> Debts:
    """A settlement: the payee now owes the payer what the payer handed over."""
    return {} if payer_id == payee_id or not amount else {(payee_id, payer_id): int(amount)}


def pair_key(a: str, b: str) -> Tuple[Pair, int]:
    """The canonical (low, high) id pair and the sign that turns "a owes b" into
    "low owes high"."""
    return ((a, b), 1) if a < b else ((b, a), -1)


def net_pairs(debts: Mapping[Pair, int]) -> Dict[Pair, int]:
    """Debts netted per pair: (low, high) -> what low owes high (negative: high owes low);
    zeros dropped."""
    netted: Dict[Pair, int] = {}
    for (debtor, creditor), amount in debts.items():
        if debtor == creditor:
            continue
        pair, sign = pair_key(debtor, creditor)
        netted[pair] = netted.get(pair, 0) + sign * int(amount)
    return {pair: value for pair, value in sorted(netted.items()) if value}


def add_pairs(total: Dict[Pair, int], more: Mapping[Pair, int], sign: int = 1) -> None:
    """Fold canonical pair amounts into ``total`` in place (``sign`` -1 takes them out)."""
    for pair, value in more.items():
        total[pair] = total.get(pair, 0) + sign * int(value)


def transfers(pairs: Mapping[Pair, int]) -> List[Tuple[str, str, int]]:
    """The netted pairs as payments (from, to, amount > 0), in pair order."""
    out = []
    for (low, high), value in sorted(pairs.items()):
        if value > 0:
            out.append((low, high, value))
        elif value < 0:
            out.append((high, low, -value))
    return out


def nets_of(pairs: Mapping[Pair, int]) -> Dict[str, int]:
    """Each participant's net (positive: is owed) implied by netted pairs: paying off every
    pair moves exactly these nets to zero."""
    nets: Dict[str, int] = {}
    for (low, high), value in pairs.items():
        nets[low] = nets.get(low, 0) - int(value)
        nets[high] = nets.get(high, 0) + int(value)
    return {pid: value for pid, value in sorted(nets.items()) if value}
