"""Photos on which the reader failed outright (tests/data/table3d_regressions): the set-up
reading of such a photo is a reading, never a traceback (issue 12, "Reading the field")."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.vision.table3d_reading import read_tune_scene, tune_scene_views
from vision.readers.field3d import read_field
from vision.readers.ground3d import first_level

REGRESSIONS = Path(__file__).resolve().parents[1] / "data" / "table3d_regressions"


def test_a_top_whose_core_falls_in_scraps_is_no_top_and_the_field_is_still_read() -> None:
    """f838 (unseen stacked set of 2026-11-29): one top's core fell only in parts too small
    to be a top's and the reader raised ValueError, alone or on the first level; it is
    passed over, and the field is read: on its first level, all its blocks but one found
    with their colours at their levels."""
    from table3d_accuracy import match

    _ground_scene, ground_reading = read_tune_scene("f838_ground", REGRESSIONS)
    scene, views = tune_scene_views("f838_before", REGRESSIONS)
    alone = read_field(views.frame, views.pose, views.palette)
    assert len(alone.blocks) >= len(scene.blocks) - 4
    reading = read_field(views.frame, views.pose, views.palette,
                         ground=first_level(ground_reading.blocks))
    found = match(reading, scene)
    right = [b for b, i in found.items() if reading.blocks[i].colour == scene.blocks[b].colour
             and reading.blocks[i].level == scene.blocks[b].level]
    assert len(right) >= len(scene.blocks) - 1 == 21


def test_markers_put_by_two_in_a_line_are_found_at_the_size_they_show() -> None:
    """f988 (unseen stacked set of 2026-11-29, the camera 98 cm up): the four markers are in
    view, 18-20 px wide and soft; the two on the right are found, and the homography of their
    eight corners (in a line down the table) puts the two on the left 10 % too large and
    10 px off. Looked for at a few sizes round that, all four are found, each corner within
    1.5 px of where it is, and the camera's pose is solved from them (issue 12, "Marker
    detection must not fail when the four markers are fully in view")."""
    import numpy as np

    from vision.camera_model import Intrinsics
    from vision.devtools.table3d_truth import load_scene
    from vision.pose import find_table_markers, solve_pose

    scene = load_scene(REGRESSIONS / "f988_before.json")
    found = find_table_markers(scene.image(), scene.layout)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        truth = np.asarray(scene.raw["markers"][str(marker_id)]["corners_px"], float)
        assert np.abs(np.asarray(corners, float).reshape(4, 2) - truth).max() < 1.5
    cam = scene.camera
    own = Intrinsics(np.asarray(cam.K, float), np.asarray(cam.dist, float), cam.size,
                     "f988", "calibrated")
    pose = solve_pose(found, cam.size, own, scene.layout)
    assert abs(abs(float(pose.camera_position()[2])) - cam.height_mm) < 10.0


def test_a_marker_the_other_three_put_elsewhere_is_dropped() -> None:
    """f1388's first-level photo (unseen stacked set of 2026-11-29, a warm lamp): an outline
    round marker 2's paper matches marker 1's pattern, 230 px from where marker 1 is. The
    other three markers put marker 1 elsewhere, so that one is dropped: the three right
    ones are kept within a pixel or two of their corners, and the pose from them puts the
    camera within 2 cm of where it stands (with the false marker it was 1.2 m off)."""
    from table3d_accuracy import intrinsics_of

    from vision.devtools.table3d_truth import load_scene
    from vision.pose import find_table_markers, solve_pose

    scene = load_scene(REGRESSIONS / "f1388_ground.json")
    found = find_table_markers(scene.image(), scene.layout)
    assert set(found) <= set(scene.markers_px) and len(found) >= 3
    for i, corners in found.items():
        truth = np.asarray(scene.markers_px[i], np.float64)
        assert np.abs(np.asarray(corners, np.float64).reshape(4, 2) - truth).max() < 2.5, i
    pose = solve_pose(found, scene.camera.size, intrinsics_of(scene, "true"), scene.layout)
    camera = np.asarray(scene.camera.position_mm, np.float64) * [1, 1, -1]
    assert np.linalg.norm(pose.camera_position() - camera) < 20.0
