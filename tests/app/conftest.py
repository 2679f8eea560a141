"""The GUI tests share one real app (one Kivy window per process).

Without a display, an Xvfb server is started for the session when the binary exists, so
``pytest tests/app`` works the same from a terminal and from ``scripts/test``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

_xvfb: subprocess.Popen[bytes] | None = None


def _start_xvfb() -> None:
    global _xvfb
    if os.environ.get("DISPLAY") or shutil.which("Xvfb") is None:
        return
    for number in range(90, 120):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and \
                not Path(f"/tmp/.X{number}-lock").exists():
            break
    _xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten",
                              "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if Path(f"/tmp/.X11-unix/X{number}").exists():
            break
        time.sleep(0.05)
    os.environ["DISPLAY"] = f":{number}"
    atexit.register(_xvfb.terminate)


_start_xvfb()
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))


def pytest_unconfigure(config: pytest.Config) -> None:
    if _xvfb is not None:
        _xvfb.terminate()


@pytest.fixture(scope="session")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from tests.app.harness import AppDriver, environment_ready

    reason = environment_ready()
    if reason:
        pytest.skip(reason)
    from tests.app.countdown_setup import register_countdown

    unregister = register_countdown()
    app_driver = AppDriver(tmp_path_factory.mktemp("companion-data"))
    yield app_driver
    app_driver.stop()
    unregister()
