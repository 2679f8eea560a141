"""Where a top's column meets the table tells its level only where the bases lie apart.

``levels3d.column_level`` looks for the table just outside the nadir-facing edges of the
column's base for each level a top could be at. Near the camera's nadir the bases of two
levels lie 2-5 frame pixels apart at 640x480, under the reach of its samples, and there the
column only confirms the level the top's size gave (issue 12; infinifield.md, "Build the
field": blocks stand on the table or on blocks). On the shipped photoreal renders
(``tests/data/table3d``, tuning families only).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.table3d_reading import HIRES_DIR, read_tune_scene, tune_scene_views
from vision.devtools.table3d_truth import DEFAULT_DIR
from vision.readers.faces3d import TopFace, find_faces, one_per_top
from vision.readers.levels3d import (
    COLUMN_PARALLAX_PX,
    column_level,
    column_parallax_px,
    face_levels,
)
from vision.readers.table_views import TableViews


def _face_of(scene_id: str, block_id: str, folder: Path = DEFAULT_DIR
             ) -> tuple[TableViews, TopFace, int]:
    """The views of a tune scene, the face found for one true top, its level by size."""
    scene, views = tune_scene_views(scene_id, folder)
    pose = views.pose
    h1 = pose.layout.block_height_mm
    faces = one_per_top(find_faces(views, h1), pose.layout.block_mm)
    levels = face_levels(pose, faces, h1, pose.layout.block_mm, 3)
    b = scene.blocks[block_id]
    at = pose.to_plane(pose.project([[*b.centre_mm, h1 * b.level]]), h1)[0]
    k = int(np.argmin([np.linalg.norm(f.centre - at) for f in faces]))
    assert np.linalg.norm(faces[k].centre - at) < 8.0
    return views, faces[k], levels[k]


@pytest.mark.parametrize(("scene_id", "block_id", "wrong"), [
    ("f068_before", "Y5", 1),     # a tower near the nadir: its column read on the table
    ("f241_before", "Y1", 2),     # a top on the table read a level up by its column
])
def test_column_near_the_nadir_does_not_overrule_the_size(scene_id: str, block_id: str,
                                                          wrong: int) -> None:
    views, face, by_size = _face_of(scene_id, block_id)
    h1 = views.layout.block_height_mm
    px = views.pose.project([[face.centre[0], face.centre[1], h1]])
    assert column_parallax_px(views.pose, px, h1) < COLUMN_PARALLAX_PX
    assert by_size != wrong
    assert column_level(views, face, h1, 3, by_size) in (None, by_size)


def test_column_far_from_the_nadir_still_decides() -> None:
    # f206's Y7 stands 13 px of parallax out: its column shows it a level up, its size not
    views, face, by_size = _face_of("f206_before", "Y7")
    h1 = views.layout.block_height_mm
    assert by_size == 1
    assert column_level(views, face, h1, 3, by_size) == 2


def test_no_false_tower_from_a_column_read_too_high() -> None:
    # f208: the red top R4 on the table was read three levels up by its column
    scene, reading = read_tune_scene("f208_before")
    r4 = scene.blocks["R4"]
    assert not [b for b in reading.blocks if b.level > 1 and b.colour == "red"
                and np.hypot(b.centre[0] - r4.centre_mm[0], b.centre[1] - r4.centre_mm[1])
                < 20.0]



@pytest.mark.parametrize("block_id", ["R6", "B2"])
def test_the_groove_between_stacked_blocks_is_not_the_table(block_id: str) -> None:
    # f033 at 1280x960: R6 stands on B2 (22 px of parallax). The dark groove where the two
    # blocks meet lies 3 mm outside where a first-level column's base edge would be: read
    # as the table there, it put the tower on the table and dropped B2 under it
    views, face, by_size = _face_of("f033_before", "R6", HIRES_DIR)
    h1 = views.layout.block_height_mm
    assert by_size == 2
    assert column_level(views, face, h1, 3, by_size) != 1
    scene, reading = read_tune_scene("f033_before", HIRES_DIR)
    block = scene.blocks[block_id]
    assert [b for b in reading.blocks if b.level == block.level and b.colour == block.colour
            and np.hypot(b.centre[0] - block.centre_mm[0], b.centre[1] - block.centre_mm[1])
            < 5.0]
