"""A virtual screen for the app benchmarks when none is set (imported by the bench scripts).

Example:
    $ .venv/bin/python bench/app_startup.py        # starts its own Xvfb without a DISPLAY
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path


def ensure_display(first: int = 120) -> subprocess.Popen[bytes] | None:
    """Start Xvfb on a free display from ``:first`` when there is no display (and Xvfb exists).

    Returns the server to terminate when done, or None when a display was already there.
    """
    if os.environ.get("DISPLAY") or shutil.which("Xvfb") is None:
        return None
    number = next(n for n in range(first, first + 40) if not Path(f"/tmp/.X{n}-lock").exists()
                  and not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x800x24",
                               "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if Path(f"/tmp/.X11-unix/X{number}").exists():
            break
        time.sleep(0.05)
    os.environ["DISPLAY"] = f":{number}"
    return server
