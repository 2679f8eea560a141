"""Blocks and pawns found in a classified top view, in table millimetres.

Each block colour's pixels are grouped into connected regions. A region as large as
several blocks (same-colour blocks that touch) is split into that many by k-means on its
pixels; each block's outline is then the known block square at the region's centre and
angle. Pawns are round regions of a pawn colour; each stands on the block whose outline
contains its centre.

Example:
    >>> from vision.render import SceneSpec, render_scene
    >>> from vision.calibration import calibrate
    >>> from vision.rectify import rectify
    >>> from vision.palette import UNKNOWN, default_palette
    >>> from vision.rectify import marker_keepout
    >>> scene = render_scene(SceneSpec(seed=4))
    >>> calib = calibrate(scene.image)
    >>> classes = default_palette().classify(rectify(scene.image, calib).image)
    >>> classes[marker_keepout(calib.layout, 1.0) > 0] = UNKNOWN   # the markers' white paper
    >>> blocks = find_blocks(classes, default_palette(), calib.layout, 1.0)
    >>> len(blocks) == len(scene.field.blocks)
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import contains, square
from vision.layout import TableLayout
from vision.palette import Palette

_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


@dataclass(frozen=True)
class SeenBlock:
    """A block seen from above.

    Attributes:
        colour: palette class name.
        centre: (x, y) in table mm.
        angle: rotation in degrees, in [-45, 45).
        outline: (4, 2) corners in table mm.
    """

    colour: str
    centre: tuple[float, float]
    angle: float
    outline: np.ndarray


@dataclass(frozen=True)
class SeenPawn:
    """A pawn seen from above: colour, centre (mm) and index of the block it stands on."""

    colour: str
    centre: tuple[float, float]
    block: int | None


def _angle(rect_angle: float) -> float:
    a = rect_angle % 90.0
    return a - 90.0 if a >= 45.0 else a


def _blocks_in_region(points: np.ndarray, k: int) -> list[tuple[tuple[float, float], float]]:
    """Split a region's pixel coordinates (N, 2) into ``k`` blocks: [(centre, angle)]."""
    if k <= 1:
        (cx, cy), _size, ang = cv2.minAreaRect(points.astype(np.float32))
        return [((cx, cy), _angle(ang))]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.2)
    pts = points.astype(np.float32)
    _c, labels, _centres = cv2.kmeans(pts, k, None, criteria, 1,  # type: ignore[call-overload]
                                       cv2.KMEANS_PP_CENTERS)
    (_, _), _, region_angle = cv2.minAreaRect(pts)
    out = []
    for j in range(k):
        part = pts[labels.ravel() == j]
        if len(part) < 5:
            continue
        (cx, cy), _size, _ang = cv2.minAreaRect(part)
        out.append(((cx, cy), _angle(region_angle)))
    return out


def _regions(mask: np.ndarray) -> list[np.ndarray]:
    """External contours of a 0/1 mask after a 3x3 opening (specks and seams removed)."""
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return list(contours)


def class_counts(classes: np.ndarray) -> np.ndarray:
    """How many pixels each class index (0-255) has, to skip absent classes cheaply."""
    return np.bincount(classes.ravel(), minlength=256)


def find_blocks(classes: np.ndarray, palette: Palette, layout: TableLayout,
                px_per_mm: float, counts: np.ndarray | None = None) -> list[SeenBlock]:
    """The blocks in a class-index top view (see :meth:`Palette.classify`).

    Args:
        classes: per-pixel class indexes of the rectified table.
        palette: the palette that produced them.
        layout: block size.
        px_per_mm: scale of ``classes``.
        counts: :func:`class_counts` of ``classes``, if already known.

    Returns:
        Blocks sorted by colour, then reading order (rows of a block's height, left to right).
    """
    side_px = layout.block_mm * px_per_mm
    block_area = side_px * side_px
    found: list[SeenBlock] = []
    counts = class_counts(classes) if counts is None else counts
    for index in palette.of_kind("block"):
        if counts[index] < 0.3 * block_area:
            continue
        mask = (classes == index).view(np.uint8)
        for contour in _regions(mask):
            filled = cv2.contourArea(contour)
            if filled < 0.3 * block_area:
                continue
            # outlines are seen a little inside the true edge (bevel, blur): ~(side-2)^2
            k = max(1, round(filled / ((side_px - 2.0) ** 2)))
            if k == 1:
                points = contour.reshape(-1, 2)
            else:
                x, y, w, h = cv2.boundingRect(contour)
                roi = np.zeros((h, w), np.uint8)
                cv2.drawContours(roi, [contour - np.array([x, y])], -1, 1, -1)
                roi &= mask[y:y + h, x:x + w]
                ys, xs = np.nonzero(roi)
                points = np.stack([xs + x, ys + y], axis=1)
            for (cx, cy), ang in _blocks_in_region(points, k):
                centre = (cx / px_per_mm, cy / px_per_mm)
                found.append(SeenBlock(palette.classes[index].name, centre, ang,
                                       square(centre, layout.block_mm, ang)))
    row = layout.block_mm
    found.sort(key=lambda b: (b.colour, round(b.centre[1] / row), b.centre[0]))
    return found


def find_pawns(classes: np.ndarray, palette: Palette, layout: TableLayout, px_per_mm: float,
               blocks: list[SeenBlock], counts: np.ndarray | None = None) -> list[SeenPawn]:
    """The pawns in a class-index top view, each with the index of its block in ``blocks``."""
    radius_px = layout.pawn_mm / 2 * px_per_mm
    area = math.pi * radius_px * radius_px
    pawns: list[SeenPawn] = []
    counts = class_counts(classes) if counts is None else counts
    for index in palette.of_kind("pawn"):
        if counts[index] < 0.25 * area:
            continue
        mask = (classes == index).view(np.uint8)
        for contour in _regions(mask):
            m = cv2.moments(contour)
            if not 0.25 * area <= m["m00"] <= 3.0 * area:
                continue
            cx, cy = m["m10"] / m["m00"] / px_per_mm, m["m01"] / m["m00"] / px_per_mm
            on = next((i for i, b in enumerate(blocks)
                       if contains(b.outline, (cx, cy), margin=2.0)), None)
            pawns.append(SeenPawn(palette.classes[index].name, (cx, cy), on))
    pawns.sort(key=lambda p: p.colour)
    return pawns


def unknown_blob_mm2(classes: np.ndarray, keepout: np.ndarray, px_per_mm: float,
                     unknown: int) -> float:
    """Area (mm²) of the largest region matching no colour (a hand, an arm, a box)."""
    mask = (classes == unknown).astype(np.uint8)
    mask[keepout > 0] = 0
    areas = [cv2.contourArea(c) for c in _regions(mask)]
    return max(areas, default=0.0) / (px_per_mm * px_per_mm)
