"""First-level blocks the reading missed in the rows of those it read.

Fields are built in rows: a block set against another touches it along a whole side, so
the place beside a read top, a block's width and a touching gap along one of its axes, is
where a neighbour of it would stand. Where such a place has first-level blocks read on
two or more of its four sides, none read on it, and what the camera sees there at a
block's height is not the table, a block was missed there: a white top in a soft shadow
or split by a shadow's edge (darker than the palette's white, so classed table or
nothing), or one cut short by its neighbours' grooves. Not the table: half of the place
shows one block colour, or it is clearly lighter than the table can be (the lit mat of
the tuning scenes reads at most 1.33 times its learnt lightness; a white top in shade
1.4-2.3). Its colour is the block colour most of the place shows (white where the
palette names none: a white top in shade is no class's colour).

Places under a block read on the second level are left to the stacks' readers (what
shows there at a block's height is the raised top itself). With nothing read a level up
(a flat field, or the first level's photo: :func:`shaded_tops`), nothing shades a top, and
a place far darker than the tops of the colour it shows is a hole in the field, the table
in the shadow of the blocks round it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.geometry import inset, square
from vision.readers.table_views import TableViews

if TYPE_CHECKING:
    from vision.readers.field3d import SeenBlock3D

ROW_GAP_MM = 1.0
"""The gap between two touching blocks in a row (their bevels meet 0.6-1.2 mm apart)."""

BESIDE = 2
"""How many of a place's four neighbours in its rows must be first-level blocks read (any
way: a top, a part of one, a side face). One is not enough: on the tuning scenes the
places beside a single block that show a block colour are as often the side faces of a
raised neighbour or a pawn's shadow as a missed top."""

BESIDE_MM = 12.0
"""A block read this close (mm) to a neighbour's place in a row stands there."""

TAKEN_MM = 30.0
"""A place with a first-level block read within this (mm) of its centre is taken."""

SAME_PLACE_MM = 8.0
"""Two read tops point at one place when their proposals fall this close (mm)."""

INSET_MM = 8.0
"""The place is judged on its footprint drawn in by this much (mm): its edges hold the
neighbours' bevels, grooves and blurred sides."""

BLOCK_SHARE = 0.5
"""A place half of whose pixels show one block colour is a top of it. (Less is not enough:
an empty place between blocks shows their side faces, a yellow one 40 % of such a place
on the tuning scenes.)"""

LIGHTER = 1.5
"""...nor one this many times as light (CIE L*) as the learnt table: the tuning scenes'
empty places read at most 1.33 times as light (a lamp's pool on the mat)."""

COLOUR_SHARE = 0.15
"""A missed block takes the block colour that covers at least this share of its place."""

SHADED_SHARE = 0.5
"""With no block read a level up, nothing casts a shadow on a first-level top (the first
level's photo, or a flat field): tops of one colour show alike (the tuning families' first
levels, 0.71 of the median of their colour at least). A place under this share as light as
the tops of the colour it shows is the table in the shadow of the blocks round it, dark
enough to take a block's class (f2011, f2368: a hole in the field under a window's light,
0.14-0.32 of the yellow tops; f2323, white, 0.17)."""

UNDER_MM2 = 200.0
"""A place whose footprint shares this much (mm²) with a second-level block's is under it."""


def missed_in_rows(views: TableViews, blocks: Sequence[SeenBlock3D]
                   ) -> list[tuple[str, tuple[float, float], float]]:
    """The first-level blocks missed beside read tops: colour, centre (mm), angle (deg).

    Args:
        views: the frame's views.
        blocks: the reading's blocks (every level).
    """
    firsts = [b for b in blocks if b.level == 1]
    raised = [b for b in blocks if b.level == 2]
    step = views.layout.block_mm + ROW_GAP_MM
    places: list[dict] = []
    for b in firsts:
        if b.seen != "top":
            continue
        for axis in _axes(b.angle):
            for sign in (1.0, -1.0):
                c = (b.centre[0] + sign * step * axis[0], b.centre[1] + sign * step * axis[1])
                if any(math.dist(c, o.centre) < TAKEN_MM for o in firsts):
                    continue
                near = [p for p in places if math.dist(p["centre"], c) < SAME_PLACE_MM]
                if near:
                    near[0]["votes"].append((c, b.angle))
                else:
                    places.append({"centre": c, "votes": [(c, b.angle)]})
    found: list[tuple[str, tuple[float, float], float]] = []
    height = views.layout.block_height_mm
    look = _Look(views.classes(height),
                 cv2.cvtColor(views.view(height), cv2.COLOR_BGR2LAB)[..., 0],
                 _lightness(views.table_balanced_bgr))
    for p in places:
        centre = tuple(np.mean([v[0] for v in p["votes"]], axis=0).tolist())
        angle = float(np.mean([v[1] for v in p["votes"]]))
        beside = [(centre[0] + sign * step * axis[0], centre[1] + sign * step * axis[1])
                  for axis in _axes(angle) for sign in (1.0, -1.0)]
        if sum(any(math.dist(q, o.centre) < BESIDE_MM for o in firsts)
               for q in beside) < BESIDE:
            continue
        outline = square(centre, views.layout.block_mm, angle)
        if any(_overlap_mm2(outline, r.outline) > UNDER_MM2 for r in raised):
            continue
        colour = _block_colour(views, look, outline)
        if colour is not None and not (
                not raised and _shaded(views, look.lightness, outline, colour, firsts)):
            found.append((colour, (float(centre[0]), float(centre[1])), angle))
    return found


def shaded_tops(views: TableViews, blocks: Sequence[SeenBlock3D]) -> list[SeenBlock3D]:
    """The first-level tops of ``blocks`` that are the table in shade, on a first level.

    On a photo of the first level alone nothing stands a level up to shade a top, so one
    shown under :data:`SHADED_SHARE` as light as the other tops of its colour read there
    is a hole in the field, the table in the shadow of the blocks round it.
    """
    lightness = _lightness_view(views)
    firsts = [b for b in blocks if b.level == 1 and b.seen == "top"]
    return [b for b in firsts
            if _shaded(views, lightness, b.outline, b.colour, [o for o in firsts if o is not b])]


def shaded_place(views: TableViews, outline: np.ndarray, colour: str,
                 tops: Sequence[SeenBlock3D]) -> bool:
    """Whether a place shows under :data:`SHADED_SHARE` as light as ``tops`` of ``colour``.

    On the first level's photo (``views``, ``tops`` read there), such a place is the table
    in the shadow of the blocks round it (:func:`shaded_tops`).
    """
    return _shaded(views, _lightness_view(views), outline, colour, tops)


def _lightness_view(views: TableViews) -> np.ndarray:
    """CIE L* (OpenCV's 0-255 scale) of the view a block's height up."""
    view = views.view(views.layout.block_height_mm)
    return np.asarray(cv2.cvtColor(view, cv2.COLOR_BGR2LAB)[..., 0])


def _shaded(views: TableViews, lightness: np.ndarray, outline: np.ndarray, colour: str,
            firsts: Sequence[SeenBlock3D]) -> bool:
    """Whether ``outline`` shows under :data:`SHADED_SHARE` as light as tops of ``colour``.

    Judged against the median of the tops of ``colour`` in ``firsts`` (False where none).
    """
    tops = [_mean_lightness(views, lightness, b.outline) for b in firsts
            if b.colour == colour and b.seen == "top"]
    lit = [v for v in tops if v is not None]
    here = _mean_lightness(views, lightness, outline)
    return bool(lit) and here is not None and here < SHADED_SHARE * float(np.median(lit))


def _inside(views: TableViews, shape: tuple[int, ...], outline: np.ndarray) -> np.ndarray:
    """The view's pixels in ``outline`` drawn in by :data:`INSET_MM`."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(inset(np.asarray(outline, np.float64), INSET_MM)
                                      * views.px_per_mm - 0.5).astype(np.int32), 1)
    return mask > 0


def _mean_lightness(views: TableViews, lightness: np.ndarray, outline: np.ndarray
                    ) -> float | None:
    inside = _inside(views, lightness.shape, outline)
    if not inside.any():
        return None
    return float(lightness[inside].astype(np.float32).mean())


def _axes(angle_deg: float) -> tuple[tuple[float, float], tuple[float, float]]:
    t = math.radians(angle_deg)
    return (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))


@dataclass(frozen=True)
class _Look:
    """The first level's view as the places are judged on it."""

    classes: np.ndarray
    """Palette class per pixel."""
    lightness: np.ndarray
    """CIE L* per pixel (OpenCV's 0-255 scale)."""
    table: float
    """The learnt table's L* (same scale)."""


def _lightness(bgr: tuple[float, float, float]) -> float:
    px = np.clip(np.asarray(bgr, np.float32), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    return max(float(cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0, 0]), 1.0)


def _block_colour(views: TableViews, look: _Look, outline: np.ndarray) -> str | None:
    """The colour of a block whose top shows in ``outline``, or None where it is table."""
    ppm = views.px_per_mm
    inside = _inside(views, look.classes.shape, outline)
    if int(inside.sum()) < (views.layout.block_mm - 2 * INSET_MM) ** 2 * ppm * ppm / 2:
        return None                                   # mostly out of the view
    palette = views.palette
    shown = look.classes[inside]
    shares = {palette.classes[k].name: float((shown == k).mean())
              for k in palette.of_kind("block")}
    best = max(shares, key=lambda k: shares[k])
    if shares[best] >= BLOCK_SHARE:
        return best
    if float(look.lightness[inside].astype(np.float32).mean()) < LIGHTER * look.table:
        return None
    return best if shares[best] >= COLOUR_SHARE else "white"


def _overlap_mm2(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area)


ROW_GAP_RANGE_MM = (-4.0, 9.0)
"""Two first-level blocks facing each other across a gap read in this range (mm) are meant
to touch (infinifield.md, "Official field building rules": blocks not meant to touch are
placed half an inch, 12.7 mm, or more apart); the generator's touching pairs read up to
7-9 mm apart where one of the two is placed off by its part, its shadow or its neighbour."""

FACING_MM = 20.0
"""...when their centres lie within this (mm) of each other across that direction (they
face each other over at least half a side)."""

SURE = {"top": 1.0}
"""How firmly a block keeps the place it was read at, by how it was read: a whole top
firmly; a part of one, a side face or an assumed block (:data:`GUESS`) far less."""

GUESS = 0.1
"""The weight of a guessed place (a part of a top, a side face, assumed)."""


def onto_rows(blocks: Sequence[SeenBlock3D], block_mm: float) -> list[SeenBlock3D]:
    """The first-level blocks moved so that those meant to touch do (least squares).

    Each pair facing each other across a gap in :data:`ROW_GAP_RANGE_MM` asks for the gap
    two touching blocks have (:data:`ROW_GAP_MM`), along the direction between their faces;
    each block asks to stay where it was read, as firmly as :data:`SURE` says. The places
    that satisfy both best (weighted least squares, one small linear system) are taken;
    nothing moves where no pair asks. Raised blocks stay where they are.

    Args:
        blocks: a reading's blocks.
        block_mm: a block's side.
    """
    firsts = [i for i, b in enumerate(blocks) if b.level == 1]
    index = {i: k for k, i in enumerate(firsts)}
    rows: list[np.ndarray] = []
    rhs: list[float] = []
    n = 2 * len(firsts)
    for i in firsts:
        for j in firsts:
            if j <= i:
                continue
            a, b = blocks[i], blocks[j]
            d = np.subtract(b.centre, a.centre)
            u = max((np.array(ax) * np.sign(float(np.dot(ax, d))) for ax in _axes(a.angle)),
                    key=lambda ax: float(np.dot(ax, d)))
            along, across = float(np.dot(u, d)), abs(float(u[0] * d[1] - u[1] * d[0]))
            gap = along - block_mm
            if across > FACING_MM or not ROW_GAP_RANGE_MM[0] <= gap <= ROW_GAP_RANGE_MM[1]:
                continue
            row = np.zeros(n)
            row[2 * index[j]:2 * index[j] + 2] = u
            row[2 * index[i]:2 * index[i] + 2] = -u
            rows.append(row)
            rhs.append(block_mm + ROW_GAP_MM)
    if not rows:
        return list(blocks)
    for k, i in enumerate(firsts):
        w = math.sqrt(SURE.get(blocks[i].seen, GUESS))
        for axis in range(2):
            row = np.zeros(n)
            row[2 * k + axis] = w
            rows.append(row)
            rhs.append(w * blocks[i].centre[axis])
    solution, *_ = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)
    out = list(blocks)
    for k, i in enumerate(firsts):
        b = blocks[i]
        xy = (float(solution[2 * k]), float(solution[2 * k + 1]))
        shift = np.subtract(xy, b.centre)
        out[i] = dataclasses.replace(b, centre=xy, outline=np.asarray(b.outline) + shift)
    return out
