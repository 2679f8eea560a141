"""A Pico on a pseudo-terminal: the host reader opens the pty's slave like a real device.

:class:`PtyPico` answers hello requests like the firmware does, can be unplugged (both pty
ends closed, the "udev" symlink removed) and plugged in again (a new pty, the symlink pointed
at it), and lets a test write any bytes onto the line.
"""

from __future__ import annotations

import os
import select
import threading
import time
from pathlib import Path

from firmware_bridge import codec


class PtyPico:
    def __init__(self, symlink: Path, firmware: tuple[int, int, int] = (1, 0, 0)) -> None:
        self.symlink = symlink
        self.firmware = firmware
        self.hello_requests = 0
        self.plugged_at = 0.0
        self._master = -1
        self._slave = -1
        self._seq = 0
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def plug(self) -> None:
        """Create a new pty and point the symlink at its slave (as udev would)."""
        self._master, self._slave = os.openpty()
        temporary = self.symlink.with_name(self.symlink.name + ".new")
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(os.ttyname(self._slave))
        os.replace(temporary, self.symlink)
        self.plugged_at = time.monotonic()
        self._stop.clear()
        self._thread = threading.Thread(target=self._answer, daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Remove the symlink and close both ends of the pty."""
        self.symlink.unlink(missing_ok=True)
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._write_lock:
            for fd in (self._master, self._slave):
                if fd >= 0:
                    os.close(fd)
            self._master = self._slave = -1

    def send(self, type_: int, payload: bytes = b"") -> None:
        """Write one frame from the "firmware"."""
        self.write(codec.encode_frame(type_, self._seq, payload))
        self._seq = (self._seq + 1) & 0xFF

    def write(self, data: bytes) -> None:
        """Write raw bytes onto the line (blocks while the pty's buffer is full)."""
        with self._write_lock:
            view = memoryview(data)
            while view:
                written = os.write(self._master, view)
                view = view[written:]

    def _answer(self) -> None:
        decoder = codec.Decoder()
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(self._master, 4096)
            except OSError:
                continue
            for frame in decoder.feed(data):
                if frame.type == codec.HELLO_REQUEST:
                    self.hello_requests += 1
                    self.send(codec.HELLO, codec.hello_payload(self.firmware, "pty-pico"))
