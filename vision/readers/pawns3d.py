"""Pawns seen where their heads must appear: over the tops they can stand on.

A pawn stands on a block's top, and from above mostly its round head shows, 24 mm up
(:data:`PAWN_HEAD_MM`). Through the camera model that head appears over the point it
stands on, at any camera angle, so each top a pawn could stand on is sampled every 2 mm in
the plane of a pawn's head over it, and scored by the largest share of the pawn's colour in
any head-sized window (its colour class, or in shade its hue; the top's own colour never
counts). A small, far or dim head fills a window even where it is a tenth of the top, and a
head leaning over a neighbour's top shows over that neighbour only at the wrong height.

Both readers use it: the set-up reader (:func:`find_pawns`: every read top nothing rests on
is a hypothesis, each pawn colour goes to the top that shows its head best, and says when
another one shows it almost as well) and the play check (``verify.locate_pawn``: the
engine's legal moves are the hypotheses).

Example:
    >>> import numpy as np
    >>> from vision.devtools.render_boxes import BoxScene, render_boxes
    >>> from vision.palette import default_palette
    >>> from vision.pose import table_pose
    >>> from vision.readers.table_views import TableViews
    >>> scene = BoxScene.random(seed=3).with_pawn("green", "B1")
    >>> frame = render_boxes(scene).image
    >>> views = TableViews(frame, table_pose(frame, scene.pose.intrinsics), default_palette())
    >>> fld = scene.field()
    >>> tops = [HeadTop(np.asarray(b.footprint), fld.elevation[b.id] + b.height, b.colour)
    ...         for b in fld.blocks]
    >>> [(p.colour, fld.blocks[p.top].id) for p in find_pawns(views, tops)]
    [('green', 'B1')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import cv2
import numpy as np

from vision.geometry import inset, quad_grid
from vision.palette import UNKNOWN, Palette
from vision.readers.notes import ReadingNote, pawn_unsure_note
from vision.readers.table_views import TableViews

PAWN_HEAD_MM = 24.0
"""Height of a pawn's head (the centre of its round top) above the top it stands on."""

HEAD_STEP_MM = 2.0
"""Spacing of the samples a pawn's head is looked for in."""

HEAD_INSET_MM = 4.0
"""The head samples start this far in from a top's edges."""

PAWN_BASE_RADIUS_MM = 9.0
"""Radius of a pawn's base."""

HEAD_WINDOW = 5
"""A head's size in samples (``5 x 2 mm``: a pawn's head is about 11 mm across)."""

PAWN_SCORE = 0.2
"""A pawn stands on a block when a head-sized window over its top, at head height, has at
least this share of the pawn's colour (five samples of 25)."""

SETUP_SCORE = 0.28
"""At set-up every top is a hypothesis, so a pawn needs more: a window at least this full of
its colour (seven samples of 25, over a quarter of a head seen from above): the flank of a
red or yellow block seen past a top fills five with an orange hue."""

COVERED_SCORE = 0.6
"""A top the reading has covered by another block carries a pawn only when the pawn's head
shows over it this clearly (and :data:`CLEAR_RATIO` times more than over any uncovered top):
a clear head says the top is free (the block read on it is a mistake), where a part of a top
beside a bridge shows the bridge's shaded side, red or yellow, with an orange hue."""

CLEAR_RATIO = 2.5
"""The best top is a pawn's without doubt when it shows this many times more of the pawn's
colour than the runner-up."""

OWN_CHROMA_WEIGHT = 0.5
"""A sample of the pawn's own colour class whose chroma is also near the top's (an orange
head on a red top, in a warm light) counts this much: a head filling a window still shows
(half of 25 samples), the blend of a head seen past a neighbour's edge does not (a strip
two samples deep, under :data:`SETUP_SCORE` at half weight)."""

HUE_MIN_STRENGTH = 0.1
"""Chromaticity (distance from grey) a sample needs before its hue says anything."""


@dataclass(frozen=True)
class HeadTop:
    """A top a pawn may stand on.

    Attributes:
        footprint: (4, 2) corners of the top in table mm.
        height: the top's height above the table (mm).
        colour: the block's colour (what its own top shows never counts as a head).
        covered: the reading has another block resting on it (a pawn's head must show
            clearly for it to be taken: :data:`COVERED_SCORE`).
    """

    footprint: np.ndarray
    height: float
    colour: str
    covered: bool = False


@dataclass(frozen=True)
class HeadScore:
    """How much of a pawn colour shows over one top, and where (table mm, head plane)."""

    share: float
    at: tuple[float, float]


@dataclass(frozen=True)
class PawnFound:
    """A pawn found at set-up.

    Attributes:
        colour: the pawn's colour.
        centre: where its head shows (table mm; right over its base).
        top: index (in the tops given) of the top it stands on.
        share: its head window's share of the pawn's colour.
        rival: the runner-up top when it showed the head almost as well (unsure), else
            ``None``.
    """

    colour: str
    centre: tuple[float, float]
    top: int
    share: float
    rival: int | None = None


class ReadBlock(Protocol):
    """What :func:`pawns_on_blocks` needs of a block read at set-up (``SeenBlock3D``)."""

    @property
    def colour(self) -> str:
        """Palette class name."""

    @property
    def centre(self) -> tuple[float, float]:
        """Centre of its top, table mm."""

    @property
    def level(self) -> int:
        """1 on the table, 2 on one block, ..."""

    @property
    def outline(self) -> np.ndarray:
        """(4, 2) corners of its top, table mm."""

    @property
    def rests_on(self) -> tuple[int, ...]:
        """Indexes of the blocks under it."""

    @property
    def seen(self) -> str:
        """``top``, ``part``, ``side`` or ``assumed``."""


def head_grid(footprint: np.ndarray, height: float) -> tuple[np.ndarray, int]:
    """Samples over a top at a pawn's head height, ``(points (n*n, 3), n)``.

    A pawn's base stands at least its radius in from the top's edges; its head, seen
    through the camera model, appears right over where it stands, at any angle.
    """
    poly = inset(np.asarray(footprint, np.float64), HEAD_INSET_MM)
    side = float(np.linalg.norm(poly[1] - poly[0]))
    n = max(HEAD_WINDOW, round(side / HEAD_STEP_MM) + 1)
    pts = quad_grid(poly, n)
    return np.column_stack([pts, np.full(len(pts), height + PAWN_HEAD_MM)]), n


def hue_nearest(bgr: np.ndarray, palette: Palette) -> np.ndarray:
    """Per balanced BGR sample (N, 3), the coloured class whose hue it points to most.

    Shade scales the three channels alike, so each one's share of their sum (the
    chromaticity) stays: a pawn's head in the shadow of a tower, or dim and far, is
    darker than its reference in CIELAB but points the same way. ``UNKNOWN`` where the
    sample is too grey or too dark to tell.
    """
    refs = _hue_refs(palette)
    out = np.full(len(bgr), UNKNOWN, np.uint8)
    if not refs:
        return out
    px = np.asarray(bgr, np.float32)
    chroma = (px + 1) / (px.sum(axis=1, keepdims=True) + 3) - 1 / 3
    strength = np.linalg.norm(chroma, axis=1)
    idx = np.array([i for i, _r in refs])
    dirs = np.array([r for _i, r in refs], np.float32)
    cos = (chroma @ dirs.T) / np.maximum(strength[:, None], 1e-9)
    best = np.argmax(cos, axis=1)
    take = (strength > HUE_MIN_STRENGTH) & (px.sum(axis=1) > 45)
    out[take] = idx[best[take]]
    return out


@lru_cache(maxsize=16)
def _hue_refs(palette: Palette) -> tuple[tuple[int, np.ndarray], ...]:
    """Unit chromaticity directions of the palette's coloured classes (blocks and pawns)."""
    refs = []
    for i, c in enumerate(palette.classes):
        if c.kind == "table":
            continue
        bgr = cv2.cvtColor(np.array([[c.lab]], np.float32), cv2.COLOR_Lab2BGR).reshape(3) * 255
        d = (bgr + 1) / (bgr.sum() + 3) - 1 / 3
        norm = float(np.linalg.norm(d))
        if norm > 0.06:                      # white is no hue
            refs.append((i, d / norm))
    return tuple(refs)


def head_scores(views: TableViews, tops: Sequence[HeadTop], colours: Sequence[str]
                ) -> list[dict[str, HeadScore]]:
    """For each top, how much a pawn's head of each colour shows over it, and where.

    The top is sampled every 2 mm in the plane of a pawn's head (:data:`PAWN_HEAD_MM` above
    it), all tops in one read of the frame; the share is the largest share of the pawn's
    colour in any head-sized window whose centre is at least a base's radius in from the
    top's edges (what shows nearer the edges is a neighbour seen past the top, or its side).

    Args:
        views: the frame's :class:`~vision.readers.table_views.TableViews`.
        tops: the tops to look over.
        colours: pawn colours (palette class names).
    """
    out: list[dict[str, HeadScore]] = [{} for _t in tops]
    margin = int((PAWN_BASE_RADIUS_MM - HEAD_INSET_MM) / HEAD_STEP_MM)
    for k, hits in enumerate(head_hits(views, tops, colours)):
        n = hits.n
        m = min(n // 2, margin)
        for colour, hit in hits.by_colour.items():
            local = cv2.blur(hit.reshape(n, n), (HEAD_WINDOW, HEAD_WINDOW),
                             borderType=cv2.BORDER_CONSTANT)
            inner = local[m:n - m, m:n - m]
            i, j = np.unravel_index(int(np.argmax(inner)), inner.shape)
            at = hits.points[(int(i) + m) * n + int(j) + m]
            out[k][colour] = HeadScore(float(inner[i, j]), (float(at[0]), float(at[1])))
    return out


@dataclass(frozen=True)
class HeadHits:
    """Where a pawn's head of each colour shows over one top (:func:`head_hits`).

    Attributes:
        points: the samples (n*n, 3), table mm, in the plane of a pawn's head.
        n: samples per side.
        by_colour: per pawn colour, each sample's weight as part of its head (1 for its
            colour, or its hue where the top's own colour does not show).
        classes: each sample's palette class index.
    """

    points: np.ndarray
    n: int
    by_colour: dict[str, np.ndarray]
    classes: np.ndarray


def head_hits(views: TableViews, tops: Sequence[HeadTop], colours: Sequence[str]
              ) -> list[HeadHits]:
    """Each top's head samples (:func:`head_grid`), and which show each pawn colour."""
    grids = [head_grid(t.footprint, t.height) for t in tops]
    if not grids:
        return []
    bgr, ok, _px = views.sample(np.concatenate([g for g, _n in grids]))
    cls = views.classes_of(bgr, ok)
    palette = views.palette
    nearest = hue_nearest(bgr, palette)
    by_hue = ok & ~np.isin(cls, palette.of_kind("table"))
    out = []
    start = 0
    for top, (g, n) in zip(tops, grids, strict=True):
        sl = slice(start, start + len(g))
        start += len(g)
        # what the block's own top shows is its top, whatever its hue
        own = (cls[sl] == palette.index(top.colour)) | views.chroma_match(bgr[sl], top.colour)
        by_colour = {}
        for colour in colours:
            index = palette.index(colour)
            ours = cls[sl] == index
            by_colour[colour] = (
                ((ours | ((nearest[sl] == index) & by_hue[sl])) & ~own).astype(np.float32)
                + OWN_CHROMA_WEIGHT * (ours & own))
        out.append(HeadHits(g, n, by_colour, cls[sl]))
    return out


def find_pawns(views: TableViews, tops: Sequence[HeadTop], colours: Sequence[str] | None = None
               ) -> list[PawnFound]:
    """The pawns on ``tops``: at most one per colour, on the top that shows its head best.

    A colour whose head fills no window over any top to :data:`SETUP_SCORE` is not on the
    field. One pawn per top: the clearest heads choose first, each pawn the top with its
    highest share (a top the reading has covered only as :data:`COVERED_SCORE` says). When
    another top it could stand on (its head fills a window there to :data:`SETUP_SCORE`, no
    clearer head took it) shows at least ``1 /`` :data:`CLEAR_RATIO` of that, it is given as
    :attr:`PawnFound.rival` (the players should check).

    Args:
        views: the frame's :class:`~vision.readers.table_views.TableViews`.
        tops: every top seen, at its height (those read under another block marked
            :attr:`HeadTop.covered`).
        colours: pawn colours looked for; by default the palette's pawn classes.
    """
    palette = views.palette
    if colours is None:
        colours = [c.name for c in palette.classes if c.kind == "pawn"]
    scores = head_scores(views, tops, colours)
    # one pawn per top: the clearest heads choose first (a pawn's shaded flank can point to
    # another pawn colour's hue over the same top)
    ranked = []
    for c in colours:
        free = max((scores[k][c].share for k in range(len(tops)) if not tops[k].covered),
                   default=0.0)
        for k, top in enumerate(tops):
            share = scores[k][c].share
            if share >= SETUP_SCORE and (not top.covered or (
                    share >= COVERED_SCORE and share >= CLEAR_RATIO * free)):
                ranked.append((share, c, k))
    ranked.sort(key=lambda t: -t[0])
    taken: set[int] = set()
    found: list[PawnFound] = []
    done: set[str] = set()
    for share, colour, k in ranked:
        if colour in done or k in taken:
            continue
        done.add(colour)
        taken.add(k)
        # the runner-up among the tops it could stand on (not one a clearer head took)
        rival = next((j for _s, c, j in ranked if c == colour and j != k and j not in taken),
                     None)
        if rival is not None and scores[rival][colour].share * CLEAR_RATIO <= share:
            rival = None
        found.append(PawnFound(colour, scores[k][colour].at, k, share, rival))
    return found


def pawns_on_blocks(views: TableViews, blocks: Sequence[ReadBlock]) -> list[PawnFound]:
    """The pawns on a set-up reading's blocks, by colour.

    :attr:`PawnFound.top` and :attr:`~PawnFound.rival` index ``blocks``. Every block whose
    top (or part of it) was seen is a hypothesis, at its level's height; one that another
    block was read resting on is marked covered (:data:`COVERED_SCORE`).
    """
    covered = {j for b in blocks for j in b.rests_on}
    idx = [i for i, b in enumerate(blocks) if b.seen in ("top", "part")]
    h1 = views.layout.block_height_mm
    tops = [HeadTop(np.asarray(blocks[i].outline, np.float64), blocks[i].level * h1,
                    blocks[i].colour, i in covered) for i in idx]
    found = [PawnFound(p.colour, p.centre, idx[p.top], p.share,
                       None if p.rival is None else idx[p.rival])
             for p in find_pawns(views, tops)]
    return sorted(found, key=lambda p: p.colour)


def unsure_notes(found: Sequence[PawnFound], blocks: Sequence[ReadBlock]
                 ) -> list[ReadingNote]:
    """A note for each pawn whose head showed almost as well over another top."""
    notes = []
    for p in found:
        if p.rival is not None:
            a, b = blocks[p.top], blocks[p.rival]
            notes.append(pawn_unsure_note(p.colour, a.centre, a.level, a.colour, b.centre,
                                          b.colour))
    return notes
