"""How fast the touchscreen app starts, how much memory each game screen takes, and how
little CPU it burns while nobody touches it; each figure next to a bare Kivy window
measured in the same run (the baseline: what Kivy itself costs on this machine).

Targets (issue 9): cold start to the first interactive frame under 3 s, resident memory
under 250 MB after loading each game screen, idle CPU under 5% of a core with the frame
rate capped (30 fps).

    .venv/bin/python bench/app_startup.py            # needs a display; starts Xvfb if none

"First interactive frame" is the moment the app sends READY=1 to systemd (its first
frame after building every screen and resuming the journal); the bench listens on a
NOTIFY_SOCKET exactly as systemd does.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from virtual_display import ensure_display  # bench/, beside this script

ROOT = Path(__file__).resolve().parents[1]
DWELL_S = 1.0
"""How long the memory tour stays on each screen (frames keep running meanwhile)."""
PYTHON = sys.executable

BARE_KIVY = r"""
import os, socket, sys
os.environ.setdefault("KIVY_NO_ARGS", "1")
from kivy.config import Config
Config.set("graphics", "width", "800"); Config.set("graphics", "height", "480")
Config.set("graphics", "maxfps", "30"); Config.set("kivy", "log_level", "warning")
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.label import Label


class Bare(App):
    def load_kv(self, filename=None):
        return False
    def build(self):
        return Label(text="bare Kivy window", font_size="30sp")
    def on_start(self):
        def ready(_dt):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.sendto(b"READY=1", os.environ["NOTIFY_SOCKET"])
        Clock.schedule_once(ready, 0)
Bare().run()
"""


def launch(command: list[str], env: dict[str, str], workdir: Path
           ) -> tuple[subprocess.Popen[bytes], float, float]:
    """Start ``command``; return it, the seconds until READY=1, and the spawn time."""
    path = workdir / f"notify-{time.monotonic_ns()}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.settimeout(0.05)
    started = time.monotonic()
    process = subprocess.Popen(command, env={**env, "NOTIFY_SOCKET": str(path)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:
            try:
                if b"READY=1" in listener.recv(4096):
                    break
            except TimeoutError:
                pass
            if process.poll() is not None:
                raise RuntimeError(f"{command[:3]} exited with {process.returncode} before "
                                   f"its first frame:\n{process.stderr.read().decode()[-2000:]}")
            if time.monotonic() - started > 60:
                raise RuntimeError(f"{command[:3]}: no first frame within 60 s")
    finally:
        listener.close()
    return process, time.monotonic() - started, started


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def idle_cpu(process: subprocess.Popen[bytes], seconds: float) -> float:
    """Share of one core the process uses over ``seconds`` of idling."""
    time.sleep(1.0)  # let start-up work finish
    before, at = cpu_seconds(process.pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(process.pid) - before) / (time.monotonic() - at)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def prepare_journal(data_dir: Path) -> None:
    """An Infinifield game in progress, so the app resumes straight into a game screen."""
    from companion.app.journal_shelf import JournalShelf
    from companion.games.registry import load_game
    from companion.resources import shipped_sources
    from companion.session import Session

    sources = shipped_sources("companion.games.infinifield", {"setup": "fields/quickstart.toml"})
    path = JournalShelf(data_dir / "journals").new_path("infinifield")
    with Session.new(load_game("infinifield"), sources, {"players": ["Ann", "Ben"]}, seed=1,
                     journal_path=path) as session:
        for move in ("start Ben W1", "start Ann W8", "move Ben W1 Y1"):
            session.propose(move)


def child_memory(data_dir: Path) -> None:
    """(Run in a child process.) Open every game's screen; print RSS after each as JSON."""
    from companion.app.main import configure_kivy

    configure_kivy(argparse.Namespace(kiosk=False, size=(800, 480), fps=30), data_dir)
    from kivy.base import EventLoop

    from companion.app.application import AppOptions, CompanionApp
    from companion.app.game_setups import SETUPS
    from companion.app.screens.home import startable_games

    app = CompanionApp(AppOptions(data_dir, "en", False, 1, 30))
    app._run_prepare()

    def dwell(seconds: float = DWELL_S) -> None:
        """Frames for ``seconds``, as a player looking at the screen would let pass."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            EventLoop.idle()

    dwell()
    figures = {"home": rss_mb(os.getpid())}
    for game in startable_games():
        spec = SETUPS[game]
        layout = next(iter(spec.layouts))
        app.table.start(game, layout, None, seed=1)
        app.open_game_screen()
        dwell()
        figures[game] = rss_mb(os.getpid())
    for name in ("tools", "log", "simulation", "settings", "newgame"):
        app.go(name)
        dwell()
        figures[name] = rss_mb(os.getpid())
    app.go("home")
    dwell()
    figures["all screens"] = rss_mb(os.getpid())
    print(json.dumps(figures))
    app.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold starts of each (median)")
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    parser.add_argument("--child-memory", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_memory:
        child_memory(args.child_memory)
        return 0
    server = ensure_display()
    work = Path(tempfile.mkdtemp(prefix="app-bench-"))
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(work / "kivy"),
           "KIVY_NO_CONSOLELOG": "1"}
    try:
        app_data = work / "data"
        prepare_journal(app_data)
        app_cmd = [PYTHON, "-m", "companion.app.main", "--data-dir", str(app_data),
                   "--resume-latest", "--fps", "30"]
        bare_cmd = [PYTHON, "-c", BARE_KIVY]
        print(f"app start-up bench, {args.runs} cold starts each, 800x480, "
              f"display {os.environ.get('DISPLAY')}")
        starts: dict[str, list[float]] = {"bare Kivy window": [], "companion app": []}
        idle: dict[str, float] = {}
        rss: dict[str, float] = {}
        for run in range(args.runs):
            for name, command in (("bare Kivy window", bare_cmd), ("companion app", app_cmd)):
                process, seconds, _ = launch(command, env, work)
                starts[name].append(seconds)
                if run == 0:
                    idle[name] = idle_cpu(process, args.idle_seconds)
                    rss[name] = rss_mb(process.pid)
                stop(process)
        base = statistics.median(starts["bare Kivy window"])
        app = statistics.median(starts["companion app"])
        print("\ncold start to first interactive frame (median)")
        print(f"  bare Kivy window (baseline) {base:6.2f} s")
        print(f"  companion app, game resumed {app:6.2f} s   x{app / base:.2f} of baseline   "
              f"target < 3 s: {'OK' if app < 3 else 'MISSED'}")
        print(f"\nidle CPU at 30 fps cap over {args.idle_seconds:.0f} s (share of one core)")
        print(f"  bare Kivy window (baseline) {idle['bare Kivy window'] * 100:6.2f} %")
        app_idle = idle["companion app"]
        print(f"  companion app, game screen  {app_idle * 100:6.2f} %   "
              f"target < 5 %: {'OK' if app_idle < 0.05 else 'MISSED'}")
        result = subprocess.run([PYTHON, __file__, "--child-memory", str(work / "mem")],
                                env=env, capture_output=True, text=True, timeout=300)
        figures = json.loads(result.stdout.strip().splitlines()[-1])
        print("\nresident memory (RSS)")
        print(f"  bare Kivy window (baseline) {rss['bare Kivy window']:6.1f} MB")
        for name, value in figures.items():
            verdict = "OK" if value < 250 else "MISSED"
            print(f"  after {name:<21} {value:6.1f} MB   x{value / rss['bare Kivy window']:.2f}"
                  f" of baseline   target < 250 MB: {verdict}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if server is not None:
            server.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
