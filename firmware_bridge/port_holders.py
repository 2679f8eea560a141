"""Who holds a serial port open: so ``infinite-bridge flash`` never fights the kiosk for it.

On Linux every open file of a process is a link under ``/proc/PID/fd``; a process holding the
bridge's port has one pointing at the device (``/dev/infinite-nfc`` is a udev symlink to
``/dev/ttyACM0``: both are resolved). A process started by systemd sits in its unit's control
group (``/proc/PID/cgroup``: ``0::/system.slice/infinite-companion.service``), which names the
service to stop.

Example:
    >>> import os
    >>> holders = port_holders("/dev/null")
    >>> all(holder.pid != os.getpid() for holder in holders)
    True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

KIOSK_SERVICE = "infinite-companion.service"
"""The kiosk's systemd unit (systemd/infinite-companion.service)."""


@dataclass(frozen=True)
class PortHolder:
    """A process that has the port open.

    Attributes:
        pid: its process id.
        command: its command line, shortened, for messages.
        service: the systemd service it belongs to (``""`` when started by hand).
    """

    pid: int
    command: str
    service: str

    def describe(self) -> str:
        """E.g. ``infinite-companion.service (pid 812: infinite-companion --kiosk)``."""
        who = f"pid {self.pid}: {self.command}" if self.command else f"pid {self.pid}"
        return f"{self.service} ({who})" if self.service else who


def service_of(pid: int, proc: Path = Path("/proc")) -> str:
    """The systemd service (``*.service``) whose control group holds ``pid``, or ``""``."""
    try:
        text = (proc / str(pid) / "cgroup").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    for line in text.splitlines():
        for part in reversed(line.rsplit(":", 1)[-1].split("/")):
            if part.endswith(".service"):
                return part
    return ""


def _command(pid: int, proc: Path) -> str:
    try:
        raw = (proc / str(pid) / "cmdline").read_bytes()
    except OSError:
        return ""
    words = [Path(word).name if index == 0 else word
             for index, word in enumerate(raw.decode(errors="replace").split("\0")) if word]
    text = " ".join(words)
    return text if len(text) <= 80 else text[:77] + "..."


def port_holders(device: str, proc: Path = Path("/proc")) -> list[PortHolder]:
    """Every other process that has ``device`` open (this process is left out).

    Processes whose descriptors cannot be read (another user's, without root) are skipped;
    run as root to see them all.
    """
    target = os.path.realpath(device)
    me = os.getpid()
    holders: list[PortHolder] = []
    try:
        entries = list(proc.iterdir())
    except OSError:
        return holders
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                if os.path.realpath(fd) == target:
                    pid = int(entry.name)
                    holders.append(PortHolder(pid, _command(pid, proc), service_of(pid, proc)))
                    break
            except OSError:
                continue
    return sorted(holders, key=lambda holder: holder.pid)
