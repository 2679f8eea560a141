"""A camera that fails in any way is reported and retried; the grabber thread never dies.

Issue 14, "The Pi kiosk": ``PiCameraSource.open``/``FrameGrabber`` caught only
``ImportError``/``CaptureError``, so any other error (Picamera2's import failing on a numpy
ABI mismatch, libcamera's RuntimeError) killed the grabber thread silently and the status
light never said "camera lost".
"""

from __future__ import annotations

import sys
import threading
import time

import numpy as np
import pytest

from tests.support.picamera2_standin import StandInPicamera2, install
from vision.capture import CaptureError, FrameSource, PiCameraSource
from vision.grabber import FrameGrabber


class BrokenThenWorkingCamera(FrameSource):
    """Raises a different non-CaptureError type on each of its first opens, then works."""

    name = "pi"

    def __init__(self, failures: list[BaseException]) -> None:
        self.failures = list(failures)
        self.open_times: list[float] = []

    def open(self) -> None:
        self.open_times.append(time.monotonic())
        if self.failures:
            raise self.failures.pop(0)

    def read(self) -> np.ndarray | None:
        time.sleep(0.002)
        return np.zeros((4, 4, 3), np.uint8)


def test_any_error_while_opening_is_reported_and_retried_with_back_off() -> None:
    statuses: list[tuple[str, str]] = []
    back = threading.Event()

    def on_status(kind: str, message: str) -> None:
        statuses.append((kind, message))
        if kind == "camera_open":
            back.set()

    camera = BrokenThenWorkingCamera([RuntimeError("Failed to acquire camera"),
                                      ValueError("numpy.dtype size changed"),
                                      IndexError("list index out of range")])
    with FrameGrabber(camera, on_status, retry_s=0.02, max_retry_s=0.05) as grabber:
        assert back.wait(5.0), statuses
        count, frame = grabber.wait_frame(0, 5.0)
        assert grabber._thread is not None and grabber._thread.is_alive()
    assert count >= 1 and frame is not None
    kinds = [kind for kind, _ in statuses]
    assert kinds[0] == "camera_lost" and kinds[-1] == "camera_open"
    assert "RuntimeError: Failed to acquire camera" in statuses[0][1]
    gaps = np.diff(camera.open_times)
    assert len(camera.open_times) == 4
    assert gaps[1] >= gaps[0] * 1.5 - 0.005       # the wait doubles...
    assert gaps[2] < 0.2                          # ...but stays under the cap


def test_a_failing_status_callback_does_not_stop_the_frames() -> None:
    def on_status(kind: str, message: str) -> None:
        raise KeyError("a screen that is gone")

    with FrameGrabber(BrokenThenWorkingCamera([OSError("busy")]), on_status,
                      retry_s=0.01) as grabber:
        count, frame = grabber.wait_frame(2, 5.0)
    assert count > 2 and frame is not None


def test_picamera2_that_cannot_be_imported_is_a_capture_error_naming_the_fix(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Picamera2's import raising ValueError (numpy ABI) becomes a CaptureError, not a crash."""
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 -> ImportError
    with pytest.raises(CaptureError, match="picamera2 module is missing"):
        PiCameraSource().open()
    monkeypatch.delitem(sys.modules, "picamera2")

    class AbiFinder:
        def find_spec(self, name: str, path: object = None, target: object = None) -> None:
            if name == "picamera2":
                raise ValueError("numpy.dtype size changed, may indicate binary "
                                 "incompatibility. Expected 96 from C header, got 88")
            return None

    finder = AbiFinder()
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    with pytest.raises(CaptureError, match=r"ValueError: numpy\.dtype size changed.*numpy 1\.x"):
        PiCameraSource().open()


def test_a_camera_whose_controls_fail_is_closed_and_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class TimingOut(StandInPicamera2):
        def capture_metadata(self) -> dict[str, object]:
            raise RuntimeError("Camera frontend has timed out!")

    camera = install(monkeypatch, TimingOut)
    source = PiCameraSource(settle_s=0.0)
    with pytest.raises(CaptureError, match="frontend has timed out"):
        source.open()
    assert camera.stops == [True] and source.read() is None
