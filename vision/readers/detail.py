"""How much detail the camera gives a block top, and whether that is enough to read a field.

A set-up reading tells blocks apart by their tops' edges and levels by their size: both are
a matter of pixels. A 40 mm top seen from a stand 55-65 cm up is 30-40 px across at
640x480; from a metre up, 18-20 px, and a level of a tower adds under one pixel to its size.
On the photoreal tuning scenes (``bench/table3d_accuracy.py --split tune``, 2026-11-27) the
flat fields' touching graphs were exactly right 96 times in 99 where a top measured
:data:`MIN_TOP_PX` or more across at the play area's centre, and 7 in 9 below that; no
stacked field below it was read fully right (0 of 4). On scenes not tuned on (held out,
and 40 families rendered later) the gap is smaller: flat 67 in 74 against 9 in 11, stacked
14 in 46 against 2 in 11. The reading says so
(:func:`vision.readers.notes.detail_note`), so the players move the camera down or give it
a larger picture instead of trusting a reading the camera cannot make.

Example:
    >>> from vision.camera_model import Intrinsics
    >>> from vision.layout import TableLayout
    >>> from vision.pose import TablePose
    >>> cam = Intrinsics.pinhole(532.0, (640, 480))      # about 62 degrees across
    >>> near = camera_detail(TablePose.looking_down(cam, TableLayout(), 600.0))
    >>> far = camera_detail(TablePose.looking_down(cam, TableLayout(), 1100.0))
    >>> round(near.top_px), near.enough, round(far.top_px), far.enough
    (38, True, 20, False)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.pose import TablePose

MIN_TOP_PX = 22.0
"""A first-level top narrower than this in the frame (pixels, at the play area's centre)
is too little detail to read a field reliably (see the module's figures)."""


@dataclass(frozen=True)
class CameraDetail:
    """A first-level top's size in the frame, at the play area's centre.

    Attributes:
        top_px: the top's side in frame pixels (mean of its two axes).
        level_px: how many pixels a level higher adds to that side (a tower's only cue
            straight under the camera).
    """

    top_px: float
    level_px: float

    @property
    def enough(self) -> bool:
        """Whether a top is at least :data:`MIN_TOP_PX` across."""
        return self.top_px >= MIN_TOP_PX


def camera_detail(pose: TablePose) -> CameraDetail:
    """How large a block top shows at the centre of ``pose``'s table, and a level's step."""
    layout = pose.layout
    cx, cy = layout.width_mm / 2, layout.height_mm / 2
    half = layout.block_mm / 2

    def side(height: float) -> float:
        pts = [[cx - half, cy, height], [cx + half, cy, height],
               [cx, cy - half, height], [cx, cy + half, height]]
        px = pose.project(pts)
        return float((np.linalg.norm(px[1] - px[0]) + np.linalg.norm(px[3] - px[2])) / 2)

    one = side(layout.block_height_mm)
    return CameraDetail(one, side(2 * layout.block_height_mm) - one)
