"""The field's first level, read before anything was stacked on it, as what the field stands on.

From one photo of a stacked field the camera cannot see a block hidden under others, and
at 640x480 a block standing on one block tells its level by a pixel or two of its size. A
photo of the first level taken before the builder stacks on it (every block on the table,
each top in view) settles both: a top read on the table where a first-level block of
another colour stands, or displaced from one of its own colour as a top a level up is,
stands on it; and a block the stacked photo hides keeps the colour and place the first
photo saw. :func:`vision.readers.field3d.read_field` takes the first level as ``ground``.

Example:
    >>> from vision.geometry import square
    >>> w = ground_block("white", (100.0, 100.0), 0.0, 40.0)
    >>> top = square((104.0, 101.0), 40.0, 0.0)
    >>> stands_on_ground(top, "red", [w], 40.0)
    True
    >>> stands_on_ground(top, "white", [w], 40.0)
    False
    >>> stands_on_ground(square((109.0, 101.0), 40.0, 0.0), "white", [w], 40.0,
    ...                  raised=square((102.0, 100.5), 40.0, 0.0))
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.geometry import square

if TYPE_CHECKING:
    from vision.readers.field3d import SeenBlock3D
    from vision.readers.table_views import TableViews

GROUND_OVERLAP = 0.3
"""A top read on the table stands on a first-level block when it covers this share of that
block's top: two touching first-level tops read with a millimetre or two of error share
under a tenth, a top a level up a block shifted by its parallax (at most 15-20 mm) over
half."""

SAME_BLOCK_MM = 6.0
"""A top read on the table within this of a first-level block of its colour (centre to
centre, mm) is that block: a top read twice is placed to 1-2 mm, while a top a level up
read as a first-level one is shifted outward from its block by the parallax of 40 mm
(7.5 mm at 10 cm from the camera's nadir, 60 cm up). A tower of one colour nearer the
nadir than that stays unread, as without the first level."""


def ground_block(colour: str, centre: tuple[float, float], angle: float, block_mm: float,
                 size_mm: float | None = None) -> SeenBlock3D:
    """A first-level block read on the first-level photo, as a top of the stacked reading.

    ``size_mm``: its top's side as that photo showed it (a block's own size if not read).
    """
    from vision.readers.field3d import SeenBlock3D
    return SeenBlock3D(colour, (float(centre[0]), float(centre[1])), float(angle), 1,
                       square(centre, block_mm, angle), (), "top", size_mm or block_mm)


def first_level(blocks: Sequence[SeenBlock3D], views: TableViews | None = None
                ) -> list[SeenBlock3D]:
    """The first-level tops of a reading of the first-level photo (whatever else it read).

    With that photo's ``views``, none that is the table in the shadow of the blocks round
    it (:func:`~vision.readers.grid_cells.shaded_tops`: nothing stands a level up there to
    shade a top, whatever the reading took for raised).
    """
    from vision.readers.grid_cells import shaded_tops

    shaded = {id(b) for b in shaded_tops(views, blocks)} if views is not None else set()
    return [b for b in blocks if b.level == 1 and b.seen == "top" and id(b) not in shaded]


def _share(a: np.ndarray, b: np.ndarray, block_mm: float) -> float:
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area) / (block_mm * block_mm)


def same_block(centre: tuple[float, float] | np.ndarray, colour: str,
               ground: Sequence[SeenBlock3D]) -> SeenBlock3D | None:
    """The first-level block a top read on the table at ``centre`` is, if any."""
    for g in ground:
        if g.colour == colour and np.hypot(g.centre[0] - centre[0],
                                           g.centre[1] - centre[1]) < SAME_BLOCK_MM:
            return g
    return None


ON_OWN_COLOUR_MM = 10.0
"""A top over a first-level block of its own colour stands on it alone only when, a level
up, its centre comes within this of that block's (mm; a tower's top rests about on its
block's centre, or it would tip) and nearer than read on the table: the parallax a level
adds runs away from the camera's nadir. A stray part of a top between two of its colour
does not.

Only without the first level's photo: with it, what changed between the two photos
(:mod:`vision.readers.added3d`, :mod:`vision.readers.seams3d`) says where a block of one
colour was set on another. A top's place alone is no such evidence: a raised neighbour's
shadow or side faces move where a first-level top is read by as much as a level does (f1801,
f1846: 6 mm outward, where a level adds 2 and 8). On f1401-f1898 and the shipped and stacks
tuning sets, read with their first level's photo, it made 16 of the 39 blocks read where
none is, and 1 true tower (f1736); with the photo such a top stands on its block only where
the two photos show the strip its top newly covers
(:func:`vision.readers.added3d.tower_shown`)."""

SUPPORT_SHARE = 0.15
"""A top a level up rests on each first-level block it covers by this share of a block's
top (a bridge on two, at least a quarter on each; two touching tops read a millimetre off
share a few hundredths)."""

BALANCED_SHARE = 0.35
"""A top read on the table near a first-level block of its colour stands a level up as a
bridge over that block and one of another colour when, raised, it covers this share of
each: a bridge rests about half on each (the true ones of the tuning families 0.41-0.55),
while that block read off its place, raised, covers the other 0.15-0.31."""

OFF_PLACE_MM = 15.0
"""A top whose centre, brought down to the table, lies within this of a first-level block
of its colour that it neither is nor stands on is that block read off its place (a stray
part of it, merged with a neighbour's); a bridge's centre lies half a block or more from
each of its supports'."""


def stands_on_ground(outline: np.ndarray, colour: str, ground: Sequence[SeenBlock3D],
                     block_mm: float, raised: np.ndarray | None = None,
                     own_colour: bool = True) -> bool:
    """Whether a top read on the table at ``outline`` stands on the first level.

    It is none of the first-level blocks (:func:`same_block`), and it covers
    :data:`GROUND_OVERLAP` of one of another colour, or a level up (``raised``, its
    outline there) it rests on two (:data:`SUPPORT_SHARE`) (on two of its own colour only
    half on each, as a bridge rests: :func:`rests_half_on_two`; a top of their colour read
    between them is as likely a part of one of them), or on one of its own colour as
    :data:`ON_OWN_COLOUR_MM` says (only with ``own_colour``).
    """
    centre = np.asarray(outline, np.float64).mean(axis=0)
    if same_block(centre, colour, ground) is not None:
        return False
    if any(g.colour != colour and _share(outline, g.outline, block_mm) >= GROUND_OVERLAP
           for g in ground):
        return True
    if raised is None:
        return False
    up = np.asarray(raised, np.float64).mean(axis=0)
    under = [g for g in ground if _share(raised, g.outline, block_mm) >= SUPPORT_SHARE]
    if len(under) >= 2 and (any(g.colour != colour for g in under)
                            or rests_half_on_two(raised, ground, block_mm)):
        return True
    if not own_colour:
        return False
    for g in under:
        to_up = float(np.hypot(up[0] - g.centre[0], up[1] - g.centre[1]))
        to_read = float(np.hypot(centre[0] - g.centre[0], centre[1] - g.centre[1]))
        if g.colour == colour and to_up < min(to_read, ON_OWN_COLOUR_MM):
            return True
    return False


def bridges_own_colour(outline: np.ndarray, colour: str, ground: Sequence[SeenBlock3D],
                       block_mm: float, raised: np.ndarray) -> bool:
    """Whether a top read on the table is a bridge over a block of its colour, or that block.

    It lies near that block (:func:`off_place`) and stands on the first level only as a
    bridge over it.

    Read on the table it covers no block of another colour by :data:`GROUND_OVERLAP`, and
    a level up (``raised``) it rests on two (:data:`SUPPORT_SHARE`), one of them of its
    colour, but not as a bridge does: on one of its colour and one of another, about half
    on each (:data:`BALANCED_SHARE`). Such a top may as well be that block, read off its
    place (a pawn on it hides part of its top, or a part of its top merges with a
    neighbour's); only the colour a bridge would show over the other tells them apart
    (:func:`vision.readers.field3d._bridge_on_own_colour`).
    """
    if same_block(np.asarray(outline, np.float64).mean(axis=0), colour, ground) is not None:
        return False
    if any(g.colour != colour and _share(outline, g.outline, block_mm) >= GROUND_OVERLAP
           for g in ground):
        return False
    shares = [(g, _share(raised, g.outline, block_mm)) for g in ground]
    under = [(g, share) for g, share in shares if share >= SUPPORT_SHARE]
    if len(under) < 2 or not any(g.colour == colour for g, _ in under):
        return False
    balanced = (rests_half_on_two(raised, ground, block_mm)
                and len({g.colour for g, _ in under}) == 2)
    return not balanced and off_place(outline, colour, ground)


def rests_half_on_two(raised: np.ndarray, ground: Sequence[SeenBlock3D], block_mm: float
                      ) -> bool:
    """Whether a top a level up (``raised``, its outline there) rests as a bridge does.

    On two first-level blocks, covering :data:`BALANCED_SHARE` of each.
    """
    under = [g for g in ground if _share(raised, g.outline, block_mm) >= SUPPORT_SHARE]
    return len(under) == 2 and all(_share(raised, g.outline, block_mm) >= BALANCED_SHARE
                                   for g in under)


def off_place(outline: np.ndarray, colour: str, ground: Sequence[SeenBlock3D]) -> bool:
    """Whether a top read on the table is a first-level block of its colour off its place.

    Its centre lies within :data:`OFF_PLACE_MM` of one (ask only when it neither is one
    nor stands on the first level, :func:`stands_on_ground`).
    """
    centre = np.asarray(outline, np.float64).mean(axis=0)
    return any(g.colour == colour and np.hypot(g.centre[0] - centre[0], g.centre[1]
                                               - centre[1]) < OFF_PLACE_MM for g in ground)


def unread(ground: Sequence[SeenBlock3D], tops: Sequence[SeenBlock3D]
           ) -> list[SeenBlock3D]:
    """The first-level blocks no first-level top of the stacked photo was read as."""
    level_one = [t for t in tops if t.level == 1 and t.seen == "top"]
    return [g for g in ground
            if not any(same_block(t.centre, g.colour, [g]) is not None for t in level_one)]
