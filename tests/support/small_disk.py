"""A real, tiny file system for disk-full and read-only tests: a tmpfs mounted for one test.

Mounting needs root (or CAP_SYS_ADMIN); elsewhere the fixture skips and the tests that limit
the file size with ``RLIMIT_FSIZE`` in a child process still run.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def can_mount() -> bool:
    """Whether this process may mount a tmpfs."""
    if os.geteuid() != 0:
        return False
    with mounted(16) as path:
        return path is not None


@contextmanager
def mounted(kilobytes: int) -> Iterator[Path | None]:
    """A tmpfs of ``kilobytes`` KiB, or ``None`` when it cannot be mounted; unmounted after."""
    directory = Path(tempfile.mkdtemp(prefix="small-disk-"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kilobytes}k", "tmpfs",
                           str(directory)], capture_output=True, check=False)
    try:
        yield directory if done.returncode == 0 else None
    finally:
        if done.returncode == 0:
            subprocess.run(["umount", "-l", str(directory)], capture_output=True, check=False)
        directory.rmdir()


def fill(directory: Path, leave: int = 0) -> Path:
    """Fill the file system holding ``directory`` with one file, ``leave`` bytes left free."""
    filler = directory / "filler.bin"
    with open(filler, "ab") as handle:
        while True:
            stats = os.statvfs(directory)
            free = stats.f_bavail * stats.f_frsize - leave
            if free <= 0:
                break
            try:
                handle.write(b"\0" * min(free, 1 << 16))
                handle.flush()
            except OSError:
                break
    return filler


def remount_read_only(directory: Path) -> bool:
    """Remount the tmpfs at ``directory`` read-only; whether it worked."""
    done = subprocess.run(["mount", "-o", "remount,ro", str(directory)], capture_output=True,
                          check=False)
    return done.returncode == 0
