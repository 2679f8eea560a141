"""The replayed camera feed for the simulation panel: recorded table footage, looped.

On a laptop there is no top-down camera; the panel plays the sample footage shipped with
the vision package (``vision/samples/``: a video, or a folder of frames) so a newcomer sees
what the camera sees. Frames are read on the main loop only while the panel is visible, at a
few frames per second, and scaled down for the screen.

Example:
    >>> replay = CameraReplay([])
    >>> replay.available, replay.next_frame()
    (False, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np

VIDEO_SUFFIXES = (".mp4", ".avi", ".mjpg", ".mkv")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def sample_footage() -> list[Path]:
    """The recorded footage shipped in ``vision/samples/`` (videos first, then frames)."""
    try:
        folder = Path(str(resources.files("vision").joinpath("samples")))
    except (ModuleNotFoundError, TypeError):
        return []
    if not folder.is_dir():
        return []
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    videos = [p for p in files if p.suffix.lower() in VIDEO_SUFFIXES]
    images = [p for p in files if p.suffix.lower() in IMAGE_SUFFIXES]
    return videos + images


class CameraReplay:
    """Loops over videos and still frames, returning RGB frames at most ``max_width`` wide."""

    def __init__(self, sources: Sequence[Path], max_width: int = 360) -> None:
        self.sources = list(sources)
        self.max_width = max_width
        self.index = 0
        self.frames_read = 0
        self._capture: object | None = None

    @property
    def available(self) -> bool:
        """Whether there is anything to play."""
        return bool(self.sources)

    @property
    def current(self) -> Path | None:
        """The file being played."""
        return self.sources[self.index] if self.sources else None

    def next_frame(self) -> np.ndarray | None:
        """The next frame as an RGB array (rows top to bottom), or ``None`` with no footage."""
        import cv2

        for _attempt in range(len(self.sources) + 1):
            source = self.current
            if source is None:
                return None
            if self._capture is None:
                self._capture = cv2.VideoCapture(str(source))
            ok, frame = self._capture.read()  # type: ignore[attr-defined]
            if ok and frame is not None:
                self.frames_read += 1
                if source.suffix.lower() in IMAGE_SUFFIXES:
                    self._advance()
                return self._fit(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB))
            self._advance()
        return None

    def _advance(self) -> None:
        if self._capture is not None:
            self._capture.release()  # type: ignore[attr-defined]
        self._capture = None
        self.index = (self.index + 1) % len(self.sources)

    def _fit(self, frame: np.ndarray) -> np.ndarray:
        import cv2

        height, width = frame.shape[:2]
        if width <= self.max_width:
            return frame
        scale = self.max_width / width
        return cv2.resize(frame, (self.max_width, round(height * scale)),
                          interpolation=cv2.INTER_AREA)

    def close(self) -> None:
        """Release the file being read. Safe to call more than once."""
        if self._capture is not None:
            self._capture.release()  # type: ignore[attr-defined]
            self._capture = None
