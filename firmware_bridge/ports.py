"""Finding the Pico that runs the NFC bridge firmware.

The udev rule ``systemd/99-infinite-bridge.rules`` gives the Pico a stable name,
:data:`UDEV_SYMLINK`; without it (a desktop, a Pico on another port) the Pico is found among
the serial ports by its USB vendor and product ids.

Example:
    >>> find_port(symlink="/nonexistent/infinite-nfc", comports=lambda: [])
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

PICO_VID = 0x2E8A
"""Raspberry Pi's USB vendor id."""
PICO_MICROPYTHON_PID = 0x0005
"""The product id of a Pico running MicroPython (its USB CDC serial port)."""
UDEV_SYMLINK = "/dev/infinite-nfc"
"""The stable device name the shipped udev rule creates for the Pico."""

PortFinder = Callable[[], str | None]
"""Returns the serial device to open now, or ``None`` while no bridge is plugged in."""


def _system_comports() -> Iterable[Any]:
    from serial.tools import list_ports

    return list_ports.comports()


def find_port(symlink: str = UDEV_SYMLINK, vid: int = PICO_VID, pid: int = PICO_MICROPYTHON_PID,
              comports: Callable[[], Iterable[Any]] = _system_comports) -> str | None:
    """The Pico's serial device: the udev symlink if present, else the first VID:PID match.

    Args:
        symlink: the stable name made by the udev rule.
        vid: USB vendor id to look for.
        pid: USB product id to look for.
        comports: lists the serial ports (``serial.tools.list_ports.comports`` by default).

    Example:
        >>> class Port:
        ...     device, vid, pid = "/dev/ttyACM0", 0x2E8A, 0x0005
        >>> find_port(symlink="/nonexistent", comports=lambda: [Port()])
        '/dev/ttyACM0'
    """
    if symlink and os.path.exists(symlink):
        return symlink
    for port in comports():
        if getattr(port, "vid", None) == vid and getattr(port, "pid", None) == pid:
            return str(port.device)
    return None


def fixed_port(device: str) -> PortFinder:
    """A finder that always answers ``device`` when it exists (``--port`` on the command line).

    Example:
        >>> fixed_port("/nonexistent/tty")() is None
        True
    """
    def finder() -> str | None:
        return device if os.path.exists(device) else None
    return finder
