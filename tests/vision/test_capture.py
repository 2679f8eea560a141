"""Capture sources and the grabber thread (issue 7, "Capture")."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture import (
    CaptureError,
    FolderSource,
    FrameSource,
    PiCameraSource,
    VideoCaptureSource,
    open_source,
)
from vision.grabber import FrameGrabber


def _frames(n: int) -> list[np.ndarray]:
    return [np.full((48, 64, 3), 10 * i, np.uint8) for i in range(n)]


def test_folder_replays_images_in_name_order_then_ends(tmp_path: Path) -> None:
    for i, frame in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"frame{i:03d}.png"), frame)
    with open_source(str(tmp_path)) as source:
        levels = [int(source.read()[0, 0, 0]) for _ in range(3)]
        assert source.read() is None
    assert levels == [0, 10, 20]


def test_folder_loops_when_asked(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "only.png"), _frames(2)[1])
    with FolderSource(tmp_path, loop=True) as source:
        assert [int(source.read()[0, 0, 0]) for _ in range(3)] == [10, 10, 10]


def test_video_file_replays_every_frame(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 5, (64, 48))
    for frame in _frames(4):
        writer.write(frame)
    writer.release()
    with open_source(str(path)) as source:
        got = []
        while (frame := source.read()) is not None:
            got.append(frame)
    assert len(got) == 4
    assert abs(int(got[3].mean()) - 30) <= 3


def test_bad_specs_and_missing_devices_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match="usb:N"):
        open_source("usb:front")
    with pytest.raises(CaptureError, match="not 'pi', 'usb:N'"):
        open_source(str(tmp_path / "nothing.txt"))
    with pytest.raises(CaptureError, match="no images"), FolderSource(tmp_path):
        pass
    with pytest.raises(CaptureError, match="cannot open"), VideoCaptureSource(
            str(tmp_path / "missing.avi")):
        pass


def test_pi_camera_without_picamera2_explains_how_to_install_it() -> None:
    pytest.importorskip("cv2")
    try:
        import picamera2  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("picamera2 is installed here: this is a Pi")
    with pytest.raises(CaptureError, match="python3-picamera2"), PiCameraSource():
        pass


class FlakyCamera(FrameSource):
    """A camera that gives two frames, vanishes (read and one reopen fail), then returns."""

    name = "flaky"

    def __init__(self) -> None:
        self.opens = 0
        self.frames = 0

    def open(self) -> None:
        self.opens += 1
        if self.opens == 2:
            raise CaptureError("flaky: unplugged")

    def read(self) -> np.ndarray | None:
        time.sleep(0.005)                     # a camera delivers at its frame rate
        self.frames += 1
        if self.frames == 3:
            return None
        return np.full((4, 4, 3), min(self.frames, 255), np.uint8)


def test_grabber_reports_a_lost_camera_reopens_it_and_keeps_the_newest_frame() -> None:
    statuses: list[str] = []
    back = threading.Event()

    def on_status(kind: str, message: str) -> None:
        statuses.append(kind)
        if kind == "camera_back":
            back.set()

    camera = FlakyCamera()
    with FrameGrabber(camera, on_status, retry_s=0.01) as grabber:
        assert back.wait(5.0)
        count, frame = grabber.wait_frame(2, 5.0)
    assert statuses[:3] == ["camera_open", "camera_lost", "camera_back"]
    assert count > 2 and frame is not None
    assert int(frame[0, 0, 0]) >= 4           # a frame from after the camera came back
    assert camera.opens == 3


def test_replay_end_is_reported_not_retried(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), _frames(1)[0])
    over = threading.Event()
    with FrameGrabber(FolderSource(tmp_path),
                      lambda kind, msg: over.set() if kind == "replay_over" else None,
                      end_is_loss=False) as grabber:
        assert over.wait(5.0)
        assert grabber.latest()[0] == 1


def test_a_camera_spec_can_ask_for_a_frame_size() -> None:
    # a USB webcam gives 640x480 unless asked: a set-up reading needs a block top 22 px or
    # more across (vision.readers.detail), so the spec can ask for more
    usb = open_source("usb:2@1280x720")
    assert isinstance(usb, VideoCaptureSource)
    assert (usb.device, usb.size) == (2, (1280, 720))
    pi = open_source("pi@2304x1296")
    assert pi.size == (2304, 1296)  # type: ignore[attr-defined]
    assert open_source("pi").size == (1280, 720)  # type: ignore[attr-defined]
    for bad in ("usb:0@big", "usb:0@1280", "pi@0x720"):
        with pytest.raises(CaptureError, match="WxH"):
            open_source(bad)
