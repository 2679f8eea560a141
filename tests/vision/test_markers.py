"""ArUco detection on real photos and on the printed sheet (issue 7, "Table calibration")."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.markers import detect_markers, detect_markers_near, marker_image


def _gold(aruco_dir: Path) -> dict[str, dict[int, np.ndarray]]:
    labels = json.loads((aruco_dir / "labels.json").read_text())
    return {name: {int(k): np.array(v, float) for k, v in markers.items()}
            for name, markers in labels["images"].items()}


@pytest.mark.parametrize("name", ["singlemarkersoriginal.jpg", "choriginal.jpg",
                                  "chocclusion_original.jpg"])
def test_every_gold_marker_found_within_one_pixel_and_nothing_else(aruco_dir: Path,
                                                                   name: str) -> None:
    gold = _gold(aruco_dir)[name]
    image = cv2.imread(str(aruco_dir / name))
    found = detect_markers(image, "DICT_6X6_250")
    assert sorted(found) == sorted(gold), "a gold marker is missing or a false one was found"
    for marker_id, corners in gold.items():
        error = np.linalg.norm(found[marker_id] - corners, axis=1).max()
        assert error <= 1.0, f"marker {marker_id} corners off by {error:.2f} px"


def test_ids_are_plain_ints_with_four_corners_each() -> None:
    canvas = np.full((200, 200), 255, np.uint8)
    canvas[50:130, 50:130] = marker_image(7, 80)
    found = detect_markers(canvas)
    assert list(found) == [7]
    assert isinstance(next(iter(found)), int)
    assert found[7].shape == (4, 2)
    assert np.allclose(found[7][0], (50, 50), atol=1.0)


def test_search_near_last_place_finds_the_same_corners_and_misses_a_moved_marker() -> None:
    canvas = np.full((300, 400), 255, np.uint8)
    canvas[40:100, 40:100] = marker_image(0, 60)
    everywhere = detect_markers(canvas)
    near = detect_markers_near(canvas, everywhere)
    assert np.allclose(near[0], everywhere[0])
    moved = np.full((300, 400), 255, np.uint8)
    moved[200:260, 300:360] = marker_image(0, 60)
    assert detect_markers_near(moved, everywhere) == {}


def test_unknown_dictionary_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="DICT_9X9"):
        detect_markers(np.zeros((10, 10), np.uint8), "DICT_9X9")
