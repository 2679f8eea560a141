"""Frames grabbed on their own thread; a lost camera is reported and reopened.

The :class:`FrameGrabber` thread reads a :class:`~vision.capture.FrameSource` as fast as it
delivers and keeps only the newest frame (a slow consumer never works on stale frames).
When the source stops giving frames, or opening or reading it raises anything at all (a
driver, libcamera or an import deep inside Picamera2 can raise any type), it reports
``camera_lost`` with the error through ``on_status`` and tries to reopen it, first after
``retry_s`` seconds and then backing off up to ``max_retry_s``, reporting ``camera_back`` when
it does; the thread itself never dies, and the referee keeps working by touch meanwhile.
``on_status`` runs on the grabber's thread: a Kivy app hands it to the main loop
(``Clock.schedule_once``), never touching widgets from it.

Example:
    >>> from vision.capture import FolderSource
    >>> FrameGrabber.__name__
    'FrameGrabber'
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from types import TracebackType

import numpy as np

from vision.capture import CaptureError, FrameSource

log = logging.getLogger(__name__)

StatusCallback = Callable[[str, str], None]
"""``on_status(kind, message)``, kind one of ``camera_open``, ``camera_lost``, ``camera_back``,
``replay_over``."""


class FrameGrabber:
    """Reads a source on a background thread, newest frame wins.

    Args:
        source: the frame source (opened by the grabber).
        on_status: called with status changes (on the grabber's thread).
        retry_s: seconds before the first reopening attempt of a lost camera; each failed
            attempt doubles the wait, up to ``max_retry_s``.
        max_retry_s: the longest wait between reopening attempts.
        end_is_loss: treat the end of frames as a lost camera (True for cameras; False for
            replays, which then report ``replay_over`` and stop).
    """

    def __init__(self, source: FrameSource, on_status: StatusCallback | None = None,
                 retry_s: float = 1.0, end_is_loss: bool = True,
                 max_retry_s: float = 10.0) -> None:
        self.source = source
        self.on_status = on_status or (lambda kind, message: None)
        self.retry_s = retry_s
        self.max_retry_s = max(max_retry_s, retry_s)
        self.failed_opens = 0
        self._lost_reported = False
        self.end_is_loss = end_is_loss
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._count = 0
        self._stop = threading.Event()
        self._fresh = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self.connected = False

    def start(self) -> FrameGrabber:
        """Start the thread (idempotent)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="frame-grabber",
                                            daemon=True)
            self._thread.start()
        return self

    def latest(self) -> tuple[int, np.ndarray | None]:
        """``(frame number, newest frame)``; the number grows by one per grabbed frame."""
        with self._lock:
            return self._count, self._frame

    def wait_frame(self, after: int, timeout: float) -> tuple[int, np.ndarray | None]:
        """Wait until a frame newer than number ``after`` exists (or ``timeout`` seconds)."""
        with self._fresh:
            self._fresh.wait_for(lambda: self._count > after, timeout)
            return self._count, self._frame

    def close(self) -> None:
        """Stop the thread and close the source (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
        self.source.close()

    def __enter__(self) -> FrameGrabber:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _report(self, kind: str, message: str) -> None:
        try:
            self.on_status(kind, message)
        except Exception:  # a broken callback must not stop the frames
            log.exception("camera status callback failed")

    def _retry_wait(self) -> float:
        """Seconds to wait before the next reopening attempt (doubling, capped)."""
        return min(self.max_retry_s, self.retry_s * 2 ** max(0, self.failed_opens - 1))

    def _try_open(self) -> bool:
        try:
            self.source.open()
        except Exception as exc:  # CaptureError, and whatever a driver raises
            self.failed_opens += 1
            detail = str(exc) if isinstance(exc, CaptureError) else \
                f"{self.source.name}: cannot open: {type(exc).__name__}: {exc}"
            if not self._lost_reported:
                self._report("camera_lost", detail)
                self._lost_reported = True
            self.connected = False
            with contextlib.suppress(Exception):
                self.source.close()
            return False
        self._report("camera_open" if self._count == 0 else "camera_back",
                     f"{self.source.name}: grabbing frames")
        self.failed_opens = 0
        self._lost_reported = False
        self.connected = True
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.connected and not self._try_open():
                self._stop.wait(self._retry_wait())
                continue
            try:
                frame = self.source.read()
            except Exception as exc:  # a driver error must not kill the thread
                frame = None
                self._report("camera_lost", f"{self.source.name}: {type(exc).__name__}: {exc}")
                self._lost_reported = True
            if frame is None:
                with contextlib.suppress(Exception):
                    self.source.close()
                self.connected = False
                if not self.end_is_loss:
                    self._report("replay_over", f"{self.source.name}: no more frames")
                    return
                if not self._lost_reported:
                    self._report("camera_lost", f"{self.source.name}: no frame; reopening")
                    self._lost_reported = True
                self._stop.wait(self.retry_s)
                continue
            with self._fresh:
                self._frame = frame
                self._count += 1
                self._fresh.notify_all()
        # leaving: the source is closed by close()
