"""Which place a top a level up stands on, of those beside it, by analysis by synthesis.

With the first level known, a top read a level up stands on one of the places the first
level offers (:func:`vision.readers.added3d.places`): on one block (a tower) or across two
touching ones (a bridge). A bridge over a block of its colour and one of another shows its
top and the side faces round it as one region with that block's; read so, its top lands
half a block off, on the other block as a tower (f1638, f1768, f1903, f2013). Both put a
top of that colour where the frame shows it over half their top; what tells them apart is
the rest of the picture: the bridge's half over its own colour, its side faces, and the
other block's top that a tower would hide. Each top standing on a place is rendered there
and on each place overlapping it that no other top takes, with every other block of the
reading (:mod:`vision.readers.synth3d`), and moved where the frame is explained better by a
clear margin (:data:`PLACE_MARGIN`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.geometry import square
from vision.readers.synth3d import Box, FrameEvidence

if TYPE_CHECKING:
    from vision.readers.field3d import SeenBlock3D
    from vision.readers.table_views import TableViews

ON_PLACE_MM = 1.0
"""A top whose centre lies within this of a place (mm) stands on it (tops a level up are
set exactly on their place by :func:`vision.readers.added3d.snapped_to_places`)."""

RIVAL_OVERLAP = 0.25
"""A place overlapping the top's by this share of a block's top is its rival: a tower and
a bridge over that block overlap by a half, two bridges sharing a block by a half."""

TAKEN_OVERLAP = 0.1
"""A rival place overlapping another top of its level by this share is taken."""

PLACE_MARGIN = 400.0
"""What a rival place must gain over the top's place (log-likelihood of the window). On
f1401-f1898 (452 tops a level up with a rival place) the bridges read as towers beside
them gained 989 and 1,294 on their place, every other top's best rival at most 147."""

PAD_PX = 4
"""Pixels round the boxes compared."""


def _box(block: SeenBlock3D, h1: float) -> Box:
    return Box(np.asarray(block.outline, np.float64), h1 * (block.level - 1),
               h1 * block.level, block.colour)


def _overlap_mm2(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(inter)


def chosen_places(views: TableViews, places: Sequence[tuple[str, np.ndarray, float]],
                  blocks: Sequence[SeenBlock3D]) -> list[SeenBlock3D]:
    """``blocks`` with each second-level top on a place moved to the rival the frame prefers.

    Args:
        views: the stacked photo.
        places: where a block may stand a level up (:func:`~vision.readers.added3d.places`).
        blocks: the reading so far (first-level blocks and tops a level up or more).

    Returns:
        The blocks, in order; a top moved is a new block at its new place.
    """
    layout = views.layout
    block_mm, h1 = layout.block_mm, layout.block_height_mm
    out = list(blocks)
    for k, top in enumerate(out):
        if top.level != 2 or top.seen != "top":
            continue
        here = [p for p in places if np.hypot(p[1][0] - top.centre[0],
                                              p[1][1] - top.centre[1]) <= ON_PLACE_MM]
        if not here:
            continue
        others = [b for j, b in enumerate(out) if j != k]
        level_two = [b for b in others if b.level == 2]
        rivals = []
        for _kind, centre, angle in places:
            xy = (float(centre[0]), float(centre[1]))
            if np.hypot(xy[0] - top.centre[0], xy[1] - top.centre[1]) <= ON_PLACE_MM:
                continue
            outline = square(xy, block_mm, angle)
            if _overlap_mm2(outline, top.outline) < RIVAL_OVERLAP * block_mm ** 2:
                continue
            if any(_overlap_mm2(outline, b.outline) > TAKEN_OVERLAP * block_mm ** 2
                   for b in level_two):
                continue
            rivals.append(replace(top, centre=xy, angle=angle, outline=outline))
        if not rivals:
            continue
        boxes = [_box(b, h1) for b in others]
        cands = [top, *rivals]
        corners = np.array([[x, y, z] for c in cands for x, y in c.outline
                            for z in (0.0, 2 * h1)])
        px = views.pose.project(corners)
        lo = np.floor(px.min(axis=0)).astype(int) - PAD_PX
        hi = np.ceil(px.max(axis=0)).astype(int) + PAD_PX + 1
        evidence = FrameEvidence(views, (int(lo[0]), int(lo[1]), int(hi[0]), int(hi[1])))
        rows = slice(0, evidence.shape[0])
        cols = slice(0, evidence.shape[1])
        scores = [evidence.score([*boxes, _box(c, h1)], rows, cols) for c in cands]
        best = int(np.argmax(scores))
        if best > 0 and scores[best] - scores[0] >= PLACE_MARGIN:
            out[k] = cands[best]
    return out
