"""Reading d6 pips (issue 7, "Dice and bases"; infinidungeon.md rolls are physical dice)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.readers.dice import box_iou, count_pips, find_dice, read_die

PATTERNS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
            5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
            6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


def _tray(dice: list[tuple[int, tuple[int, int], float, tuple[int, int, int], tuple[int, int, int]]]
          ) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A grey tray with square dice: (pips, centre, angle, face BGR, pip BGR) each."""
    image = np.full((400, 400, 3), (200, 204, 206), np.uint8)
    boxes = []
    for pips, (cx, cy), angle, face, pip in dice:
        half = 20
        t = math.radians(angle)
        rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
        corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rot.T
        pts = (corners + np.array([cx, cy])).astype(np.int32)
        cv2.fillPoly(image, [pts], face, cv2.LINE_AA)
        for u, v in PATTERNS[pips]:
            x, y = rot @ np.array([u * 11.0, v * 11.0]) + (cx, cy)
            cv2.circle(image, (round(x), round(y)), 6 if pips == 1 else 4, pip, -1, cv2.LINE_AA)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        boxes.append((int(x0) - 2, int(y0) - 2, int(x1) + 2, int(y1) + 2))
    return cv2.GaussianBlur(image, (3, 3), 0), boxes


@pytest.mark.parametrize("pips", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("face,pip", [((235, 235, 235), (20, 20, 20)),
                                      ((40, 40, 190), (240, 240, 240)),
                                      ((150, 60, 20), (230, 230, 230))])
def test_pips_of_a_turned_die_are_counted(pips: int, face: tuple[int, int, int],
                                          pip: tuple[int, int, int]) -> None:
    image, boxes = _tray([(pips, (200, 200), 17.0 * pips, face, pip)])
    assert count_pips(image, boxes[0]) == pips


def test_dice_in_a_tray_are_found_and_their_pips_counted() -> None:
    image, boxes = _tray([(3, (80, 90), 10, (40, 40, 190), (240, 240, 240)),
                          (5, (250, 120), 35, (150, 60, 20), (230, 230, 230)),
                          (6, (160, 300), 60, (30, 160, 40), (240, 240, 240))])
    found = find_dice(image)
    assert len(found) == 3
    for box in found:
        best = max(range(3), key=lambda i: box_iou(box, boxes[i]))
        assert box_iou(box, boxes[best]) >= 0.5
        assert count_pips(image, box) == [3, 5, 6][best]


def test_box_outside_the_image_is_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        read_die(np.zeros((50, 50, 3), np.uint8), (60, 60, 90, 90))


def test_real_dice_photos_keep_their_measured_accuracy(dice_dir: Path) -> None:
    """A regression floor on real photos (every 10th photo): the bench measures them all."""
    labels = json.loads((dice_dir / "labels.json").read_text())
    right = total = found = 0
    for name in sorted(labels)[::10]:
        image = cv2.imread(str(dice_dir / name))
        boxes = find_dice(image)
        for die in labels[name]:
            total += 1
            right += read_die(image, tuple(die["box"])) == die["pips"]
            found += any(box_iou(tuple(die["box"]), b) >= 0.5 for b in boxes)
    assert right / total >= 0.70
    assert found / total >= 0.50
