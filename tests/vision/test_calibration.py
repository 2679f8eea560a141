"""Table calibration from four ArUco markers (issue 7, "Table calibration")."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.calibration import (
    DRIFT_LIMIT_PX,
    CalibrationError,
    calibrate,
    drift_px,
    load_calibration,
)
from vision.layout import TableLayout
from vision.render import SceneSpec, render_scene


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_homography_maps_pixels_to_table_mm_within_a_millimetre(seed: int) -> None:
    scene = render_scene(SceneSpec(seed=seed, perspective=0.05))
    calib = calibrate(scene.image)
    table_mm = np.array([[100.0, 100.0], [300.0, 225.0], [500.0, 350.0], [450.0, 80.0]])
    pixels = (scene.table_to_image @ np.c_[table_mm, np.ones(4)].T).T
    pixels = pixels[:, :2] / pixels[:, 2:]
    assert np.abs(calib.to_mm(pixels) - table_mm).max() < 1.0
    assert np.abs(calib.to_px(table_mm) - pixels).max() < 1.0


def test_saved_calibration_loads_back_and_checks_clean_at_start(tmp_path: Path) -> None:
    scene = render_scene(SceneSpec(seed=4))
    calib = calibrate(scene.image)
    path = tmp_path / "table.json"
    calib.save(path)
    again = load_calibration(path)
    assert np.allclose(again.homography, calib.homography)
    assert again.layout == calib.layout
    assert drift_px(again, scene.image) < 0.5


def test_camera_moved_is_reported_as_drift_beyond_the_limit() -> None:
    calib = calibrate(render_scene(SceneSpec(seed=5)).image)
    moved = render_scene(SceneSpec(seed=6)).image   # another random camera pose
    assert drift_px(calib, moved) > DRIFT_LIMIT_PX


def test_three_markers_suffice_but_two_do_not() -> None:
    scene = render_scene(SceneSpec(seed=7))
    image = scene.image.copy()
    x0, y0 = scene.marker_px[0].min(axis=0).astype(int) - 3
    x1, y1 = scene.marker_px[0].max(axis=0).astype(int) + 3
    image[y0:y1, x0:x1] = 90
    calibrate(image)
    x0, y0 = scene.marker_px[1].min(axis=0).astype(int) - 3
    x1, y1 = scene.marker_px[1].max(axis=0).astype(int) + 3
    image[y0:y1, x0:x1] = 90
    with pytest.raises(CalibrationError, match=r"missing \[0, 1\]"):
        calibrate(image)


def test_broken_calibration_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"image_size": [640, 480]}))
    with pytest.raises(CalibrationError, match=r"table.json: missing key 'homography'"):
        load_calibration(path)
    path.write_text("{not json")
    with pytest.raises(CalibrationError, match=r"table.json: line 1"):
        load_calibration(path)


def test_layout_rejects_unknown_keys_and_bad_sizes() -> None:
    with pytest.raises(ValueError,
                       match=r"layout: colour: unknown key; .*expected one of: block_height_mm"):
        TableLayout.from_json({"colour": 1})
    with pytest.raises(ValueError, match="block_mm must be positive"):
        TableLayout.from_json({"block_mm": -3})


@pytest.mark.parametrize("scene_id", ["f172_before", "f001_before", "f013_hand"])
def test_small_markers_of_a_far_camera_still_calibrate(scene_id: str) -> None:
    # issue 12: the four markers fully in view, only 20-30 px wide (a camera about a metre
    # up at 640x480, or an arm's shadow over one): the plain detector finds fewer than three,
    # `infinite-vision calibrate` must not fail. The homography lands the markers' true
    # corners (the render's ground truth) within a pixel and a half.
    from tests.vision.table3d_reading import load_tune_scene
    from vision.markers import TABLE_DICTIONARY, detect_markers

    scene = load_tune_scene(scene_id)
    image = scene.image()
    plain = [i for i in detect_markers(image, TABLE_DICTIONARY) if i in scene.layout.marker_ids]
    assert len(plain) < 3
    calib = calibrate(image, scene.layout)
    assert sorted(calib.marker_px) == list(scene.layout.marker_ids)
    for marker_id, corners_px in scene.markers_px.items():
        corners_mm = np.asarray(scene.layout.marker_corners_mm(marker_id))
        assert np.abs(calib.to_px(corners_mm) - np.asarray(corners_px)).max() < 1.5
    # `infinite-vision check` against the same photo: the markers have not moved
    assert drift_px(calib, image) < 0.5
