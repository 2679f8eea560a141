"""The dice in a tray read in the order they lie, and only those in the tray (issue 7: "Read
the pips of six-sided dice in the tray ... the result goes to the engine as a physical roll,
confirmed on screen"; issue 13: "only dice inside it are read").

Rendered trays (flat faces, exact ground truth) are found by the training-free finder and
read by the pip counter, as in the app's desktop simulation; the trained detector and reader
are measured on real photos in ``test_dice_net.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.camera_dice import read_readings
from vision.dice_render import render_dice_tray
from vision.markers import marker_image
from vision.readers.dice import count_pips, find_dice
from vision.readers.dice_tray import read_tray, tray_values
from vision.readers.tray import TrayRegion, tray_from_markers, tray_from_outline


def _flat(values: tuple[int, ...], seed: int, size: tuple[int, int] = (480, 320)
          ) -> np.ndarray:
    return render_dice_tray(values, seed=seed, size=size).image


@pytest.mark.parametrize("seed", range(12))
def test_rendered_dice_are_read_left_to_right(seed: int) -> None:
    """Every rendered roll of 1-5 dice comes back face for face, in the order it lies."""
    rng = random.Random(seed)
    values = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 5)))
    image = _flat(values, seed)
    assert tray_values(image, reader=count_pips, finder=find_dice) == list(values)


def test_only_the_tray_region_is_read() -> None:
    """Dice outside the tray's region are not part of the roll; boxes are in frame pixels."""
    image = _flat((6, 2, 5, 3), 4, (560, 320))
    readings = read_tray(image, (280, 0, 560, 320), reader=count_pips, finder=find_dice)
    assert [r.pips for r in readings] == [5, 3]
    assert all(r.box[0] >= 280 for r in readings)


def test_a_column_of_dice_is_read_top_to_bottom() -> None:
    """Two dice one above the other: the upper one first."""
    left = _flat((4,), 1, (120, 120))
    below = _flat((2,), 2, (120, 120))
    assert tray_values(np.vstack([left, below]), reader=count_pips, finder=find_dice) == [4, 2]


def test_empty_tray_and_bad_region() -> None:
    """No dice reads as no values (trained detector); a region outside the frame is refused,
    saying why."""
    empty = np.full((200, 300, 3), (70, 95, 60), np.uint8)
    assert tray_values(empty) == []
    with pytest.raises(ValueError, match="outside the 300x200 frame"):
        tray_values(empty, (400, 0, 500, 100))


def _marked_table(marker_ids: tuple[int, ...]) -> tuple[np.ndarray, list[int]]:
    """A table 760x560: a tray with three dice and tray markers at its corners, two dice
    lying outside it. Returns the frame and the faces inside, left to right."""
    table = np.full((560, 760, 3), (70, 95, 60), np.uint8)
    inside = (5, 1, 4)
    table[150:410, 150:610] = _flat(inside, 7, (460, 260))
    table[20:120, 20:120] = _flat((6,), 3, (100, 100))            # outside, top-left
    table[450:550, 640:740] = _flat((2,), 5, (100, 100))          # outside, bottom-right
    corners = {40: (96, 96), 41: (616, 96), 42: (616, 416), 43: (96, 416)}
    for marker_id in marker_ids:
        x, y = corners[marker_id]
        table[y - 8:y + 56, x - 8:x + 56] = 255
        table[y:y + 48, x:x + 48] = marker_image(marker_id, 48)[..., None]
    return table, list(inside)


@pytest.mark.parametrize("marker_ids", [(40, 41, 42, 43), (40, 42), (41, 43), (40, 41, 42)])
def test_tray_markers_keep_dice_outside_the_tray_out_of_the_roll(
        marker_ids: tuple[int, ...]) -> None:
    """Four, two diagonal or three tray markers mark the tray: only its dice are read."""
    table, inside = _marked_table(marker_ids)
    region = tray_from_markers(table)
    assert region is not None and region.source == "markers"
    assert region.contains((380, 280)) and not region.contains((70, 70))
    values = [r.pips for r in read_readings(table, count_pips)]
    assert values == inside
    without = read_tray(table, None, reader=count_pips, finder=find_dice)
    assert len(without) >= len(inside) + 2, "the whole frame: the dice outside are read too"


def test_one_marker_is_not_a_tray() -> None:
    table, _inside = _marked_table((40,))
    assert tray_from_markers(table) is None


def test_tray_outline_found_once_saved_and_read_back(tmp_path: Path) -> None:
    """A tray on a light table, a dark rim, sloping walls, a floor with dice: found as the
    floor grown to its walls (dice lie against them), not the floor alone; saved as JSON and
    read back the same."""
    frame = np.full((480, 640, 3), 215, np.uint8)
    cv2.rectangle(frame, (100, 80), (540, 400), (40, 40, 40), -1)       # the rim
    cv2.rectangle(frame, (115, 95), (525, 385), (150, 160, 150), -1)    # the walls
    cv2.rectangle(frame, (140, 120), (500, 360), (110, 130, 100), -1)   # the floor
    frame[200:300, 250:390] = _flat((3, 6), 2, (140, 100))
    region = tray_from_outline(frame)
    assert region is not None
    for (x, y), (gx, gy) in zip(region.corners, [(115, 95), (525, 95), (525, 385),
                                                  (115, 385)], strict=True):
        assert abs(x - gx) <= 4 and abs(y - gy) <= 4
    saved = region.save(tmp_path / "tray.json")
    assert TrayRegion.load(saved) == region


def test_a_bad_tray_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "tray.json"
    path.write_text('{"corners": [[0, 0], [10, 0]]}')
    with pytest.raises(ValueError, match=r"tray.json: 'corners' must be four"):
        TrayRegion.load(path)
    path.write_text('{"corners": ')
    with pytest.raises(ValueError, match=r"tray.json: line 1: not valid JSON"):
        TrayRegion.load(path)
