"""Launch the app many times as systemd would and count launches that show no window.

Issue 14 ("A blank screen"): about 1 launch in 25 under Xvfb came up with the main loop
running but no window. Each launch here runs ``companion.app.main`` with ``NOTIFY_SOCKET``
set, waits for ``READY=1``, and then asks the X server whether the app's window exists and
is viewable (``xwininfo``), at READY and again a second later. A launch that never says
READY within the timeout counts as "no READY" (systemd would restart it after
``TimeoutStartSec``), which is the right outcome for a launch that shows nothing.

Run under a virtual screen, e.g.::

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/kiosk_launches.py --launches 50

``--tree DIR`` launches another checkout of the app (the baseline: e.g. a ``git worktree``
of the commit before the fix), so both can be counted in the same run.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TITLE = "Infinite Table Companion"


def window_state() -> str:
    """``viewable``, ``unmapped`` or ``missing`` for the app's top-level window."""
    result = subprocess.run(["xwininfo", "-name", TITLE], capture_output=True, text=True,
                            timeout=10)
    if result.returncode != 0:
        return "missing"
    return "viewable" if "IsViewable" in result.stdout else "unmapped"


def launch(tree: Path, timeout: float) -> dict[str, object]:
    """One launch: time to READY and the window's state at READY and one second later."""
    with tempfile.TemporaryDirectory() as tmp:
        sock_path = Path(tmp) / "notify"
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(str(sock_path))
        listener.settimeout(0.2)
        env = {**os.environ, "NOTIFY_SOCKET": str(sock_path), "KIVY_NO_ARGS": "1",
               "KIVY_HOME": str(Path(tmp) / "kivy"), "PYTHONPATH": str(tree)}
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "-m", "companion.app.main", "--data-dir",
                                    str(Path(tmp) / "data"), "--fps", "20"], cwd=tree, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ready_at = None
        try:
            while time.monotonic() - started < timeout and process.poll() is None:
                try:
                    data = listener.recv(4096).decode()
                except TimeoutError:
                    continue
                if "READY=1" in data.splitlines():
                    ready_at = time.monotonic() - started
                    break
            at_ready = window_state() if ready_at is not None else "-"
            time.sleep(1.0)
            later = window_state()
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            listener.close()
        return {"ready_s": ready_at, "at_ready": at_ready, "later": later}


def main() -> int:
    """Launch N times and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--launches", type=int, default=25)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("needs an X display: run under xvfb-run", file=sys.stderr)
        return 2
    counts: dict[str, int] = {}
    ready_times: list[float] = []
    for number in range(1, args.launches + 1):
        result = launch(args.tree, args.timeout)
        if result["ready_s"] is None:
            kind = "no READY"
        elif result["at_ready"] != "viewable":
            kind = f"READY but window {result['at_ready']}"
        else:
            kind = "READY with a viewable window"
            ready_times.append(float(result["ready_s"]))  # type: ignore[arg-type]
        counts[kind] = counts.get(kind, 0) + 1
        print(f"launch {number}: {kind} (a second later: {result['later']})", flush=True)
    print(f"\n{args.tree}: {args.launches} launches")
    for kind, count in sorted(counts.items()):
        print(f"  {kind}: {count}")
    if ready_times:
        ready_times.sort()
        print(f"  time to READY: median {ready_times[len(ready_times) // 2]:.2f} s, "
              f"max {ready_times[-1]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
