"""Blocks set a level up on their own colour, found by the seams they hide.

Two touching first-level blocks of one colour show the camera a thin dark line between them:
the groove their bevelled edges make. A block set a level up across the two (a bridge) stands
over that line and hides it from every camera position; a block set on one of them (a
tower) hides it when the line of sight from it to the camera passes over that block. Where
the first level's photo shows the groove and the stacked photo, at the same place, no
longer does, and no block read a level up explains it, a block of their colour stands
there: a bridge, or a tower on the one the line of sight passes over. The colours cannot
tell these blocks (:mod:`vision.readers.added3d` finds blocks by a change of colour), the
seams can.

Which of the two it is, where both would hide the groove, the stacked photo tells a level
up: a bridge's top has an edge over the middle of each block it rests on, a tower's none
over its block's middle nor over its neighbour's.

Example:
    >>> from vision.readers.ground3d import ground_block
    >>> ground = [ground_block("red", (100.0, 100.0), 0.0, 40.0),
    ...           ground_block("red", (141.0, 100.0), 0.0, 40.0),
    ...           ground_block("white", (100.0, 141.0), 0.0, 40.0)]
    >>> [(a.colour, b.colour) for a, b in own_colour_pairs(ground)]
    [('red', 'red')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from vision.geometry import square
from vision.readers.added3d import OVERLAP_SHARE, PAIR_MM, _overlap_mm2
from vision.readers.levels3d import prism_hits

if TYPE_CHECKING:
    from vision.readers.field3d import SeenBlock3D
    from vision.readers.table_views import TableViews

SEAM_HALF_MM = 14.0
"""Points along a groove within this of its middle (1 mm apart) are judged: its ends run
into the corners of the two blocks and their neighbours'."""

ACROSS_MM = 7.0
"""Each point's profile runs this far to either side of the groove (0.5 mm apart) ..."""

GROOVE_MM = 2.5
"""... the groove is its darkest sample within this of the line (a top read to 1-2 mm) ..."""

SIDES_MM = 5.5
"""... its surroundings the mean of the samples at least this far from it."""

SEAM_SHOWN = 15.0
"""A point counts where the first level's photo shows the groove at least this many grey
levels darker than its surroundings (tuning families: grooves between two blocks 20-120,
a few white pairs under bright light 3-12, which are not judged)."""

SEAM_GONE_SHARE = 0.3
"""A groove is gone at a point when the stacked photo shows it less than this share as
dark as the first photo did ..."""

SEAM_GONE_MIN = 6.0
"""... or less than this many grey levels dark (a block's top is smooth to a few levels)."""

SHADED_SHARE = 0.6
"""A groove lies in a shadow cast since the first photo where the stacked photo shows the
tops beside it under this share as light (f1666: two whites in a raised neighbour's
shadow, their groove 6.7 levels dark against 32; a block's top over a groove is lit like
the tops round it, a pawn's shadow on a bridge darkens it less)."""

HIDDEN_MIN_POINTS = 10
"""A groove is judged on at least this many points (of 29; a pawn on a bridge hides some:
f1536's cyan pawn left 11, gone at 10) ..."""

HIDDEN_SHARE = 0.85
"""... and hidden when it is gone at this share of them (f1486: a white tower on a white,
26 of 29 points). On the tuning families (796 pairs
of one colour in 243 stacked photos with no block over them and nothing read a level up
over them), a groove judged on 15 points or more was gone at 0.76 at most (0.32 on 15-19
points); of 10 pairs under a bridge of their colour 5 were gone at 0.9 or more, of 7
beside a tower of their colour 3. Judged on 10-14 points (f1401-f1598 and the shipped and
stacks' tuning families, 9 pairs with no block a level up within 45 mm), gone at 0.2 at
most; on 15 or more, 407 such pairs, at 0.67 at most."""

TOWER_HIDES_SHARE = 0.9
"""A tower on one of the two would hide the groove when its block stands between the camera
and this share of the points judged."""

HIDER_MARGIN_MM = 3.0
"""Points the blocks read a level up may hide are not judged: their tops grown by this
(read to 1-3 mm)."""

TOP_EDGE_DARK = 10.0
"""A bridge's top has an edge over the middle of each block it rests on; a tower's has none
there, a level up. Where a tower on the block the line of sight passes over would hide the
groove too, a bridge is read when the stacked photo shows a line at least this dark, a
level up, over the middle of either block, else a tower (tuning families: over both
middles, the seven same-coloured towers 0-3 but one (61, over its neighbour's); the 21
same-coloured bridges 17 or more over one of them)."""


def own_colour_pairs(ground: Sequence[SeenBlock3D]) -> list[tuple[SeenBlock3D, SeenBlock3D]]:
    """Touching pairs of first-level blocks of one colour (centres :data:`PAIR_MM` apart)."""
    out = []
    for i, a in enumerate(ground):
        for b in ground[i + 1:]:
            apart = float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))
            if a.colour == b.colour and PAIR_MM[0] <= apart <= PAIR_MM[1]:
                out.append((a, b))
    return out


def _axes(a: SeenBlock3D, b: SeenBlock3D) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The groove's middle between ``a`` and ``b``, the unit from ``a`` to ``b``, and along."""
    ca, cb = np.asarray(a.centre, np.float64), np.asarray(b.centre, np.float64)
    along_ab = (cb - ca) / max(float(np.linalg.norm(cb - ca)), 1e-9)
    return (ca + cb) / 2, along_ab, np.array([-along_ab[1], along_ab[0]])


def line_darkness(views: TableViews, middle: np.ndarray, across: np.ndarray,
                  along: np.ndarray, height_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """How much darker a line is than its surroundings, at points along it.

    The line runs through ``middle`` along ``along`` on the plane ``height_mm`` up; at each
    of its points (:data:`SEAM_HALF_MM`) a profile runs ``across`` it (:data:`ACROSS_MM`).

    Returns:
        Per point: its surroundings' grey level less the darkest on the line
        (:data:`GROOVE_MM`, :data:`SIDES_MM`), and whether the whole profile is in the
        frame and shows no skin (a hand) nor a pawn's colour (a pawn hides a line).
    """
    dark, _sides, clear = _line_profile(views, middle, across, along, height_mm)
    return dark, clear


def _groove_both(views: TableViews, before: TableViews, middle: np.ndarray,
                 across: np.ndarray, along: np.ndarray, height_mm: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A groove's darkness in the first photo and in the stacked one, as that lit.

    Where the stacked photo shows the surroundings under :data:`SHADED_SHARE` as light as
    the first photo did, its darkness is scaled by how much lighter the first showed them:
    a shadow cast since (a raised neighbour's) darkens the groove and its tops alike, a
    block over it hides the groove.

    Returns:
        ``(then, now, clear)``: darkness per point in each photo, and where both are clear
        (:func:`line_darkness`).
    """
    then, then_sides, clear_then = _line_profile(before, middle, across, along, height_mm)
    now, now_sides, clear_now = _line_profile(views, middle, across, along, height_mm)
    shaded = now_sides < SHADED_SHARE * then_sides
    now = np.where(shaded, now * then_sides / np.maximum(now_sides, 1.0), now)
    return then, now, clear_then & clear_now


def _line_profile(views: TableViews, middle: np.ndarray, across: np.ndarray,
                  along: np.ndarray, height_mm: float
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`line_darkness`, with the surroundings' grey level per point."""
    steps = np.arange(-SEAM_HALF_MM, SEAM_HALF_MM + 0.01, 1.0)
    offs = np.arange(-ACROSS_MM, ACROSS_MM + 0.01, 0.5)
    grid = (middle[None, None, :] + steps[:, None, None] * along
            + offs[None, :, None] * across).reshape(-1, 2)
    points = np.column_stack([grid, np.full(len(grid), float(height_mm))])
    bgr, ok, _px = views.sample(points)
    classes = views.classes_of(bgr, ok)
    pawn = np.isin(classes, views.palette.of_kind("pawn"))
    skin = np.zeros(len(bgr), bool)
    if ok.any():
        skin[ok] = views.skin_of(bgr[ok].astype(np.uint8).reshape(-1, 1, 3)).reshape(-1)
    shape = (len(steps), len(offs))
    grey = bgr.mean(axis=1).reshape(shape)
    line = np.abs(offs) <= GROOVE_MM
    sides = np.abs(offs) >= SIDES_MM
    around = grey[:, sides].mean(axis=1)
    dark = around - grey[:, line].min(axis=1)
    clear = np.asarray((ok & ~pawn & ~skin).reshape(shape).all(axis=1), bool)
    return dark, around, clear


def _groove_points(middle: np.ndarray, along: np.ndarray, height_mm: float) -> np.ndarray:
    steps = np.arange(-SEAM_HALF_MM, SEAM_HALF_MM + 0.01, 1.0)
    xy = middle[None, :] + steps[:, None] * along
    return np.column_stack([xy, np.full(len(xy), float(height_mm))])


def _hidden_by(points: np.ndarray, cam: np.ndarray, blocks: Sequence[SeenBlock3D],
               h1: float, margin: float = 0.0) -> np.ndarray:
    """Which of ``points`` one of ``blocks`` stands between and the camera."""
    hit = np.zeros(len(points), bool)
    for block in blocks:
        outline = np.asarray(block.outline, np.float64)
        centre = outline.mean(axis=0)
        half = float(np.linalg.norm(outline[0] - centre)) / np.sqrt(2)
        grown = centre + (outline - centre) * (1 + margin / max(half, 1e-9))
        hit |= prism_hits(points, cam, grown, (block.level - 1) * h1, block.level * h1)
    return hit


def hidden_seams(views: TableViews, before: TableViews, ground: Sequence[SeenBlock3D],
                 tops: Sequence[SeenBlock3D]) -> list[SeenBlock3D]:
    """Blocks a level up on their own colour that hide a groove the first photo showed.

    Args:
        views: the stacked photo.
        before: the first level's photo.
        ground: the first level, as read on ``before``.
        tops: the tops read so far on the stacked photo: a pair one of those a level up
            stands over (:data:`~vision.readers.added3d.OVERLAP_SHARE` of the bridge's
            place) is left alone, and the points the others may hide are not judged.

    Returns:
        Blocks at level 2 in the pairs' colour: for each pair whose groove is hidden
        (:data:`HIDDEN_SHARE` of :data:`HIDDEN_MIN_POINTS` or more points), a bridge over
        the two, or a tower on the one whose tower would hide it when the stacked photo
        shows no top's edge over either block's middle (:data:`TOP_EDGE_DARK`); none
        overlapping another.
    """
    from vision.readers.field3d import SeenBlock3D

    layout = views.layout
    block_mm, h1 = layout.block_mm, layout.block_height_mm
    up = [t for t in tops if t.level >= 2]
    cam = views.pose.camera_position()
    found: list[SeenBlock3D] = []
    for a, b in own_colour_pairs(ground):
        middle, a_to_b, along = _axes(a, b)
        bridge = square((float(middle[0]), float(middle[1])), block_mm, a.angle)
        over = [t for t in up if _overlap_mm2(t.outline, bridge) > OVERLAP_SHARE * block_mm ** 2]
        if over:
            continue
        points = _groove_points(middle, along, h1)
        then, now, clear = _groove_both(views, before, middle, a_to_b, along, h1)
        judged = (clear & (then >= SEAM_SHOWN)
                  & ~_hidden_by(points, cam, up, h1, HIDER_MARGIN_MM))
        n = int(judged.sum())
        if n < HIDDEN_MIN_POINTS:
            continue
        gone = now < np.maximum(SEAM_GONE_MIN, SEAM_GONE_SHARE * then)
        if float(gone[judged].mean()) < HIDDEN_SHARE:
            continue
        centre = middle
        for base, other in ((a, b), (b, a)):
            hides = _hidden_by(points[judged], cam, [replace(base, level=2)], h1)
            if (float(hides.mean()) >= TOWER_HIDES_SHARE
                    and not any(_overlap_mm2(t.outline, base.outline)
                                > OVERLAP_SHARE * block_mm ** 2 for t in up)
                    and not _edges_over_middles(views, (base, other), a_to_b, along, 2 * h1)):
                centre = np.asarray(base.centre, np.float64)
                break
        xy = (float(centre[0]), float(centre[1]))
        block = SeenBlock3D(a.colour, xy, a.angle, 2, square(xy, block_mm, a.angle))
        if not any(_overlap_mm2(k.outline, block.outline) > OVERLAP_SHARE * block_mm ** 2
                   for k in found):
            found.append(block)
    return found


def _edges_over_middles(views: TableViews, blocks: Sequence[SeenBlock3D],
                        across: np.ndarray, along: np.ndarray, top_mm: float) -> bool:
    """Whether a line :data:`TOP_EDGE_DARK` dark shows over either block's middle.

    Looked at ``top_mm`` up, along ``along``; each line's darkness is the median of its
    clear points (:func:`line_darkness`).
    """
    for block in blocks:
        dark, clear = line_darkness(views, np.asarray(block.centre, np.float64), across,
                                    along, top_mm)
        if clear.any() and float(np.median(dark[clear])) >= TOP_EDGE_DARK:
            return True
    return False


COVERS_SHARE = 0.9
"""A top a level up stands over a groove when its block would hide this share of the
groove's points from the camera ..."""

STILL_SHOWN_SHARE = 0.9
"""... and is no block when the stacked photo still shows the groove (not gone, as
:data:`SEAM_GONE_SHARE` and :data:`SEAM_GONE_MIN` say) at this share or more of at least
:data:`HIDDEN_MIN_POINTS` judged points ..."""

SAME_DARKNESS = (0.6, 1.5)
"""... as dark as the first photo showed it, within these ratios at the median (a top's
own edge over the groove's line shows darker: a true red tower 2.2 times). f1523: the
halves of two yellow tops between two raised bridges read as one yellow bridge, their
groove shown at 1.0 of its points, 0.96 as dark."""


BRIDGE_PLACE_MM = 5.0
"""A top a level up in the pair's colour within this (mm) of the middle of the two is read
as a bridge over them ..."""

BRIDGE_SHOWN_RATIO = 0.3
"""... and is none where the stacked photo shows their groove, at the median of at least
:data:`HIDDEN_MIN_POINTS` judged points, this share as dark as the first photo did, or
darker (tuning families: the 41 such bridges with no pawn on them 0.01-0.20; the false
ones, a top read between two of its colour, 0.36-0.93: f2078, f2083, f2356). A pawn on a
bridge darkens its top over the groove (f066, f2261: 0.32, 0.67): those are read again by
the pawn (:mod:`vision.readers.pawn_bridges`)."""


def shown_seams(views: TableViews, before: TableViews, ground: Sequence[SeenBlock3D],
                tops: Sequence[SeenBlock3D]) -> list[SeenBlock3D]:
    """The tops read a level up over a groove the stacked photo still shows.

    Of the grooves between touching first-level blocks of one colour, one a top a level
    up would hide from the camera (:data:`COVERS_SHARE`), judged as in
    :func:`hidden_seams` on the points the other tops a level up may not hide, that the
    stacked photo still shows (:data:`STILL_SHOWN_SHARE`) as dark as the first one did
    (:data:`SAME_DARKNESS`) has nothing over it: the top is none. A bridge of their colour
    over the two (:data:`BRIDGE_PLACE_MM`) hides all of it: one is none where the groove
    shows at all (:data:`BRIDGE_SHOWN_RATIO`).
    """
    h1 = views.layout.block_height_mm
    cam = views.pose.camera_position()
    up = [t for t in tops if t.level >= 2]
    pairs = own_colour_pairs(ground)
    out = []
    for top in tops:
        if top.level != 2 or top.seen != "top":
            continue
        others = [t for t in up if t is not top]
        for a, b in pairs:
            middle, a_to_b, along = _axes(a, b)
            points = _groove_points(middle, along, h1)
            covered = _hidden_by(points, cam, [top], h1)
            if float(covered.mean()) < COVERS_SHARE:
                continue
            then, now, clear = _groove_both(views, before, middle, a_to_b, along, h1)
            judged = (clear & (then >= SEAM_SHOWN) & covered
                      & ~_hidden_by(points, cam, others, h1, HIDER_MARGIN_MM))
            if int(judged.sum()) < HIDDEN_MIN_POINTS:
                continue
            kept = now >= np.maximum(SEAM_GONE_MIN, SEAM_GONE_SHARE * then)
            ratio = float(np.median(now[judged] / then[judged]))
            bridge = (top.colour == a.colour and float(np.hypot(
                top.centre[0] - middle[0], top.centre[1] - middle[1])) <= BRIDGE_PLACE_MM)
            if ((float(kept[judged].mean()) >= STILL_SHOWN_SHARE
                 and SAME_DARKNESS[0] <= ratio <= SAME_DARKNESS[1])
                    or (bridge and ratio >= BRIDGE_SHOWN_RATIO)):
                out.append(top)
                break
    return out
