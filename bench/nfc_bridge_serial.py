"""NFC bridge serial figures: fuzz throughput and reconnect times, each against a baseline.

Run: ``.venv/bin/python bench/nfc_bridge_serial.py [--replugs 100]``

1. Fuzz throughput: the issue's fuzz stream (10 MB of random bytes + 100,000 mutated frames
   mixed with valid frames) through a pty into ``BridgeReader`` (decoding, checking, handing
   over every message). Baseline, same run: the same number of bytes through a pty into a
   plain pyserial reader that only discards them (the line's own cost).
2. Reconnect: the pty is closed and recreated ``--replugs`` times; time from the new port
   appearing to the firmware's hello being delivered. Baseline, same run: opening the pty
   with pyserial directly (no discovery, no retry, no handshake).
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import serial

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.messages import Hello, LinkStatus, Message
from firmware_bridge.ports import fixed_port
from firmware_bridge.reader import BridgeReader
from tests.firmware_bridge.pty_pico import PtyPico
from tests.firmware_bridge.test_serial_fuzz import run_fuzz


def raw_pty_throughput(total: int) -> float:
    """Bytes per second through a pty into a pyserial reader that decodes nothing."""
    master, slave = os.openpty()
    port = serial.Serial(os.ttyname(slave), timeout=0.05)
    received = 0

    def drain() -> None:
        nonlocal received
        while received < total:
            received += len(port.read(max(1, port.in_waiting)))

    thread = threading.Thread(target=drain)
    chunk = os.urandom(8192)
    started = time.perf_counter()
    thread.start()
    sent = 0
    while sent < total:
        sent += os.write(master, chunk[: min(len(chunk), total - sent)])
    thread.join()
    elapsed = time.perf_counter() - started
    port.close()
    os.close(master)
    os.close(slave)
    return total / elapsed


def reconnect_times(folder: Path, replugs: int) -> list[float]:
    inbox: queue.Queue[Message] = queue.Queue()
    pico = PtyPico(folder / "infinite-nfc")
    pico.plug()

    def wait(kind: type, deadline: float) -> bool:
        while time.monotonic() < deadline:
            try:
                if isinstance(inbox.get(timeout=0.05), kind):
                    return True
            except queue.Empty:
                pass
        return False

    times = []
    with BridgeReader(fixed_port(str(pico.symlink)), on_message=inbox.put,
                      retry_interval=0.05):
        assert wait(Hello, time.monotonic() + 5)
        for _ in range(replugs):
            pico.unplug()
            assert wait(LinkStatus, time.monotonic() + 2)
            pico.plug()
            if not wait(Hello, pico.plugged_at + 10):
                raise SystemExit("no reconnect within 10 s")
            times.append(time.monotonic() - pico.plugged_at)
    pico.unplug()
    return times


def direct_open_times(count: int) -> list[float]:
    times = []
    for _ in range(count):
        master, slave = os.openpty()
        started = time.monotonic()
        serial.Serial(os.ttyname(slave), timeout=0.05).close()
        times.append(time.monotonic() - started)
        os.close(master)
        os.close(slave)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replugs", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        fuzz = run_fuzz(Path(folder) / "infinite-nfc")
    baseline = raw_pty_throughput(int(fuzz["bytes"]))
    rate = fuzz["bytes"] / fuzz["seconds"]
    print(f"fuzz: {fuzz['bytes'] / 1e6:.1f} MB, {fuzz['valid']:.0f} valid frames delivered, "
          f"{fuzz['rejected']:.0f} segments rejected, {fuzz['oversize']:.0f} oversize runs, "
          f"in {fuzz['seconds']:.2f} s = {rate / 1e6:.2f} MB/s")
    print(f"baseline raw pty + pyserial read, no decoding: {baseline / 1e6:.2f} MB/s; "
          f"ratio bridge/raw = {rate / baseline:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        times = reconnect_times(Path(folder), args.replugs)
    direct = direct_open_times(args.replugs)
    ordered = sorted(times)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    print(f"reconnect after replug ({len(times)}x, plug -> hello delivered): "
          f"min {min(times) * 1e3:.0f} ms, median {statistics.median(times) * 1e3:.0f} ms, "
          f"p95 {p95 * 1e3:.0f} ms, max {max(times) * 1e3:.0f} ms (limit 2000 ms)")
    print(f"baseline direct pyserial open of a pty: median "
          f"{statistics.median(direct) * 1e3:.2f} ms; ratio median reconnect/direct open = "
          f"{statistics.median(times) / statistics.median(direct):.0f}")


if __name__ == "__main__":
    main()
