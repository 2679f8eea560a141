"""White block tops in a hard shadow: told from the table by the light where they stand.

A white top in the shadow of a tower or a lamp's hard shadow is no brighter than the lit
table (CIELAB lightness 15-55 against the mat's 35-45), so the palette, which compares
colours with fixed references, takes it for the table. The table is one material all over:
its lightness round a place measures the light falling there. Divided by that light, a
shaded white top is as light as a white top in the open, and the shaded table as light as
the table. This module finds, among the pixels the palette calls table (or nothing), those
that are white for the light around them, and keeps the ones that make a top-sized square:
a lit patch of table between blocks (a hole where a block was) stands in full light and is
never taken; a strip of lit table along a shadow's edge is not a square.

Example:
    >>> import numpy as np
    >>> from vision.palette import default_palette
    >>> palette = default_palette()
    >>> classes = np.full((120, 120), palette.index("table"), np.uint8)
    >>> view = np.full((120, 120, 3), 90, np.uint8)           # a grey mat
    >>> view[:, :60] = 30                                      # in a hard shadow
    >>> view[40:80, 10:50] = 75                                # a white top in the shadow
    >>> int(whites_in_shade(view, classes, palette, 40.0)[60, 30])
    1
    >>> int(whites_in_shade(view, classes, palette, 40.0)[60, 90])     # the lit mat
    0
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.palette import UNKNOWN, Palette

MIN_BLOCK_PX = 16.0
"""Views where a top is smaller than this (pixels a side) are left as they are: too coarse
to tell a top's square from a patch of table (the play check's hand view, 10 px a top)."""

LIGHT_REACH = 1.5
"""The light at a place is measured on the table within this many block sides round it
(a shadow cast by a tower is two or more blocks wide; a block's own neighbours hide the
table nearer than that)."""

IN_SHADE = 0.75
"""A place is in shade where the table round it is at most this share as light as the
table's reference: in the open light the palette's white already holds."""

NEUTRAL_CHROMA = 20.0
"""A white top, shaded or not, keeps near-neutral a and b (CIELAB) in the balanced view."""

STANDS_OUT = 1.25
"""A pixel this much lighter than the table round it is left out when the light is
measured (it is likely a shaded top, not the table)."""

LIGHTER = 1.6
"""A shaded white top is at least this much lighter than the table in the same light (a
white top is 2-2.5 times as light as the mats)."""

TOP_AREA = (0.45, 1.7)
"""A shaded white region is a top when its area is this share of a top's (a top cut by a
shadow's edge or a pawn to one run on into its own side faces)..."""

TOP_FILL = 0.7
"""... and it fills this share of the rectangle round it (a square, not a strip)."""


def whites_in_shade(view: np.ndarray, classes: np.ndarray, palette: Palette,
                    block_px: float) -> np.ndarray:
    """Pixels (bool) of ``view`` that are white tops in a shadow, among table or unknown.

    Args:
        view: a balanced BGR view of a plane (:meth:`TableViews.view`).
        classes: its palette classes.
        palette: the palette (it must have a ``"white"`` class and a table class).
        block_px: a top's side in the view's pixels.
    """
    tables = palette.of_kind("table")
    names = [c.name for c in palette.classes]
    out = np.zeros(classes.shape, bool)
    if not tables or "white" not in names or block_px < MIN_BLOCK_PX:
        return out
    lab = cv2.cvtColor(view.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    light = lab[..., 0]
    white_l = float(palette.classes[names.index("white")].lab[0])
    table_l = float(np.mean([palette.classes[i].lab[0] for i in tables]))
    if white_l <= table_l + 5.0:
        return out
    table = np.isin(classes, tables)
    open_ = table | (classes == UNKNOWN)
    neutral = np.hypot(lab[..., 1], lab[..., 2]) < NEUTRAL_CHROMA
    size = int(LIGHT_REACH * block_px) | 1
    # the light round each place, from the table; a first estimate is lifted by the shaded
    # tops themselves, so what stands out of it is left out of the second
    around = _local_mean(light, table, size)
    brighter = open_ & (light > STANDS_OUT * around)
    around = _local_mean(light, table & ~brighter, size)
    shade = around / table_l
    whiter = light > LIGHTER * shade * table_l
    candidates = open_ & neutral & (shade < IN_SHADE) & whiter
    # a top partly in the shade (or partly white already) is judged whole
    white = classes == names.index("white")
    return _top_sized(candidates | white, block_px) & candidates


def _local_mean(light: np.ndarray, where: np.ndarray, size: int) -> np.ndarray:
    """The mean of ``light`` over ``where`` in a ``size`` box round each pixel.

    Infinite where too little of ``where`` shows to measure it.
    """
    weight = cv2.boxFilter(where.astype(np.float32), -1, (size, size), normalize=True)
    total = cv2.boxFilter(light * where, -1, (size, size), normalize=True)
    return np.where(weight > 0.05, total / np.maximum(weight, 1e-6), np.inf)


def _top_sized(mask: np.ndarray, block_px: float) -> np.ndarray:
    """The connected regions of ``mask`` shaped like one top (see :data:`TOP_AREA`)."""
    return regions_shaped(mask, block_px, TOP_AREA, TOP_FILL, 1.6)


def regions_shaped(mask: np.ndarray, block_px: float, area_tops: tuple[float, float],
                   fill: float, longest: float) -> np.ndarray:
    """The connected regions of ``mask`` (opened a little) shaped like a top or part of one.

    Args:
        mask: boolean mask of a view.
        block_px: a block's side in the view's pixels.
        area_tops: the region's area, from and to, in tops' areas.
        fill: the least share of its rotated bounding rectangle it fills (a square, not a
            strip along an edge or a ragged penumbra).
        longest: its rectangle's longer side at most this many block sides.
    """
    k = np.ones((3, 3), np.uint8)
    clean = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, k)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(clean, connectivity=4)
    out = np.zeros(mask.shape, bool)
    top = block_px * block_px
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if not area_tops[0] * top <= area <= area_tops[1] * top:
            continue
        ys, xs = np.nonzero(labels == i)
        (w, h) = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))[1]
        if w * h <= 0 or area / (w * h) < fill or max(w, h) > longest * block_px:
            continue
        out[ys, xs] = True
    return out
