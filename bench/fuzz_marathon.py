"""A long fuzz run over everything the companion reads; prints counts and every finding.

Run: ``.venv/bin/python bench/fuzz_marathon.py [--minutes 10] [--seed 1] [--save DIR]``

The same targets as ``tests/fuzz/test_fuzz.py`` (setup files of every game, the app's own
files, records through the referee command, journals, serial frames), in rounds until the
time is up, each round with a fresh seed derived from ``--seed``. For each target it prints
the inputs run, how many were accepted, how many were refused with a clear error, and the
findings (tracebacks, errors that do not name their file or echo the input, lost records),
one line per distinct problem. With ``--save`` each finding's input is written there to
replay. Exit status 1 when there is any finding.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fuzz.targets import TARGETS, Report  # noqa: E402

ROUND = {"setup_files": 400, "cli_setup": 100, "app_files": 400, "records": 60, "journals": 250,
         "serial": 1000}
"""Inputs per target per round (a round takes about 20 s on one core)."""


def main() -> int:
    """Fuzz until the time is up; print the counts; 1 if anything was found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write each finding's input here")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    totals = {name: Report(name) for name in TARGETS}
    end = time.monotonic() + args.minutes * 60
    started = time.monotonic()
    rounds = 0
    while time.monotonic() < end:
        for name, target in TARGETS.items():
            rng = random.Random(f"marathon/{args.seed}/{rounds}/{name}")
            totals[name].add(target(rng, ROUND[name]))
        rounds += 1
        done = sum(report.inputs for report in totals.values())
        print(f"round {rounds}: {done} inputs, "
              f"{sum(len(r.findings) for r in totals.values())} findings, "
              f"{time.monotonic() - started:.0f} s", flush=True)
    print(f"\n{rounds} round(s), seed {args.seed}, {time.monotonic() - started:.0f} s")
    for report in totals.values():
        print(report.line())
    print(f"{'all':12s} {sum(r.inputs for r in totals.values()):7d} inputs")
    found = [finding for report in totals.values() for finding in report.findings]
    distinct: dict[str, int] = {}
    for finding in found:
        key = f"{finding.target}: {finding.case}: {finding.problem.strip().splitlines()[-1]}"
        distinct[key] = distinct.get(key, 0) + 1
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            digest = hashlib.sha1(finding.data).hexdigest()[:12]
            (args.save / f"{finding.target}-{digest}.bin").write_bytes(finding.data)
    for key, times in sorted(distinct.items()):
        print(f"  {times:5d} x {key[:300]}")
    kept = sorted({entry.split(" -> ")[0] for entry in totals["setup_files"].misspelt_accepted})
    if kept:
        print("keys whose single misspelling was accepted (names the players chose, or a "
              "finding):")
        for entry in kept:
            print(f"  {entry}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
