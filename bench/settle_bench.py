"""Settle-up benchmark: `.venv/bin/python bench/settle_bench.py` from the repo root.

Prints, for seeded random groups of 10, 20 and 1,000 participants, how long settle_up
takes and how many payments it proposes next to greedy_plan, for balances in multiples of
500 minor units (many zero-sum subgroups) and for arbitrary amounts (almost none). Then the
share of random 10-person groups where greedy needs more payments than the optimum, and
the worst case the exact search is built for: 20 balances with no opposite pairs.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.money.settle import EXACT_LIMIT, exact_plan, greedy_plan, settle_up

REPEATS = 5


def random_nets(rng: random.Random, n: int, multiples_of_500: bool) -> dict[str, int]:
    if multiples_of_500:
        values = [500 * rng.randint(-20, 20) for _ in range(n - 1)]
    else:
        values = [rng.randint(-500_000, 500_000) for _ in range(n - 1)]
    values.append(-sum(values))
    return {f"p{i:04d}": v for i, v in enumerate(values)}


def unpaired_nets(rng: random.Random, n: int) -> dict[str, int]:
    """n non-zero balances, no x / -x pairs: nothing for the pre-pass to remove."""
    while True:
        values = [rng.randint(-10**8, 10**8) for _ in range(n - 1)]
        values.append(-sum(values))
        if 0 not in values and not any(-v in values for v in values):
            return {f"p{i:02d}": v for i, v in enumerate(values)}


def best_time(fn, nets) -> tuple[float, list]:
    """Best of REPEATS wall-clock runs in ms (the least noisy single-run estimate)."""
    best, plan = float("inf"), []
    for _ in range(REPEATS):
        start = time.perf_counter()
        plan = fn(nets)
        best = min(best, time.perf_counter() - start)
    return best * 1000, plan


def main() -> None:
    rng = random.Random(2026)
    print(f"settle_up (exact up to {EXACT_LIMIT} unpaired balances, greedy beyond); "
          f"best of {REPEATS} runs")
    print(f"{'participants':>12}  {'amounts':<12} {'settle_up ms':>12} {'payments':>9} "
          f"{'greedy':>7} {'greedy ms':>10}")
    for n in (10, 20, 1000):
        for multiples in (True, False):
            nets = random_nets(rng, n, multiples)
            ms, plan = best_time(settle_up, nets)
            greedy_ms, greedy = best_time(greedy_plan, nets)
            label = "x500" if multiples else "arbitrary"
            print(f"{n:>12}  {label:<12} {ms:>12.2f} {len(plan):>9} {len(greedy):>7} "
                  f"{greedy_ms:>10.2f}")

    print()
    times = []
    for _ in range(10):
        nets = unpaired_nets(rng, 20)
        ms, plan = best_time(exact_plan, nets)
        times.append(ms)
    print(f"exact_plan, 20 unpaired arbitrary balances (10 groups): "
          f"median {sorted(times)[5]:.2f} ms, max {max(times):.2f} ms")
    # Small amounts without opposite pairs: ~10^5 zero-sum subsets, the slow case.
    dense = {f"p{i:02d}": v for i, v in enumerate([1] * 14 + [-2] * 4 + [-3] * 2)}
    ms, plan = best_time(exact_plan, dense)
    print(f"exact_plan, 20 balances 14x(+1) 4x(-2) 2x(-3) (dense zero-sum subsets): "
          f"{ms:.2f} ms, {len(plan)} payments")

    print()
    groups, worse, extra = 200, 0, 0
    for _ in range(groups):
        nets = random_nets(rng, 10, True)
        gap = len(greedy_plan(nets)) - len(exact_plan(nets))
        worse += gap > 0
        extra += gap
    print(f"10-person groups with x500 balances where greedy needs more payments than "
          f"exact: {worse}/{groups} = {worse / groups:.1%} ({extra} extra payments in all)")


if __name__ == "__main__":
    main()
