"""A top the set-up reading missed, found under a pawn's head that shows over none of its tops.

A pawn stands on a block (rulebook: pawns stand on blocks), so a pawn's round head seen in
the plane of a first-level top's head height (:data:`~vision.readers.pawns3d.PAWN_HEAD_MM`
over a block) with no read top under it says a top is there. The pawn hides the middle of
that top and casts its shadow on it, so its region can break up and give no face (a white
top under a pawn's dark shadow looks like a ring of white round a strip of mat). The top is
placed as the block-sized square, at the angle of the tops near it, with the head's foot
inside it, that most of one block colour fills round the pawn.

Used by :func:`vision.readers.field3d.read_field` before it looks for pawns on its tops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from vision.geometry import square
from vision.palette import UNKNOWN
from vision.readers.faces3d import refine_square
from vision.readers.levels3d import penetration
from vision.readers.pawns3d import (
    PAWN_BASE_RADIUS_MM,
    PAWN_HEAD_MM,
    ReadBlock,
    hue_nearest,
    pawns_on_blocks,
)
from vision.readers.table_views import TableViews

HEAD_AREA_MM2 = (40.0, 600.0)
"""A pawn's head (about 11 mm across) with the part of its body that shows beside it, as an
area in the plane of its head (mm²): less is a speck, more is a block side or a hand."""

HEAD_SPAN_MM = 30.0
"""The most a head with its body spans in the plane of its head (mm)."""

HEAD_NARROW_MM = 6.0
"""A head is at least this wide (mm) both ways: it is round, 11 mm across (the lit strip of
a block's side face in a pawn's hue is a few millimetres deep)."""

HEAD_ASPECT = 2.0
"""...and at most this many times longer one way than the other (a head with its body)."""

FOOT_REACH_MM = 20.0 - PAWN_BASE_RADIUS_MM
"""How far (mm) the head's foot can be from its top's centre: the base stays on the top."""

FIELD_REACH_MM = 60.0
"""A head counts only this near (mm) a read top's centre: every block touches another
(infinifield.md, the field's rules), so a missed top is beside the others (a pawn's colour
in a marker's print or on the table's edge is not a head on a top)."""

SEARCH_STEP_MM = 2.0
"""Spacing of the top centres tried round a head's foot."""

PAWN_MASK_MM = 3.0
"""The pawn's pixels, grown by this (mm), are left out of a top's colour share: its rim."""

TOP_SHARE = 0.75
"""A top under a pawn is taken when one block colour fills this share of the square's
pixels that the pawn leaves (its shadow on a white top reads as mat, a fifth of it). A top
a level up, whose square at the first level is partly its side face, fills less."""

SHARE_TIE = 0.02
"""Squares whose shares differ by less than this are about as full (a pixel's column)."""

REFINE_MM = 4.0
"""The square is moved to the edges round it only this far (mm); farther, the edges found
are a neighbour's."""

OVERLAP_MM = 4.0
"""A top under a pawn may reach this far (mm) into a read top of its level (the two
squares' edges are each known to a pixel or two, about 2 mm from a high camera)."""


@dataclass(frozen=True)
class PawnTop:
    """A first-level top found under a pawn's head.

    Attributes:
        colour: the block colour filling it.
        centre: its centre (table mm).
        angle: its rotation (degrees), that of the tops near it.
        share: the share of its colour over the pixels the pawn leaves.
        pawn: the pawn colour whose head showed there.
    """

    colour: str
    centre: tuple[float, float]
    angle: float
    share: float
    pawn: str


def tops_under_pawns(views: TableViews, blocks: Sequence[ReadBlock]) -> list[PawnTop]:
    """The first-level tops missing under the heads of pawns not found on any read top.

    Args:
        views: the frame's views.
        blocks: the set-up reading's blocks (its tops at their levels).

    Returns:
        One top per pawn colour whose head shows over the table (in the plane of its
        head over a first-level top) outside every read top, when a block colour fills a
        square under it (:data:`TOP_SHARE`) that does not overlap a read first-level top.
    """
    palette = views.palette
    found = {p.colour for p in pawns_on_blocks(views, blocks)}
    missing = [c.name for c in palette.classes if c.kind == "pawn" and c.name not in found]
    if not missing or not blocks:
        return []
    h1 = views.layout.block_height_mm
    ppm = views.px_per_mm
    head_classes = views.classes(h1 + PAWN_HEAD_MM)
    head_hues = hue_nearest(views.view(h1 + PAWN_HEAD_MM).reshape(-1, 3), palette).reshape(
        head_classes.shape
    )
    tops = [
        _Footprint(np.asarray(b.centre, np.float64), np.asarray(b.outline, np.float64), b.level)
        for b in blocks
    ]
    out: list[PawnTop] = []
    for colour in missing:
        index = palette.index(colour)
        # a head's class, or its hue where no class took it (an orange head is as warm as
        # skin, which classes nothing)
        head = (head_classes == index) | ((head_hues == index) & (head_classes == UNKNOWN))
        foot = _head_foot(head, ppm)
        if (
            foot is None
            or any(_inside(foot, t.outline) for t in tops)
            or min(float(np.linalg.norm(t.centre - foot)) for t in tops) > FIELD_REACH_MM
        ):
            continue
        top = _top_round(views, tops, foot, colour)
        if top is not None:
            out.append(top)
            # the next pawn's top keeps clear of this one
            tops.append(
                _Footprint(
                    np.asarray(top.centre), square(top.centre, views.layout.block_mm, top.angle), 1
                )
            )
    return out


class _Footprint(NamedTuple):
    """A read top where the search needs it: centre and outline (table mm), level."""

    centre: np.ndarray
    outline: np.ndarray
    level: int


def _head_foot(mask: np.ndarray, ppm: float) -> np.ndarray | None:
    """Where the largest head-sized part of ``mask`` stands (table mm), or ``None``."""
    n, _labels, stats, cents = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8
    )
    best = None
    for k in range(1, n):
        area = stats[k, cv2.CC_STAT_AREA] / ppm**2
        narrow, span = sorted(
            (stats[k, cv2.CC_STAT_WIDTH] / ppm, stats[k, cv2.CC_STAT_HEIGHT] / ppm)
        )
        if (
            HEAD_AREA_MM2[0] <= area <= HEAD_AREA_MM2[1]
            and narrow >= HEAD_NARROW_MM
            and span <= min(HEAD_SPAN_MM, HEAD_ASPECT * narrow)
            and (best is None or area > best[0])
        ):
            best = (area, (cents[k] + 0.5) / ppm)
    return None if best is None else np.asarray(best[1], np.float64)


def _inside(point: np.ndarray, outline: np.ndarray) -> bool:
    """Whether a table point lies inside a top's outline."""
    poly = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0


def _top_round(
    views: TableViews, tops: Sequence[_Footprint], foot: np.ndarray, pawn: str
) -> PawnTop | None:
    """The fullest block-coloured square with ``foot`` on it, clear of the read tops."""
    palette = views.palette
    ppm = views.px_per_mm
    block_mm = views.layout.block_mm
    classes = views.classes(views.layout.block_height_mm)
    grow = max(1, round(PAWN_MASK_MM * ppm))
    pawn_px = np.asarray(
        cv2.dilate(
            np.isin(classes, palette.of_kind("pawn")).astype(np.uint8),
            np.ones((2 * grow + 1, 2 * grow + 1), np.uint8),
        )
    )
    near = sorted(tops, key=lambda t: float(np.linalg.norm(t.centre - foot)))[:4]
    angle = float(np.median([_angle_of(t.outline) for t in near]))
    level_one = [t.outline for t in tops if t.level == 1]
    colours = palette.of_kind("block")
    steps = np.arange(-FOOT_REACH_MM, FOOT_REACH_MM + 1e-6, SEARCH_STEP_MM)
    # of squares about as full, the one farthest from the camera's nadir: side faces
    # smear toward it
    nadir = views.pose.camera_position()[:2]
    best: tuple[float, float, PawnTop] | None = None
    h, w = classes.shape
    for dx in steps:
        for dy in steps:
            if dx * dx + dy * dy > FOOT_REACH_MM**2:
                continue
            centre = (float(foot[0] + dx), float(foot[1] + dy))
            corners = square(centre, block_mm, angle)
            if any(penetration(corners, o) > OVERLAP_MM for o in level_one):
                continue
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, np.round(corners * ppm - 0.5).astype(np.int32), 1)
            inside = (mask > 0) & (pawn_px == 0)
            total = int(inside.sum())
            if total < 0.3 * (block_mm * ppm) ** 2:
                continue
            counts = np.bincount(classes[inside], minlength=256)
            k = max(colours, key=lambda i: counts[i])
            share = float(counts[k]) / total
            away = float(np.linalg.norm(np.asarray(centre) - nadir))
            if share >= TOP_SHARE and (best is None or (round(share / SHARE_TIE), away) > best[:2]):
                best = (
                    round(share / SHARE_TIE),
                    away,
                    PawnTop(palette.classes[k].name, centre, angle, share, pawn),
                )
    if best is None:
        return None
    top = best[2]
    # the square's sides to the top's own edges (the share is flat over a pixel or two)
    at, _side = refine_square(
        views.edges(views.layout.block_height_mm),
        np.asarray(top.centre) * ppm - 0.5,
        angle,
        block_mm * ppm,
    )
    moved = (at + 0.5) / ppm
    if float(np.linalg.norm(moved - np.asarray(top.centre))) > REFINE_MM:
        return top
    return PawnTop(top.colour, (float(moved[0]), float(moved[1])), angle, top.share, pawn)


def _angle_of(outline: np.ndarray) -> float:
    """A square outline's rotation in degrees, in [-45, 45)."""
    e = np.asarray(outline, np.float64)[1] - np.asarray(outline, np.float64)[0]
    return float((np.degrees(np.arctan2(e[1], e[0])) + 45.0) % 90.0 - 45.0)
