"""Infinity exact odds benchmark: the closed form against naive enumeration of every roll.

For Burst 1..6 on the active side against Burst 1 (a Face to Face Roll with Damage, ARM and
Partial Cover, so the hits, Criticals, nobody and Wounds tables are all computed), times the
full odds with :func:`exchange_odds` (best of ``--repeat`` runs) and, side by side in the same
run, the named baseline: :func:`brute_force_odds`, which resolves each of the 20^(B+1) rolls
through the engine's Face to Face rules, then every ARM die of every hit (Burst 1-3 by
default; Burst 4 takes minutes and beyond that hours). Prints both times, the ratio, and
whether the two tables are equal. Target: every case under 10 ms.

Usage:
    .venv/bin/python bench/infinity_odds.py [--repeat 20] [--naive-max-burst 3]
        [--active 15] [--reactive 12]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from companion.games.infinity.odds import ExchangeOdds, Side, brute_force_odds, exchange_odds

TARGET_MS = 10.0


def best_time(function: Callable[[], ExchangeOdds], repeat: int) -> tuple[float, ExchangeOdds]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - started)
    assert result is not None
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs of the fast method")
    parser.add_argument("--naive-max-burst", type=int, default=3,
                        help="largest Burst for which the naive enumeration runs")
    parser.add_argument("--active", type=int, default=15, help="active target value")
    parser.add_argument("--reactive", type=int, default=12, help="reactive target value")
    args = parser.parse_args()
    print(f"active target {args.active} - 3 (the reactive trooper is in Partial Cover), "
          f"Damage 13, ARM 1; reactive target {args.reactive}, Damage 13, ARM 1+3")
    print(f"{'burst':>5} {'rolls':>14} {'exact ms':>10} {'naive ms':>12} {'ratio':>10} "
          f"{'equal':>6} {'<10ms':>6}")
    worst = 0.0
    for burst in range(1, 7):
        active = Side(args.active - 3, burst, 13, 1)
        reactive = Side(args.reactive, 1, 13, 4)
        fast, odds = best_time(partial(exchange_odds, active, reactive), args.repeat)
        worst = max(worst, fast)
        rolls = 20 ** (burst + 1)
        if burst <= args.naive_max_burst:
            naive, baseline = best_time(partial(brute_force_odds, active, reactive), 1)
            naive_text = f"{naive * 1000:12.1f}"
            ratio = f"{naive / fast:9.0f}x"
            equal = "yes" if baseline == odds else "NO"
        else:
            naive_text, ratio, equal = f"{'(skipped)':>12}", f"{'-':>10}", "-"
        print(f"{burst:>5} {rolls:>14,} {fast * 1000:10.3f} {naive_text} {ratio} {equal:>6} "
              f"{'yes' if fast * 1000 < TARGET_MS else 'NO':>6}")
    print(f"slowest exact case: {worst * 1000:.3f} ms (target {TARGET_MS:g} ms)")


if __name__ == "__main__":
    main()
