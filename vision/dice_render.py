"""Synthetic photos of a dice tray with exact ground truth.

Square d6 faces with their pips, turned a little, on a plain tray: what the app's desktop
simulation shows the camera, and what tests read back.

Example:
    >>> tray = render_dice_tray((3, 5, 6), seed=1)
    >>> tray.image.shape, tray.values
    ((320, 480, 3), (3, 5, 6))
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

PIP_LAYOUTS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
               4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
               5: ((-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)),
               6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1))}
"""Where the pips of each face stand, in thirds of the face from its centre."""
FACE_COLOURS = (((235, 235, 232), (25, 25, 25)), ((40, 40, 190), (240, 240, 240)),
                ((150, 60, 20), (235, 235, 235)), ((30, 150, 40), (240, 240, 240)))
"""(face BGR, pip BGR) pairs the dice are drawn in."""
TRAY_BGR = (70, 95, 60)


@dataclass(frozen=True)
class DiceTray:
    """A rendered tray: the BGR image, each die's face value and box, left to right."""

    image: np.ndarray
    values: tuple[int, ...]
    boxes: tuple[tuple[int, int, int, int], ...]


def render_dice_tray(values: tuple[int, ...], seed: int = 0,
                     size: tuple[int, int] = (480, 320), die_px: int = 44) -> DiceTray:
    """Draw ``values`` as dice lying left to right (a little jitter and turn each) on a tray.

    Args:
        values: the faces, 1-6, in the order they lie from left to right.
        seed: jitter, turn and colour of each die.
        size: image width and height in pixels.
        die_px: the side of a die in pixels.

    Raises:
        ValueError: a value is not 1-6, or the dice do not fit side by side.
    """
    width, height = size
    if any(v not in PIP_LAYOUTS for v in values):
        raise ValueError(f"dice faces must be 1-6, got {values}")
    slot = width / max(1, len(values))
    if slot < die_px * 1.5:
        raise ValueError(f"{len(values)} dice of {die_px} px do not fit in {width} px")
    rng = random.Random(seed)
    image = np.full((height, width, 3), TRAY_BGR, np.uint8)
    boxes = []
    half = die_px / 2
    for i, value in enumerate(values):
        cx = slot * (i + 0.5) + rng.uniform(-0.15, 0.15) * (slot - die_px)
        cy = height / 2 + rng.uniform(-0.25, 0.25) * (height - 2 * die_px)
        turn = math.radians(rng.uniform(-40, 40))
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        face, pip = FACE_COLOURS[rng.randrange(len(FACE_COLOURS))]
        corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        pts = (corners @ rot.T + (cx, cy)).astype(np.int32)
        cv2.fillPoly(image, [pts], face, cv2.LINE_AA)
        radius = round(die_px * (0.16 if value == 1 else 0.11))
        for u, v in PIP_LAYOUTS[value]:
            x, y = rot @ np.array([u, v]) * die_px * 0.29 + (cx, cy)
            cv2.circle(image, (round(x), round(y)), radius, pip, -1, cv2.LINE_AA)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        boxes.append((int(x0), int(y0), int(x1), int(y1)))
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    image = np.clip(cv2.GaussianBlur(image, (3, 3), 0) + noise, 0, 255).astype(np.uint8)
    return DiceTray(image, tuple(values), tuple(boxes))
