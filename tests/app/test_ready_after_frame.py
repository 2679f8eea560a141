"""systemd hears READY=1 only once a frame is on the window (issue 14, "A blank screen").

A kiosk whose main loop runs but shows nothing must not count as started: READY=1 and the
watchdog's pings come only after the first frame has been drawn and flipped, so systemd
restarts a launch that never shows anything (TimeoutStartSec) instead of keeping it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.app.watchdog_supervisor import Supervisor

pytestmark = pytest.mark.gui


@pytest.mark.skipif(shutil.which("xwininfo") is None, reason="xwininfo missing (x11-utils)")
def test_ready_comes_with_a_viewable_window_and_the_watchdog_only_after_it(
        tmp_path: Path) -> None:
    if not os.environ.get("DISPLAY"):
        pytest.skip("needs an X display (Xvfb)")
    command = [sys.executable, "-m", "companion.app.main", "--data-dir", str(tmp_path / "d"),
               "--fps", "20"]
    supervisor = Supervisor(command, tmp_path / "notify.sock", watchdog_sec=2.0,
                            env={"KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_ARGS": "1"})
    supervisor.start()
    try:
        ready = supervisor.wait_for("READY", "1", timeout=40)
        window = subprocess.run(["xwininfo", "-name", "Infinite Table Companion"],
                                capture_output=True, text=True, timeout=10)
        supervisor.wait_for("WATCHDOG", "1", after=supervisor.notices.index(ready))
    finally:
        supervisor.stop()
    assert window.returncode == 0, window.stderr
    assert "Map State: IsViewable" in window.stdout
    first_ready = next(i for i, n in enumerate(supervisor.notices)
                       if n.fields.get("READY") == "1")
    assert not any(n.fields.get("WATCHDOG") for n in supervisor.notices[:first_ready]), \
        "no watchdog ping before the first frame"
