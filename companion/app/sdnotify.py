"""The systemd notification protocol (``sd_notify``), spoken directly over its unix socket.

systemd passes ``NOTIFY_SOCKET`` (a filesystem path, or an abstract name starting with ``@``)
and, with ``WatchdogSec=``, ``WATCHDOG_USEC`` and ``WATCHDOG_PID``. A service tells systemd
how it is doing by sending newline-separated ``KEY=VALUE`` datagrams: ``READY=1`` once it
serves, ``WATCHDOG=1`` at least every half watchdog period, ``STATUS=...`` for
``systemctl status``, ``STOPPING=1`` on the way out. Outside systemd every call is a no-op.

Example:
    >>> notifier = SystemdNotifier(environ={})
    >>> notifier.enabled, notifier.notify(READY=1)
    (False, False)
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class SystemdNotifier:
    """Sends ``sd_notify`` datagrams to the service manager, if there is one.

    Attributes:
        address: the socket address from ``NOTIFY_SOCKET`` (``None`` outside systemd).
        watchdog_usec: the watchdog period in microseconds, if this process must keep one alive.
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        raw = env.get("NOTIFY_SOCKET", "")
        self.address: str | None = None
        if raw.startswith("@"):
            self.address = "\0" + raw[1:]
        elif raw.startswith("/"):
            self.address = raw
        self.watchdog_usec = _watchdog_usec(env)
        self._socket: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        """Whether a service manager is listening."""
        return self.address is not None

    @property
    def heartbeat_seconds(self) -> float | None:
        """How often to send ``WATCHDOG=1``: half the watchdog period, or ``None`` if unset.

        Example:
            >>> SystemdNotifier({"WATCHDOG_USEC": "4000000"}).heartbeat_seconds
            2.0
        """
        return self.watchdog_usec / 2_000_000 if self.watchdog_usec else None

    def notify(self, **fields: object) -> bool:
        """Send one datagram of ``KEY=VALUE`` lines; return whether it was sent.

        Example:
            >>> SystemdNotifier({}).notify(STATUS="resumed infinifield")
            False
        """
        if self.address is None or not fields:
            return False
        message = "\n".join(f"{key}={value}" for key, value in fields.items()).encode()
        try:
            if self._socket is None:
                kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                self._socket = socket.socket(socket.AF_UNIX, kind)
            self._socket.sendto(message, self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        """Tell systemd the app is up (``READY=1``), with an optional status line."""
        return self.notify(READY=1, STATUS=status) if status else self.notify(READY=1)

    def heartbeat(self) -> bool:
        """Keep the watchdog alive (``WATCHDOG=1``)."""
        return self.notify(WATCHDOG=1)

    def status(self, text: str) -> bool:
        """Set the one-line status ``systemctl status`` shows."""
        return self.notify(STATUS=text.replace("\n", " "))

    def stopping(self) -> bool:
        """Tell systemd the app is shutting down on purpose."""
        return self.notify(STOPPING=1)

    def close(self) -> None:
        """Close the socket. Safe to call more than once."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    """The watchdog period meant for this process, or ``None``."""
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid.isdigit() and int(pid) != os.getpid():
        return None
    return usec if usec > 0 else None
