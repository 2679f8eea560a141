"""The dice in a tray read in the order they lie (issue 7: "Read the pips of six-sided dice in
the tray ... the result goes to the engine as a physical roll, confirmed on screen")."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import count_pips
from vision.dice_render import render_dice_tray
from vision.dice_tray import read_tray, tray_values


@pytest.mark.parametrize("seed", range(12))
def test_rendered_dice_are_read_left_to_right(seed: int) -> None:
    """Every rendered roll of 1-5 dice comes back face for face, in the order it lies."""
    rng = random.Random(seed)
    values = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 5)))
    tray = render_dice_tray(values, seed=seed)
    assert tray_values(tray.image, reader=count_pips) == list(values)


def test_only_the_tray_region_is_read() -> None:
    """Dice outside the tray's region are not part of the roll; boxes are in frame pixels."""
    tray = render_dice_tray((6, 2, 5, 3), seed=4, size=(560, 320))
    right_half = (280, 0, 560, 320)
    readings = read_tray(tray.image, right_half, reader=count_pips)
    assert [r.pips for r in readings] == [5, 3]
    assert all(r.box[0] >= 280 for r in readings)


def test_a_column_of_dice_is_read_top_to_bottom() -> None:
    """Two dice one above the other: the upper one first."""
    left = render_dice_tray((4,), seed=1, size=(120, 120)).image
    below = render_dice_tray((2,), seed=2, size=(120, 120)).image
    assert tray_values(np.vstack([left, below]), reader=count_pips) == [4, 2]


def test_empty_tray_and_bad_region() -> None:
    """No dice reads as no values; a region outside the frame is refused, saying why."""
    empty = np.full((200, 300, 3), (70, 95, 60), np.uint8)
    assert tray_values(empty) == []
    with pytest.raises(ValueError, match="outside the 300x200 frame"):
        tray_values(empty, (400, 0, 500, 100))


def test_real_tray_photos_are_read_in_order(dice_dir: Path) -> None:
    """Real photos (every 25th): dice found in order and mostly read right with the networks.

    The floor is below vision.md's measured figures (find_dice recall ~62 %, reading ~94 % of
    found boxes): a misread or missed die costs the player one tap on the confirmation.
    """
    labels = json.loads((dice_dir / "labels.json").read_text())
    matched = right = total = 0
    for name in sorted(labels)[::25]:
        image = cv2.imread(str(dice_dir / name))
        readings = read_tray(image)
        xs = [(r.box[0] + r.box[2]) / 2 for r in readings]
        assert all(b - a > -40 for a, b in itertools.pairwise(xs)), "left to right"
        for die in labels[name]:
            total += 1
            box = die["box"]
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            hit = [r for r in readings if r.box[0] <= cx <= r.box[2] and r.box[1] <= cy <= r.box[3]]
            if hit:
                matched += 1
                right += hit[0].pips == die["pips"]
    assert total > 0
    assert matched / total >= 0.45
    assert right / matched >= 0.80
