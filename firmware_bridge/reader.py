"""The host side of the NFC bridge: a background reader that keeps the Pico's link alive.

:class:`BridgeReader` runs one thread that finds the Pico (udev symlink or USB VID:PID), opens
it, asks for a hello, decodes frames with the shared codec and hands each message to a
callback. It reopens the port within ``retry_interval`` of the Pico reappearing after an
unplug, treats ``heartbeat_timeout`` seconds without a valid frame as a silent link (reported,
then the port is reopened), and survives any byte sequence and any failing callback.

The callback runs on the reader's thread: it must only hand the message over, never touch a
UI. In the Kivy app::

    reader = BridgeReader(on_message=lambda m: Clock.schedule_once(lambda dt: handle(m)))

Without a callback, messages wait in :attr:`BridgeReader.messages` (a ``queue.Queue``).

Example:
    >>> with BridgeReader(port_finder=lambda: None, retry_interval=0.01) as reader:
    ...     reader.connected
    False
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable

import serial

from firmware_bridge import codec
from firmware_bridge.messages import Hello, LinkStatus, Message, message_from_frame
from firmware_bridge.ports import PortFinder, find_port

log = logging.getLogger(__name__)

BAUDRATE = 115200
"""Ignored by USB CDC (the Pico), kept for USB-serial adapters."""
HEARTBEAT_INTERVAL = 1.0
"""Seconds between the firmware's heartbeats."""


class BridgeReader:
    """Reads the NFC bridge in a background thread; a context manager with idempotent close.

    Args:
        port_finder: returns the device to open, or ``None`` while none is plugged in.
        on_message: called (on the reader's thread) with every :mod:`messages` value; by
            default messages are put in :attr:`messages`.
        on_frame: called with every valid frame as decoded (for ``infinite-bridge monitor``).
        heartbeat_timeout: seconds without a valid frame before the link counts as silent.
        retry_interval: seconds between attempts to find and open the port.
        read_timeout: the longest a single read waits, in seconds.

    Attributes:
        messages: where messages go when no ``on_message`` is given.
        decoder: the frame decoder (its counters say how much garbage was dropped).
        hello: the last hello from the firmware, if any.
        connects: how many times the port was opened.
        bad_payloads: valid frames whose payload did not fit their type.
    """

    def __init__(self, port_finder: PortFinder = find_port,
                 on_message: Callable[[Message], object] | None = None,
                 on_frame: Callable[[codec.Frame], object] | None = None,
                 heartbeat_timeout: float = 3.5 * HEARTBEAT_INTERVAL,
                 retry_interval: float = 0.1, read_timeout: float = 0.05) -> None:
        self.port_finder = port_finder
        self.messages: queue.Queue[Message] = queue.Queue()
        self.on_message = on_message or self.messages.put
        self.on_frame = on_frame
        self.heartbeat_timeout = heartbeat_timeout
        self.retry_interval = retry_interval
        self.read_timeout = read_timeout
        self.decoder = codec.Decoder()
        self.hello: Hello | None = None
        self.connects = 0
        self.bad_payloads = 0
        self._port: serial.Serial | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._seq = 0
        self._versions_seen = 0

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> BridgeReader:
        """Start the background thread (once); returns ``self``."""
        if self._thread is None and not self._stopping.is_set():
            self._thread = threading.Thread(target=self._run, name="nfc-bridge", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and close the port. Safe to call more than once."""
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._thread = None

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._stopping.is_set()

    @property
    def connected(self) -> bool:
        """Whether the port is open right now."""
        return self._port is not None

    def __enter__(self) -> BridgeReader:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._connect_and_read()
            except Exception:  # never let the reader die: log, back off, try again
                log.exception("NFC bridge reader failed; retrying")
                self._stopping.wait(self.retry_interval)

    def _connect_and_read(self) -> None:
        device = self.port_finder()
        if device is None:
            self._stopping.wait(self.retry_interval)
            return
        try:
            port = serial.Serial(device, BAUDRATE, timeout=self.read_timeout,
                                 write_timeout=self.read_timeout)
        except (serial.SerialException, OSError, ValueError) as error:
            log.debug("cannot open %s: %s", device, error)
            self._stopping.wait(self.retry_interval)
            return
        self._port = port
        self.connects += 1
        self.decoder.reset()
        self._deliver(LinkStatus("connected", device))
        reason = LinkStatus("lost", device, "closed")
        try:
            self._send(port, codec.HELLO_REQUEST)
            reason = self._read_until_broken(port, device)
        except (serial.SerialException, OSError) as error:
            reason = LinkStatus("lost", device, str(error))
        finally:
            self._port = None
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
        if not self._stopping.is_set():
            self._deliver(reason)

    def _read_until_broken(self, port: serial.Serial, device: str) -> LinkStatus:
        last_frame = time.monotonic()
        while not self._stopping.is_set():
            data = port.read(max(1, port.in_waiting))
            now = time.monotonic()
            if data:
                for frame in self.decoder.feed(data):
                    last_frame = now
                    self._handle(frame)
                if self.decoder.wrong_version != self._versions_seen:
                    self._versions_seen = self.decoder.wrong_version
                    self._deliver(LinkStatus(
                        "incompatible", device,
                        f"firmware speaks protocol {self.decoder.last_version}, "
                        f"this host {codec.PROTOCOL_VERSION}: flash matching firmware"))
            if now - last_frame > self.heartbeat_timeout:
                return LinkStatus("silent", device,
                                  f"no frame for {self.heartbeat_timeout:.1f} s")
        return LinkStatus("lost", device, "closed")

    def _send(self, port: serial.Serial, type_: int, payload: bytes = b"") -> None:
        try:
            port.write(codec.encode_frame(type_, self._seq, payload))
        except serial.SerialTimeoutException:  # the far end is not reading: not fatal
            log.debug("bridge did not take a %s frame", codec.MESSAGE_NAMES.get(type_))
        self._seq = (self._seq + 1) & 0xFF

    def _handle(self, frame: codec.Frame) -> None:
        if self.on_frame is not None:
            self._call(self.on_frame, frame)
        try:
            message = message_from_frame(frame)
        except codec.CodecError as error:
            self.bad_payloads += 1
            log.warning("bad %s payload from the bridge: %s", frame.name, error)
            return
        if isinstance(message, Hello):
            self.hello = message
        if message is not None:
            self._deliver(message)

    def _deliver(self, message: Message) -> None:
        self._call(self.on_message, message)

    @staticmethod
    def _call(callback: Callable[[object], object] | Callable[..., object],
              value: object) -> None:
        try:
            callback(value)
        except Exception:
            log.exception("NFC bridge callback %r failed", callback)
