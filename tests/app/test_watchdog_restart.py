"""A frozen main loop gets the app restarted by the watchdog, and the game resumes.

PID 1 here is not systemd, so the app runs under tests/app/watchdog_supervisor.py, which
honours NOTIFY_SOCKET / WATCHDOG_USEC / Restart=always as systemd does for the unit in
systemd/infinite-companion.service. The freeze is a real SIGSTOP of the app process.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from companion.app.journal_shelf import JournalShelf
from companion.app.sdnotify import SystemdNotifier
from companion.games.registry import load_game
from companion.resources import shipped_sources
from companion.session import Session
from tests.app.watchdog_supervisor import Supervisor

pytestmark = pytest.mark.gui

MOVES = ["start Ben W5", "start Ann W1", "move Ben W5 Y3"]


def _journal_with_moves(data_dir: Path) -> Path:
    shelf = JournalShelf(data_dir / "journals")
    sources = shipped_sources("companion.games.infinifield", {"setup": "fields/quickstart.toml"})
    path = shelf.new_path("infinifield")
    with Session.new(load_game("infinifield"), sources, {"players": ["Ann", "Ben"]}, seed=3,
                     journal_path=path) as session:
        for move in MOVES:
            assert session.propose(move).legal, move
    return path


def test_notifier_speaks_the_sd_notify_datagram_protocol(tmp_path: Path) -> None:
    """READY/WATCHDOG/STATUS reach a NOTIFY_SOCKET listener as KEY=VALUE lines."""
    import socket

    path = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.settimeout(2)
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "3000000"})
    assert notifier.heartbeat_seconds == 1.5
    assert notifier.ready("playing infinifield")
    assert listener.recv(100) == b"READY=1\nSTATUS=playing infinifield"
    assert notifier.heartbeat()
    assert listener.recv(100) == b"WATCHDOG=1"
    notifier.close()
    listener.close()
    other = SystemdNotifier({"WATCHDOG_USEC": "3000000", "WATCHDOG_PID": str(os.getpid() + 1)})
    assert other.heartbeat_seconds is None, "a watchdog meant for another PID is not ours"


def test_sigstopped_app_is_restarted_by_the_watchdog_and_resumes(tmp_path: Path) -> None:
    """systemd/infinite-companion.service: WatchdogSec= + Restart=always; issue 9 "A frozen
    main loop (SIGSTOP) gets the app restarted by the watchdog and the game resumes"."""
    if not os.environ.get("DISPLAY"):
        pytest.skip("needs an X display (Xvfb)")
    data_dir = tmp_path / "data"
    journal = _journal_with_moves(data_dir)
    command = [sys.executable, "-m", "companion.app.main", "--resume-latest", "--data-dir",
               str(data_dir), "--fps", "20"]
    supervisor = Supervisor(command, tmp_path / "notify.sock", watchdog_sec=2.0,
                            env={"KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_ARGS": "1"})
    supervisor.start()
    try:
        ready = supervisor.wait_for("READY", "1", timeout=40)
        first_pid = supervisor.pids[0]
        assert ready.fields["STATUS"] == \
            f"playing infinifield: {len(MOVES)} action(s), journal {journal}"
        beat = supervisor.wait_for("WATCHDOG", "1", after=supervisor.notices.index(ready))
        assert beat.at - ready.at < 2.0, "the main loop feeds the watchdog every WatchdogSec/2"

        frozen_at = time.monotonic()
        os.kill(first_pid, signal.SIGSTOP)
        seen = len(supervisor.notices)
        again = supervisor.wait_for("READY", "1", after=seen, timeout=40)
        assert supervisor.kills[:1] == [(first_pid, "SIGABRT")]
        assert (first_pid, "SIGKILL") in supervisor.kills, "a stopped process only dies by KILL"
        assert len(supervisor.pids) == 2 and supervisor.pids[1] != first_pid
        assert again.at - frozen_at >= 2.0, "restarted only after the watchdog period"
        assert again.fields["STATUS"] == ready.fields["STATUS"], "the same game resumed"
        supervisor.wait_for("WATCHDOG", "1", after=supervisor.notices.index(again))
    finally:
        supervisor.stop()
    resumed = Session.resume(journal)
    assert resumed.history == MOVES
    resumed.close()
