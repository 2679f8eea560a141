"""Wait for a still view: nothing moved for a few frames (hands out of the way).

Frames are compared on a small grey thumbnail, so the test costs well under a millisecond.

Example:
    >>> import numpy as np
    >>> still = StabilityDetector(still_frames=2)
    >>> frame = np.zeros((48, 64, 3), np.uint8)
    >>> [still.update(frame) for _ in range(3)]
    [False, False, True]
"""

from __future__ import annotations

import cv2
import numpy as np

THUMB_SIZE = (80, 60)


class StabilityDetector:
    """Says when the view has stayed still long enough to be read.

    Args:
        still_frames: how many consecutive frames must match the one before.
        threshold: mean absolute grey difference (0-255) under which two frames match.
    """

    def __init__(self, still_frames: int = 5, threshold: float = 2.5) -> None:
        if still_frames < 1:
            raise ValueError(f"still_frames must be at least 1, got {still_frames}")
        self.still_frames = still_frames
        self.threshold = threshold
        self._previous: np.ndarray | None = None
        self._run = 0

    @property
    def still_for(self) -> int:
        """How many consecutive still frames have been seen."""
        return self._run

    def update(self, frame: np.ndarray) -> bool:
        """Feed one frame; True while the view has been still for ``still_frames`` frames."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        thumb = cv2.resize(grey, THUMB_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)
        if self._previous is not None and self._previous.shape == thumb.shape:
            moved = float(np.abs(thumb - self._previous).mean()) > self.threshold
            self._run = 0 if moved else self._run + 1
        else:
            self._run = 0
        self._previous = thumb
        return self._run >= self.still_frames

    def reset(self) -> None:
        """Forget the past frames (after the camera was reopened, say)."""
        self._previous = None
        self._run = 0
