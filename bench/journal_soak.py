"""Journal soak and cost: kill separate referee processes many times; time durable appends.

Run: ``.venv/bin/python bench/journal_soak.py [--kills 1000]``

1. Soak: start ``python -m tests.support.journal_writer`` as a separate process (full
   interpreter start, as after a real crash), let it acknowledge a random number of actions,
   SIGKILL it at a random moment, resume, and count acknowledged actions lost (must be 0).
2. Cost: appends per second of :class:`companion.journal.Journal` (write + fsync per record)
   side by side with the baseline of the same records written without fsync.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.journal import Journal, encode_record  # noqa: E402
from companion.session import Session  # noqa: E402
from tests.support import countdown  # noqa: E402


def soak(kills: int, seed: int) -> None:
    countdown.register()
    rng = random.Random(seed)
    lost = resumes = acked_total = 0
    resume_times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "soak.journal"
        for kill in range(kills):
            writer = subprocess.Popen(
                [sys.executable, "-m", "tests.support.journal_writer", str(path), str(kill)],
                cwd=ROOT, stdout=subprocess.PIPE, text=True)
            assert writer.stdout is not None
            wanted = rng.randint(0, 8)
            acks = []
            while len(acks) < wanted:
                line = writer.stdout.readline()
                if not line:
                    break
                acks.append(int(line.split()[1]))
            time.sleep(rng.random() * 0.003)
            writer.send_signal(signal.SIGKILL)
            rest, _ = writer.communicate()
            acks += [int(line.split()[1]) for line in rest.splitlines() if line.startswith("ack")]
            acked_total += len(acks)
            if not path.exists() or path.stat().st_size == 0:
                continue
            started = time.perf_counter()
            with Session.resume(path) as session:
                resume_times.append(time.perf_counter() - started)
                resumes += 1
                if acks and len(session.record) < acks[-1]:
                    lost += acks[-1] - len(session.record)
    print(f"soak: {kills} SIGKILLs of separate writer processes, {acked_total} acknowledged "
          f"actions, {resumes} resumes, {lost} acknowledged actions lost")
    if resume_times:
        print(f"soak: resume time median {statistics.median(resume_times) * 1000:.2f} ms, "
              f"max {max(resume_times) * 1000:.2f} ms")


def append_cost(records: int) -> None:
    record = {"type": "action", "n": 1, "action": "move Ben W1 Y1", "source": "camera"}
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        with Journal.create(Path(folder) / "a.journal", {"game": "infinifield"}) as journal:
            for _ in range(records):
                journal.append(record)
        durable = time.perf_counter() - started
        started = time.perf_counter()
        with open(Path(folder) / "b.journal", "ab") as handle:
            for _ in range(records):
                handle.write(encode_record(record))
                handle.flush()
            os.fsync(handle.fileno())
        baseline = time.perf_counter() - started
    print(f"append: journal (fsync per record) {records / durable:,.0f} records/s; "
          f"baseline buffered writes without per-record fsync {records / baseline:,.0f} "
          f"records/s; ratio {durable / baseline:.1f}x slower for durability")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=300)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    append_cost(args.records)
    soak(args.kills, args.seed)


if __name__ == "__main__":
    main()
