"""Settle-up plans: who pays whom so that every net balance ends at zero.

A net is paid - owed (+ settlements): positive = is owed money, negative = owes.
A transfer (a, b, x) means a pays b x minor units; it raises a's net by x and lowers b's.

The fewest payments that settle a set of non-zero balances is
    (number of non-zero balances) - (max number of disjoint zero-sum groups covering them),
because a group of k balances that sums to zero can always be settled with k - 1
payments and never with fewer. Finding that maximum is NP-hard, so `exact_plan` is
exponential in the number of balances; `settle_up` only uses it up to EXACT_LIMIT
balances and falls back to greedy matching beyond.

Pure Python, no numpy: the subset DP runs on big-int bitsets (one bit per subset), so
each DP step is a handful of C-level operations over 2^n bits rather than 2^n
interpreter steps.
"""
from __future__ import annotations

import heapq
from collections import defaultdict
from typing import Mapping

EXACT_LIMIT = 20
# exact_plan refuses more balances than this: each bitset holds 2^n bits (2 MB at 24).
EXACT_HARD_LIMIT = 24

Transfer = tuple[str, str, int]


def _checked(nets: Mapping[str, int]) -> dict[str, int]:
    """Validate nets and return the non-zero ones, keyed in participant-id order."""
    for pid, net in nets.items():
        if not isinstance(net, int) or isinstance(net, bool):
            raise ValueError(f"net of {pid!r} must be an int, got {net!r}")
    total = sum(nets.values())
    if total != 0:
        raise ValueError(f"nets must sum to 0, they sum to {total}")
    # Sorting by id here is what makes every plan independent of dict order.
    return {pid: nets[pid] for pid in sorted(nets) if nets[pid] != 0}


def _greedy(nets: dict[str, int]) -> list[Transfer]:
    """Largest debtor pays largest creditor the smaller of the two; ties by id.

    Each payment zeroes at least one balance (the last one zeroes two), so k non-zero
    balances take at most k - 1 payments.
    """
    debtors = [(net, pid) for pid, net in nets.items() if net < 0]  # most negative first
    creditors = [(-net, pid) for pid, net in nets.items() if net > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    plan: list[Transfer] = []
    while debtors and creditors:
        debt, debtor = heapq.heappop(debtors)
        credit, creditor = heapq.heappop(creditors)
        amount = min(-debt, -credit)
        plan.append((debtor, creditor, amount))
        if debt + amount:
            heapq.heappush(debtors, (debt + amount, debtor))
        if credit + amount:
            heapq.heappush(creditors, (credit + amount, creditor))
    return plan


def _pair_off(nets: dict[str, int]) -> tuple[list[Transfer], dict[str, int]]:
    """Settle exact opposites (x and -x) with one payment each; return the rest.

    Exchange argument: in any optimal partition into zero-sum groups, if x and -x sit in
    groups A and B, then {x, -x} and (A | B) - {x, -x} is another partition with at least
    as many groups. So pairing them first never costs a payment, and it shrinks the
    exponential search. Holders of the same amount are paired in id order.
    """
    by_amount: dict[int, list[str]] = defaultdict(list)
    for pid, net in nets.items():  # already in id order
        by_amount[net].append(pid)
    plan: list[Transfer] = []
    paired: set[str] = set()
    for amount in sorted(a for a in by_amount if a > 0):
        for creditor, debtor in zip(by_amount[amount], by_amount.get(-amount, ()), strict=False):
            plan.append((debtor, creditor, amount))
            paired.update((creditor, debtor))
    rest = {pid: net for pid, net in nets.items() if pid not in paired}
    return plan, rest


def _zero_sum_masks(values: list[int]) -> list[int]:
    """Every non-empty subset (bit i = values[i]) with sum 0, ascending.

    Meet in the middle: 2 * 2^(n/2) subset sums plus one dict lookup each, instead of
    summing all 2^n subsets.
    """
    half = len(values) // 2

    def subset_sums(vals: list[int]) -> list[int]:
        sums = [0]
        for v in vals:  # index m = subset with bits m, built by doubling
            sums += [s + v for s in sums]
        return sums

    left: dict[int, list[int]] = defaultdict(list)
    for mask, s in enumerate(subset_sums(values[:half])):
        left[s].append(mask)
    found = []
    for high, s in enumerate(subset_sums(values[half:])):
        for low in left.get(-s, ()):
            found.append(low | (high << half))
    found.sort()
    return found[1:]  # drop the empty set (mask 0 always sums to 0 and sorts first)


def _max_zero_sum_partition(values: list[int]) -> list[int]:
    """Masks of a partition of all values into the most zero-sum groups.

    dp[M] = max number of disjoint non-empty zero-sum subsets inside M satisfies
    dp[M] = max_i dp[M - i] + (1 if sum(M) == 0 else 0), i.e. dp[M] is the longest
    chain Z1 < Z2 < ... < Zk <= M of zero-sum subsets. So instead of 2^n table cells
    we compute, level by level, the set T_k of zero-sum masks with dp >= k:
        T_1 = zero-sum masks,  T_k = zero-sum masks with a proper subset in T_(k-1).
    Each T_k is a 2^n-bit int; "has a proper subset in T" is an upward closure done
    with n shift/and/or operations on those ints. dp(full set) = the last non-empty k.
    """
    n = len(values)
    if n == 0:
        return []
    size = 1 << n
    full = size - 1
    zero_masks = _zero_sum_masks(values)

    zero_bits = bytearray(size // 8 + 1)
    for m in zero_masks:
        zero_bits[m >> 3] |= 1 << (m & 7)
    zero_set = int.from_bytes(zero_bits, "little")

    # without[i] has bit m set iff subset m does not contain element i.
    without = []
    for i in range(n):
        step = 1 << i
        pattern, width = (1 << step) - 1, 2 * step
        while width < size:
            pattern |= pattern << width
            width *= 2
        without.append(pattern)

    def strict_supersets(bits: int) -> int:
        """Masks with a proper subset in `bits`: add one element, then close upward."""
        grown = 0
        for i in range(n):
            grown |= (bits & without[i]) << (1 << i)
        for i in range(n):
            grown |= (grown & without[i]) << (1 << i)
        return grown

    levels = [zero_set]  # levels[k - 1] = T_k
    while True:
        nxt = zero_set & strict_supersets(levels[-1])
        if not nxt:
            break
        levels.append(nxt)

    # Walk down the chain from the full set: at level j the current zero-sum mask M has
    # dp >= j, so it has a proper zero-sum subset S in T_(j-1); M - S is one group.
    level_bytes = [t.to_bytes(size // 8 + 1, "little") for t in levels]
    groups = []
    current = full
    for j in range(len(levels), 1, -1):
        below = level_bytes[j - 2]
        for s in zero_masks:
            if s != current and s & current == s and below[s >> 3] >> (s & 7) & 1:
                groups.append(current ^ s)
                current = s
                break
        else:  # pragma: no cover - impossible by the dp invariant
            raise AssertionError("zero-sum partition reconstruction failed")
    groups.append(current)
    return groups


def greedy_plan(nets: dict[str, int]) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor, repeatedly; at most n - 1 payments."""
    return _greedy(_checked(nets))


def _exact(pairs: list[Transfer], rest: dict[str, int]) -> list[Transfer]:
    """Optimal plan: the opposite-pair payments, then each zero-sum group settled greedily."""
    plan = list(pairs)
    if len(rest) > EXACT_HARD_LIMIT:
        raise ValueError(f"exact_plan handles at most {EXACT_HARD_LIMIT} unpaired "
                         f"balances, got {len(rest)}; use settle_up")
    ids = list(rest)
    values = [rest[pid] for pid in ids]
    for mask in _max_zero_sum_partition(values):
        group = {ids[i]: values[i] for i in range(len(ids)) if mask >> i & 1}
        plan.extend(_greedy(group))
    return plan


def exact_plan(nets: dict[str, int]) -> list[tuple[str, str, int]]:
    """A plan with the minimum possible number of payments (exponential in n)."""
    return _exact(*_pair_off(_checked(nets)))


def settle_up(nets: dict[str, int]) -> list[tuple[str, str, int]]:
    """The plan served by GET /balances: optimal when small enough, greedy otherwise."""
    checked = _checked(nets)
    pairs, rest = _pair_off(checked)
    if len(rest) <= EXACT_LIMIT:
        return _exact(pairs, rest)
    # Too many balances for the exact search: pair off opposites, match the rest
    # greedily, and keep plain greedy if that happens to be shorter.
    paired_plan = pairs + _greedy(rest)
    greedy = _greedy(checked)
    return paired_plan if len(paired_plan) <= len(greedy) else greedy
