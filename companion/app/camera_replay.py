"""The replayed camera feed for the simulation panel: recorded table footage, looped.

On a laptop there is no top-down camera; the panel plays the sample footage shipped with
the vision package (``vision.samples``: a recorded Infinifield opening, one image per
moment) through vision's own replay source (:func:`vision.capture.open_source`), so a
newcomer sees what the camera sees. Frames are read on the main loop only while the panel is
visible, a few per second, and scaled down for the screen.

Example:
    >>> replay = CameraReplay(None)
    >>> replay.available, replay.next_frame()
    (False, None)
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

HOLD_FRAMES = 4
"""Each recorded image is shown this many frames (about a second at the panel's 4 fps)."""


def sample_footage() -> Path | None:
    """The folder of recorded footage shipped as ``vision.samples``, if installed."""
    try:
        folder = Path(str(resources.files("vision.samples")))
    except (ModuleNotFoundError, TypeError):
        return None
    return folder if folder.is_dir() else None


class CameraReplay:
    """Loops over recorded footage, returning RGB frames at most ``max_width`` wide.

    Attributes:
        source: the footage (a folder of images or a video file), if any.
        frames_read: frames shown so far.
    """

    def __init__(self, source: Path | None, max_width: int = 360, loop: bool = True) -> None:
        self.source = source
        self.max_width = max_width
        self.loop = loop
        self.frames_read = 0
        self._capture: Any = None
        self.error = ""

    @property
    def available(self) -> bool:
        """Whether there is anything to play."""
        return self.source is not None and not self.error

    def next_camera_frame(self) -> np.ndarray | None:
        """The next frame as the camera gives it (BGR, full size), or ``None``.

        ``None`` also once a replay that does not loop is over.
        """
        if not self.available:
            return None
        from vision.capture import CaptureError, open_source

        try:
            if self._capture is None:
                self._capture = open_source(str(self.source), loop=self.loop, hold=HOLD_FRAMES)
                self._capture.open()
            frame: np.ndarray | None = self._capture.read()
        except CaptureError as error:
            self.error = str(error)
            return None
        if frame is not None:
            self.frames_read += 1
        return frame

    def for_screen(self, frame: np.ndarray) -> np.ndarray:
        """A camera frame as an RGB array at most ``max_width`` wide, for a texture."""
        import cv2

        frame = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)
        height, width = frame.shape[:2]
        if width > self.max_width:
            frame = cv2.resize(frame, (self.max_width, round(height * self.max_width / width)),
                               interpolation=cv2.INTER_AREA)
        return frame

    def next_frame(self) -> np.ndarray | None:
        """The next frame ready for the screen (RGB, scaled), or ``None`` with no footage."""
        frame = self.next_camera_frame()
        return None if frame is None else self.for_screen(frame)

    def close(self) -> None:
        """Release the footage. Safe to call more than once."""
        if self._capture is not None:
            self._capture.close()
            self._capture = None
