"""Bridges over two blocks of their own colour, found by the pawn standing on them.

A pawn stands on one block's top (Infinifield, "Preparing": it is placed *on top of one of
the blocks*, and each turn moved *from its present block to any adjoining one*), never
astride the groove between two. A bridge set a level up across two touching first-level
blocks of its colour shows no other colour (:mod:`vision.readers.added3d` cannot see it),
and a pawn on it hides the middle of the groove the bridge covers, where
:mod:`vision.readers.seams3d` would look: the pawn's head and its dark flank and shadow
darken the bridge's top right over the groove. The pawn itself says where it stands: its
head shows clearly over the bridge's place, at a pawn's head height over a block a level
up, and over neither of the two blocks nor any other top read only partly, as a head
standing beside them.

Example:
    >>> import numpy as np
    >>> from vision.readers.pawns3d import HeadScore
    >>> shares = [{"green": HeadScore(0.6, (0.0, 0.0))}, {"green": HeadScore(1.0, (0.0, 0.0))}]
    >>> _shown_only_there(shares[1], shares[:1])
    'green'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from vision.geometry import square
from vision.readers.added3d import OVERLAP_SHARE, _overlap_mm2
from vision.readers.levels3d import prism_hits
from vision.readers.pawns3d import HeadScore, HeadTop, head_hits, head_scores
from vision.readers.seams3d import own_colour_pairs

if TYPE_CHECKING:
    from vision.readers.field3d import SeenBlock3D
    from vision.readers.table_views import TableViews

BRIDGE_HEAD_SCORE = 0.8
"""A pawn's head shows over a bridge's place when a head-sized window there is at least
this full of its colour (:func:`~vision.readers.pawns3d.head_scores`; the eight pawns on
bridges of their blocks' colour the tuning families missed, 0.92-1.0; a block's flank seen
past a top fills 0.5 at most with an orange hue)."""

ELSEWHERE_RATIO = 0.85
"""... and stands there only when every other top it could stand on, the two blocks under
the bridge among them, shows it less than this share as well (the same eight: 0.56-0.75
over the better of the two; a pawn on one of them or on a top beside them shows as well
there as over the bridge's place, 0.9-1.0)."""

SIDE_FACE_SHARE = 0.5
"""A head is no pawn's when more than this share of what shows it, by its hue only (not the
pawn's colour itself), is where a block read a level up would show without the bridge: a
raised neighbour's side face in shade, seen past the place, points to an orange or a cyan
hue (f1926: a yellow bridge's face over a white pair, all of its 0.92)."""


def pawn_bridges(views: TableViews, ground: Sequence[SeenBlock3D],
                 tops: Sequence[SeenBlock3D]) -> list[SeenBlock3D]:
    """Bridges a level up over two first-level blocks of their colour, under a pawn.

    Args:
        views: the stacked photo.
        ground: the first level, as read on its own photo.
        tops: the tops read so far on the stacked photo; a pair one of those a level up
            stands over (:data:`~vision.readers.added3d.OVERLAP_SHARE` of the bridge's
            place) is left alone, and every top read is a place the pawn could stand on, as
            is every first-level block none of those a level up stands on.

    Returns:
        Blocks at level 2 in the pair's colour, across each touching pair
        (:func:`~vision.readers.seams3d.own_colour_pairs`) over whose place a pawn's head
        shows (:data:`BRIDGE_HEAD_SCORE`) better than over any other top
        (:data:`ELSEWHERE_RATIO`); none overlapping another.
    """
    from vision.readers.field3d import SeenBlock3D

    layout = views.layout
    block_mm, h1 = layout.block_mm, layout.block_height_mm
    up = [t for t in tops if t.level >= 2]
    bridges: list[tuple[SeenBlock3D, SeenBlock3D, np.ndarray, tuple[float, float]]] = []
    for a, b in own_colour_pairs(ground):
        middle = ((a.centre[0] + b.centre[0]) / 2, (a.centre[1] + b.centre[1]) / 2)
        place = square(middle, block_mm, a.angle)
        if not any(_overlap_mm2(t.outline, place) > OVERLAP_SHARE * block_mm ** 2 for t in up):
            bridges.append((a, b, place, middle))
    colours = [c.name for c in views.palette.classes if c.kind == "pawn"]
    if not bridges or not colours:
        return []
    # every top read, and every first-level block nothing read a level up stands on (one
    # the stacked photo did not read, a pawn on it: f2536's orange pawn on a yellow block)
    read = [HeadTop(np.asarray(t.outline, np.float64), t.level * h1, t.colour)
            for t in tops if t.seen in ("top", "part")]
    read += [HeadTop(np.asarray(g.outline, np.float64), h1, g.colour) for g in ground
             if not any(_overlap_mm2(t.outline, g.outline) > OVERLAP_SHARE * block_mm ** 2
                        for t in up)]
    heads = list(read)
    for a, b, place, _middle in bridges:
        heads += [HeadTop(np.asarray(a.outline, np.float64), a.level * h1, a.colour),
                  HeadTop(np.asarray(b.outline, np.float64), b.level * h1, b.colour),
                  HeadTop(place, 2 * h1, a.colour)]
    scores = head_scores(views, heads, colours)
    found: list[SeenBlock3D] = []
    for k, (a, _b, place, middle) in enumerate(bridges):
        at = len(read) + 3 * k
        colour = _shown_only_there(scores[at + 2], scores[:len(read)] + scores[at:at + 2])
        if colour is None or _side_faces_show_it(views, heads[at + 2], colour, up):
            continue
        block = SeenBlock3D(a.colour, middle, a.angle, 2, place)
        if not any(_overlap_mm2(f.outline, place) > OVERLAP_SHARE * block_mm ** 2
                   for f in found):
            found.append(block)
    return found


def _side_faces_show_it(views: TableViews, head: HeadTop, colour: str,
                        up: Sequence[SeenBlock3D]) -> bool:
    """Whether blocks read a level up, seen past ``head``'s top, show its pawn's hue there.

    Each head sample's line of sight, continued down to the first level's tops, passes
    through a block read a level up where that block would show there with no block on
    the place (:data:`SIDE_FACE_SHARE`).
    """
    hits = head_hits(views, [head], [colour])[0]
    hit = hits.by_colour[colour] > 0
    by_hue = hit & (hits.classes != views.palette.index(colour))
    if not by_hue.any() or not up:
        return False
    h1 = views.layout.block_height_mm
    cam = views.pose.camera_position()
    points = hits.points
    t = (cam[2] - h1) / np.maximum(cam[2] - points[:, 2], 1e-9)
    below = cam + (points - cam) * t[:, None]
    shown = np.zeros(len(points), bool)
    for block in up:
        shown |= prism_hits(below, cam, np.asarray(block.outline, np.float64),
                            (block.level - 1) * h1, block.level * h1)
    return int((by_hue & shown).sum()) > SIDE_FACE_SHARE * int(hit.sum())


def _shown_only_there(there: dict[str, HeadScore], elsewhere: Sequence[dict[str, HeadScore]]
                      ) -> str | None:
    """The pawn colour whose head shows over one top and clearly over no other, if any."""
    for colour, score in there.items():
        if score.share < BRIDGE_HEAD_SCORE:
            continue
        best_else = max((s[colour].share for s in elsewhere), default=0.0)
        if best_else < ELSEWHERE_RATIO * score.share:
            return colour
    return None
