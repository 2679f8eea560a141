"""Journal soak and cost: kill separate referee processes many times; time durable appends.

Run: ``.venv/bin/python bench/journal_soak.py [--kills 1000]``

1. Soak: start ``python -m tests.support.journal_writer`` as a separate process (full
   interpreter start, as after a real crash), let it acknowledge a random number of actions,
   SIGKILL it at a random moment, resume, and count acknowledged actions lost (must be 0).
2. Cost: appends per second of :class:`companion.journal.Journal` (write + fsync per record)
   side by side with the baseline of the same records written without fsync.
3. Disk full (``--full-cycles N``, root only: a real 256 KiB tmpfs): fill the disk, play
   until an action comes back "not recorded", make room, enter it again; after every cycle
   resume the journal in a new session and count actions lost (must be 0), and try a second
   writer (must be refused while the first holds the journal).
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


def disk_full(cycles: int, seed: int) -> None:
    from companion.journal import JournalLocked
    from companion.session import NOT_RECORDED
    from tests.support.small_disk import fill, mounted

    countdown.register()
    rng = random.Random(seed)
    with mounted(256) as disk:
        if disk is None:
            print("disk full: skipped (mounting a tmpfs needs root)")
            return
        path = disk / "full.journal"
        session = Session.new(countdown.GAME, {"setup": ("c.toml", "pile = 100000000\n")},
                              seed=seed, journal_path=path)
        missed = accepted = lost = locked_out = turn = done = 0
        for _cycle in range(cycles):
            if path.stat().st_size > 180_000:  # the journal alone nearly fills the disk
                break
            done += 1
            filler = fill(disk, leave=rng.randrange(0, 3000))
            while True:
                turn += 1
                text = (f"roll {rng.randint(1, 6)}" if session.is_chance() else
                        f"take {'Ann' if turn % 2 else 'Bea'} 1")
                verdict = session.propose(text)
                if verdict.code == NOT_RECORDED:
                    missed += 1
                    break
                accepted += verdict.legal
            filler.unlink()
            if not session.propose(verdict.action).legal:
                lost += 1
            accepted += 1
            try:
                Session.resume(path).close()
            except JournalLocked:
                locked_out += 1
            history = session.history
            session.close()
            session = Session.resume(path)
            lost += abs(len(history) - len(session.record))
        session.close()
        size = path.stat().st_size
    print(f"disk full: {done} cycles on a 256 KiB tmpfs, {accepted} actions recorded, "
          f"{missed} reported 'not recorded' and entered again once there was room, "
          f"{locked_out} second writers refused, {lost} actions lost; journal {size:,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=300)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--full-cycles", type=int, default=0,
                        help="disk-full cycles on a real tmpfs (needs root)")
    args = parser.parse_args()
    append_cost(args.records)
    soak(args.kills, args.seed)
    if args.full_cycles:
        disk_full(args.full_cycles, args.seed)


if __name__ == "__main__":
    main()
