"""A top's level from its size: a region that ran on into a same-coloured block is no tower.

``levels3d.face_levels`` reads a top ``n`` levels up by how much larger it shows than the
level-one tops (infinifield.md, "Build the field": blocks stand on the table or on blocks).
Its size is measured across the direction side faces smear in; where the region ran on along
that axis into a touching block of the same colour, the other axis (the top and its smear)
still bounds it (issue 12; r500's f515, a flat field read with a level-three top).
"""

from __future__ import annotations

import math

import numpy as np

from vision.camera_model import Intrinsics
from vision.layout import TableLayout
from vision.pose import TablePose
from vision.readers.faces3d import TopFace
from vision.readers.levels3d import camera_depth, face_levels


def _pose() -> TablePose:
    f = 320 / math.tan(math.radians(65 / 2))
    k = np.array([[f, 0, 320], [0, f, 240], [0, 0, 1]])
    cam = Intrinsics(k, np.zeros(5), (640, 480), "test", "calibrated")
    return TablePose.looking_down(cam, TableLayout(), 600.0, (0.0, 0.0, 0.0), (305.0, 220.0))


def _field(odd: TopFace) -> list[TopFace]:
    """Eight level-one yellow tops (37.5 mm between their flat edges) and ``odd``."""
    tops = [TopFace("yellow", np.array([200.0 + 41 * i, 120.0 + 20 * (i % 2)]), 0.0, 37.5, 0.95,
                    (37.5, 37.5)) for i in range(8)]
    return [*tops, odd]


def _size_of_level(pose: TablePose, at: np.ndarray, level: int) -> float:
    """How large a 37.5 mm top ``level`` levels up shows in the level-one plane (mm)."""
    h1 = pose.layout.block_height_mm
    return 37.5 * camera_depth(pose, at, h1) / camera_depth(pose, at, h1 * level)


def test_a_top_whose_region_ran_into_a_same_coloured_block_stays_on_the_table() -> None:
    pose = _pose()
    at = np.array([305.0, 320.0])      # 10 cm from the nadir: side faces smear along y
    # along x (the clean axis) the region ran 7 mm on into its neighbour; along y it holds
    # the top and a millimetre of side face
    odd = TopFace("yellow", at, 0.0, 41.5, 0.95, (44.5, 38.5))
    h1 = pose.layout.block_height_mm
    assert _size_of_level(pose, at, 3) < 44.5
    assert face_levels(pose, _field(odd), h1, pose.layout.block_mm, 3)[-1] == 1


def test_a_raised_top_larger_on_both_sides_is_still_raised() -> None:
    pose = _pose()
    at = np.array([305.0, 320.0])
    two = _size_of_level(pose, at, 2)
    raised = TopFace("yellow", at, 0.0, two + 2.0, 0.95, (two + 0.3, two + 4.0))
    h1 = pose.layout.block_height_mm
    assert face_levels(pose, _field(raised), h1, pose.layout.block_mm, 3)[-1] == 2
