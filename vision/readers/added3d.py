"""Blocks set on the first level since its photo, found by what changed between two photos.

A block standing on one of its own colour shows the camera one colour where the rules allow
one block or two, and a top near the camera's nadir tells its level by a pixel or two of
size: read alone, such a stacked photo cannot be settled. The first level's photo, taken
from the same camera before anything was stacked, can: every block set on the first level
since then stands either on one first-level block (a tower) or across two touching ones (a
bridge), and its top, 80 mm up, covers pixels that photo showed as something else (the
table, a shadow, a block of another colour). Where the stacked photo now shows one block
colour over nearly all of those pixels, a block of that colour stands there.

Each place is tried with each block colour; places a top read a level up already covers are
left alone, and the pixels another top read a level up may hide are not counted. Of two
places found overlapping, the one with more changed pixels stands.

Example:
    >>> from vision.readers.ground3d import ground_block
    >>> ground = [ground_block("red", (100.0, 100.0), 0.0, 40.0),
    ...           ground_block("red", (141.0, 100.0), 0.0, 40.0)]
    >>> [(kind, [round(v) for v in centre]) for kind, centre, _ in places(ground)]
    [('tower', [100, 100]), ('tower', [141, 100]), ('bridge', [120, 100])]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.geometry import inset, square
from vision.palette import UNKNOWN
from vision.pose import TablePose
from vision.readers.levels3d import prism_hits

if TYPE_CHECKING:
    from vision.readers.field3d import SeenBlock3D
    from vision.readers.table_views import TableViews

ADDED_MIN_POINTS = 20
"""A place is judged on at least this many changed points (2 mm apart on its top, 80 mm
up): a tower near the camera's nadir covers fewer pixels than its block did, and cannot be
told (on the tuning families true places showed 0-256, false ones with the colour over
this share 0-16 or beside a true one)."""

ADDED_SHARE = 0.9
"""... of which the stacked photo shows the place's colour over this share (true places
of the tuning families 0.99-1.0 but two (0.68, 0.76), the falsest 0.8)."""

OVERLAP_SHARE = 0.1
"""Two blocks of one level cannot overlap: a place overlapping a top read a level up, or a
place found before it, by more than this share of a block's top is taken (a top read a few
millimetres off its place overlaps its neighbour's by a few hundredths, a place diagonally
beside another by a quarter)."""

PAIR_MM = (34.0, 52.0)
"""Two first-level blocks whose centres lie this far apart (mm) touch, and may carry a
bridge: side by side they stand 40-45 mm apart."""

POINT_STEP_MM = 2.0
POINT_INSET_MM = 4.0
"""Points on a place's top: this far apart and in from its edges (a bevel, a tilt)."""


@dataclass(frozen=True)
class FirstLevelPhoto:
    """The camera's photo of the first level, and the camera's pose in it.

    Taken before the builder stacked on the first level (the frame the first level was read
    on), from the camera that takes the stacked photo.
    """

    frame: np.ndarray
    pose: TablePose


def places(ground: Sequence[SeenBlock3D]) -> list[tuple[str, np.ndarray, float]]:
    """Where a block may stand a level up: on each block, and across each touching pair.

    Returns:
        ``(kind, centre, angle)``: ``tower`` or ``bridge``, its centre (table mm), its turn.
    """
    out = [("tower", np.asarray(g.centre, np.float64), g.angle) for g in ground]
    for i, a in enumerate(ground):
        for b in ground[i + 1:]:
            apart = float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))
            if PAIR_MM[0] <= apart <= PAIR_MM[1]:
                mid = (np.asarray(a.centre, np.float64) + np.asarray(b.centre, np.float64)) / 2
                out.append(("bridge", mid, a.angle))
    return out


def _top_classes(views: TableViews, before: TableViews, outline: np.ndarray, top_mm: float,
                 hiders: Sequence[SeenBlock3D], step_mm: float = POINT_STEP_MM,
                 inset_mm: float = POINT_INSET_MM
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The classes both photos show at points on a top, and which points can be judged.

    Points ``step_mm`` apart on the top at ``outline``, ``top_mm`` up, ``inset_mm`` in from
    its edges; usable where none of ``hiders`` may hide them, both photos show them, the
    first one not as skin, the stacked one not in a pawn's colour.

    Returns:
        ``(now, then, usable)``: the stacked photo's classes, the first photo's, the mask.
    """
    pts = inset(np.asarray(outline, np.float64), inset_mm)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    xs, ys = np.meshgrid(np.arange(lo[0], hi[0], step_mm),
                         np.arange(lo[1], hi[1], step_mm))
    grid = np.column_stack([xs.ravel(), ys.ravel()])
    contour = pts.astype(np.float32).reshape(-1, 1, 2)
    grid = grid[[cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0
                 for x, y in grid]]
    points = np.column_stack([grid, np.full(len(grid), top_mm)])
    cam = views.pose.camera_position()
    on_table = cam + (points - cam) * (cam[2] / (cam[2] - top_mm))
    on_table[:, 2] = 0.0
    usable = np.ones(len(points), bool)
    h1 = views.layout.block_height_mm
    for other in hiders:
        usable &= ~prism_hits(on_table, cam, np.asarray(other.outline, np.float64),
                              (other.level - 1) * h1, other.level * h1)
    bgr, ok, _ = views.sample(points)
    now = views.classes_of(bgr, ok)
    bgr, ok_before, _ = before.sample(points)
    then = before.classes_of(bgr, ok_before)
    usable &= ok & ok_before & (then != UNKNOWN)   # not under a hand in the first photo,
    usable &= ~np.isin(now, views.palette.of_kind("pawn"))  # nor a pawn's colour in this one
    return now, then, usable


def changed_shares(views: TableViews, before: TableViews, outline: np.ndarray,
                   top_mm: float, colours: Sequence[str], hiders: Sequence[SeenBlock3D],
                   step_mm: float = POINT_STEP_MM, inset_mm: float = POINT_INSET_MM
                   ) -> dict[str, tuple[int, float, float]]:
    """How a top at ``outline``, ``top_mm`` up, of each of ``colours`` fits what changed.

    Points on that top which the first level's photo (``before``) showed in a class other
    than the colour tried, and which none of ``hiders`` (tops read a level up or more) may
    hide from the camera; not those the first photo shows skin at, nor those the stacked
    one shows a pawn's colour at (a pawn on a top hides which top) or in no class (a pawn's
    shaded side, a hand, a deep shadow).

    Returns:
        For each colour: how many such points there are, the share of them the stacked
        photo shows in that colour, and their share of the changed points (the rest in no
        class now).
    """
    now, then, usable = _top_classes(views, before, outline, top_mm, hiders, step_mm,
                                     inset_mm)
    dark = now == UNKNOWN
    out = {}
    for colour in colours:
        wanted = views.palette.index(colour)
        changed = usable & (then != wanted)
        total = int(changed.sum())
        changed &= ~dark
        n = int(changed.sum())
        out[colour] = (n, float((now[changed] == wanted).mean()) if n else 0.0,
                       n / total if total else 0.0)
    return out


UNCHANGED_MIN_POINTS = 30
"""A top read a level up stands where nothing changed when, of at least this many points
the first level's photo showed in another class than the top's ..."""

UNCHANGED_SHARE = 0.8
"""... the stacked photo shows this share or more in the class the first photo showed
there (no block came: a shadow, side faces or a neighbour's top read as a square). On the
tuning families the false tops over 30 points 0.82-1.0 (seven), the true ones at most
0.54 (a pale red under a lamp, in the white class in both photos over half its top)."""


NO_BLOCK_SHARE = 0.2
"""... or where, of those points, less than this share changed to a block's colour (the rest
the same or the table's, in a shadow): a side face of a raised neighbour and a strip of a
top read as one square (f1408, f1431: 0.0 and 0.08), a block at least turns the points it
covers to a block colour, its own or, in a lamp's light, another's (a pale red top in the
white class)."""


def unchanged(views: TableViews, before: TableViews, tops: Sequence[SeenBlock3D]
              ) -> list[SeenBlock3D]:
    """The tops read a level up where the two photos say nothing was set down.

    Of :data:`UNCHANGED_MIN_POINTS` or more points on the top that the first level's photo
    showed in another class than the top's (judged as in :func:`changed_shares`, the other
    tops a level up or more hiding theirs), the stacked photo shows
    :data:`UNCHANGED_SHARE` or more in the same class as that photo, or less than
    :data:`NO_BLOCK_SHARE` changed to a block's colour.
    """
    h1 = views.layout.block_height_mm
    blocks = views.palette.of_kind("block")
    out = []
    for k, top in enumerate(tops):
        if top.level != 2 or top.seen != "top":
            continue
        hiders = [t for j, t in enumerate(tops) if j != k and t.level >= 2]
        now, then, usable = _top_classes(views, before, top.outline, 2 * h1, hiders)
        judged = usable & (now != UNKNOWN) & (then != views.palette.index(top.colour))
        n = int(judged.sum())
        if n < UNCHANGED_MIN_POINTS:
            continue
        to_block = np.isin(now[judged], blocks) & (now[judged] != then[judged])
        if (float((now[judged] == then[judged]).mean()) >= UNCHANGED_SHARE
                or float(to_block.mean()) < NO_BLOCK_SHARE):
            out.append(top)
    return out


def added_blocks(views: TableViews, before: TableViews, ground: Sequence[SeenBlock3D],
                 tops: Sequence[SeenBlock3D]) -> list[SeenBlock3D]:
    """Blocks a level up that the first level's photo shows were set down since.

    Args:
        views: the stacked photo.
        before: the first level's photo (classified with the stacked photo's palette).
        ground: the first level, as read on ``before``.
        tops: the tops read so far on the stacked photo: a place one of those a level up
            overlaps (:data:`OVERLAP_SHARE`) is left alone, and the others a level up may
            hide points.

    Returns:
        Blocks at level 2, each where it changed over :data:`ADDED_SHARE` of at least
        :data:`ADDED_MIN_POINTS` points to its colour. Of two that overlap, the one with
        more such points stands, each counted by the share of its changed points the
        stacked photo shows in a class (f1028: a red bridge over a red and a yellow block,
        and a red tower over the yellow one whose far half lies in a deep shadow).
    """
    from vision.readers.field3d import SeenBlock3D

    layout = views.layout
    block_mm, h1 = layout.block_mm, layout.block_height_mm
    up = [t for t in tops if t.level >= 2]
    colours = [views.palette.classes[i].name for i in views.palette.of_kind("block")]
    found: list[tuple[float, SeenBlock3D]] = []
    for _kind, centre, angle in places(ground):
        outline = square((float(centre[0]), float(centre[1])), block_mm, angle)
        if any(_overlap_mm2(t.outline, outline) > OVERLAP_SHARE * block_mm ** 2 for t in up):
            continue
        shares = changed_shares(views, before, outline, 2 * h1, colours, up)
        for colour, (n, share, clear) in shares.items():
            if n >= ADDED_MIN_POINTS and share >= ADDED_SHARE:
                found.append((n * clear, SeenBlock3D(
                    colour, (float(centre[0]), float(centre[1])), angle, 2, outline)))
    found.sort(key=lambda nb: -nb[0])
    kept: list[SeenBlock3D] = []
    for _n, block in found:
        if not any(_overlap_mm2(k.outline, block.outline) > OVERLAP_SHARE * block_mm ** 2
                   for k in kept):
            kept.append(block)
    return kept


STRIP_STEP_MM = 1.0
STRIP_INSET_MM = 2.0
"""Points on a tower's top judged for its strip: this far apart and in from its edges (a
level moves a top 5-10 mm outward 100-200 mm from the nadir: with the places' 4 mm the
strip it newly covers is mostly left out)."""

STRIP_MIN_POINTS = 40
"""A tower on a block of its colour is shown by the two photos when at least this many
points of its top, a level up, showed another class than its colour on the first level's
photo ..."""

STRIP_SHARE = 0.9
"""... and the stacked photo shows this share of them in its colour (the true towers f1736
and f1961 at 1.0 of 54 and 116, first-level blocks read outward of their place at most 0.25
of 24 or more)."""


def tower_shown(views: TableViews, before: TableViews, block: SeenBlock3D,
                hiders: Sequence[SeenBlock3D]) -> bool:
    """Whether the two photos show a block of ``block``'s colour set on it since.

    Such a tower's top, a level up, covers a strip outward of the block's top (its parallax)
    that the first level's photo showed in another class; the stacked photo shows it in the
    block's colour (:data:`STRIP_MIN_POINTS`, :data:`STRIP_SHARE`; ``hiders``: tops a level
    up or more that may hide points).
    """
    n, share, _clear = changed_shares(
        views, before, block.outline, 2 * views.layout.block_height_mm, [block.colour],
        hiders, STRIP_STEP_MM, STRIP_INSET_MM)[block.colour]
    return n >= STRIP_MIN_POINTS and share >= STRIP_SHARE


PLACE_MM = 5.0
"""A top read a level up within this of a place (mm) stands there as read (the tuning
families' blocks stand within 1.5 mm of theirs; a top is read to 1-3 mm)."""

MOVE_MM = 26.0
"""A top read a level up farther than :data:`PLACE_MM` from every place may stand on one
within this (mm), read off it: a side face or a shadow taken into its top, or a bridge's
top read with the uncovered half of its support of its colour (f1221, f1248: 21-23 mm off
the bridge's place) ..."""

MOVE_GAIN = 0.1
"""... when the two photos changed to its colour there over :data:`ADDED_SHARE` of at
least :data:`ADDED_MIN_POINTS` points, and over this share more than where it was read."""


def onto_places(views: TableViews, before: TableViews, ground: Sequence[SeenBlock3D],
                tops: Sequence[SeenBlock3D]) -> list[SeenBlock3D]:
    """The tops read, each one a level up read off its place moved onto it.

    A block a level up stands on one first-level block or across two (:func:`places`).
    One read more than :data:`PLACE_MM` from every place is moved onto the place near it
    (:data:`MOVE_MM`) where the two photos say its colour now stands, when they say so more
    clearly than where it was read (:data:`MOVE_GAIN`). A top read on a place stays: judged
    on the points it does not itself cover, a tower beside a block of its colour would
    move onto their bridge's place (f1118), and judged on all of them, a tower whose own
    top the photos show in its colour at 0.88 would (f008).
    """
    block_mm = views.layout.block_mm
    h1 = views.layout.block_height_mm
    spots = places(ground)
    out = list(tops)
    for k, top in enumerate(tops):
        if top.level != 2 or top.seen != "top" or not spots:
            continue
        near = [(float(np.hypot(c[0] - top.centre[0], c[1] - top.centre[1])), c, a)
                for _kind, c, a in spots]
        if min(d for d, _c, _a in near) <= PLACE_MM:
            continue
        hiders = [t for j, t in enumerate(out) if j != k and t.level >= 2]
        _n, here, _clear = changed_shares(views, before, top.outline, 2 * h1,
                                          [top.colour], hiders)[top.colour]
        best: tuple[float, np.ndarray, float] | None = None
        for d, centre, angle in near:
            if d > MOVE_MM:
                continue
            outline = square((float(centre[0]), float(centre[1])), block_mm, angle)
            n, share, _clear = changed_shares(views, before, outline, 2 * h1,
                                              [top.colour], hiders)[top.colour]
            if (n >= ADDED_MIN_POINTS and share >= ADDED_SHARE
                    and share >= here + MOVE_GAIN and (best is None or share > best[0])):
                best = (share, centre, angle)
        if best is not None:
            _share, centre, angle = best
            xy = (float(centre[0]), float(centre[1]))
            out[k] = replace(top, centre=xy, angle=angle, outline=square(xy, block_mm, angle))
    return out


SNAP_MM = 9.0
"""A top a level up read within this of a place (mm) ..."""

SNAP_MARGIN_MM = 6.0
"""... and at least this much nearer it than to any other place stands on it: its centre
and turn become the place's (a bridge's top read together with a sliver of its support of
its colour lies 5-7 mm off towards that block, f1446 and f1483; the first level, read
without anything on it, puts the places to about a millimetre)."""


def snapped_to_places(ground: Sequence[SeenBlock3D], tops: Sequence[SeenBlock3D],
                      block_mm: float) -> list[SeenBlock3D]:
    """The tops read, each one a level up set exactly on the place it was read on.

    A block a level up stands on one first-level block or across two (:func:`places`).
    A top read within :data:`SNAP_MM` of a place, and :data:`SNAP_MARGIN_MM` nearer it than
    any other, takes that place's centre and turn; the others are left as read.
    """
    spots = places(ground)
    out = list(tops)
    for k, top in enumerate(tops):
        if top.level != 2 or top.seen != "top" or not spots:
            continue
        near = sorted((float(np.hypot(c[0] - top.centre[0], c[1] - top.centre[1])), i)
                      for i, (_kind, c, _a) in enumerate(spots))
        d, i = near[0]
        if d > SNAP_MM or (len(near) > 1 and near[1][0] - d < SNAP_MARGIN_MM):
            continue
        _kind, centre, angle = spots[i]
        xy = (float(centre[0]), float(centre[1]))
        out[k] = replace(top, centre=xy, angle=angle, outline=square(xy, block_mm, angle))
    return out


def _overlap_mm2(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area)
