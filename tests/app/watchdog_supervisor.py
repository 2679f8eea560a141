"""A tiny service manager for tests: what systemd does for ``Type=notify``, ``WatchdogSec=``
and ``Restart=always``, for machines where PID 1 is not systemd (containers, CI).

It binds a unix datagram socket, starts the service with ``NOTIFY_SOCKET`` and
``WATCHDOG_USEC`` set, reads the ``KEY=VALUE`` datagrams, and when no ``WATCHDOG=1`` arrives
within the watchdog period after ``READY=1`` it sends ``SIGABRT`` (systemd's default
``WatchdogSignal=``), then ``SIGKILL`` after the abort timeout, and restarts the service after
``RestartSec``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Notice:
    """One datagram from the service."""

    pid: int
    at: float
    fields: dict[str, str]


@dataclass
class Supervisor:
    """Runs ``command`` like a ``Type=notify`` unit with a watchdog."""

    command: Sequence[str]
    socket_path: Path
    watchdog_sec: float = 2.0
    restart_sec: float = 0.5
    abort_timeout: float = 1.0
    env: Mapping[str, str] = field(default_factory=dict)
    notices: list[Notice] = field(default_factory=list)
    pids: list[int] = field(default_factory=list)
    kills: list[tuple[int, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(str(self.socket_path))
        self._socket.settimeout(0.1)
        self._stop = threading.Event()
        self._process: subprocess.Popen[bytes] | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._lock = threading.Lock()

    # -- control ---------------------------------------------------------------------------
    def start(self) -> Supervisor:
        self._spawn()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        process = self._process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGCONT)
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._socket.close()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def wait_for(self, key: str, value: str | None = None, after: int = 0,
                 timeout: float = 30.0) -> Notice:
        """The first notice from index ``after`` on carrying ``key`` (with ``value``)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                for notice in self.notices[after:]:
                    if key in notice.fields and (value is None or notice.fields[key] == value):
                        return notice
            time.sleep(0.05)
        raise TimeoutError(f"no {key}={value or '*'} from the service within {timeout} s; "
                           f"got {[n.fields for n in self.notices[after:]]}")

    # -- the loop --------------------------------------------------------------------------
    def _spawn(self) -> None:
        env = dict(os.environ)
        env.update(self.env)
        env["NOTIFY_SOCKET"] = str(self.socket_path)
        env["WATCHDOG_USEC"] = str(int(self.watchdog_sec * 1_000_000))
        env.pop("WATCHDOG_PID", None)
        self._process = subprocess.Popen(list(self.command), env=env,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.pids.append(self._process.pid)
        self._ready_at: float | None = None
        self._last_ping = time.monotonic()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._receive()
            process = self._process
            assert process is not None
            now = time.monotonic()
            if process.poll() is not None:
                time.sleep(self.restart_sec)
                self._spawn()
                continue
            if self._ready_at is not None and now - self._last_ping > self.watchdog_sec:
                self._watchdog_kill(process)
                time.sleep(self.restart_sec)
                self._spawn()

    def _receive(self) -> None:
        try:
            data = self._socket.recv(4096)
        except TimeoutError:
            return
        fields = dict(line.split("=", 1) for line in data.decode().splitlines() if "=" in line)
        now = time.monotonic()
        with self._lock:
            self.notices.append(Notice(self.pid or 0, now, fields))
        if fields.get("READY") == "1":
            self._ready_at = now
            self._last_ping = now
        if fields.get("WATCHDOG") == "1":
            self._last_ping = now

    def _watchdog_kill(self, process: subprocess.Popen[bytes]) -> None:
        self.kills.append((process.pid, "SIGABRT"))
        process.send_signal(signal.SIGABRT)
        try:
            process.wait(timeout=self.abort_timeout)
            return
        except subprocess.TimeoutExpired:
            pass
        self.kills.append((process.pid, "SIGKILL"))
        process.kill()
        process.wait()
