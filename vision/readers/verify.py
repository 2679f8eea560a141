"""Checking the field during play: is each expected block still there, where is each pawn.

The engine knows which blocks exist and where (footprints in table mm, stacking). For each
one the camera model predicts where its top face must appear (at its elevation plus its
height) and the view of that plane is sampled inside it:

- ``seen``: the top shows the block's colour (inside, and along the edges facing away from
  the camera's nadir, which a lower block of the same colour would not fill), or a pawn's
  head stands clearly over it, or it looks as it did in the reference view (the last one
  that showed every expected block);
- ``gone``: it shows something else, and nothing was in the way;
- ``hidden``: a tower (another block between it and the camera), a hand, or too little of it
  in view: unknown, never gone;
- ``covered``: another present block rests on it, so its top cannot be seen (it cannot be
  removed by the rules either).

A removal is read only when exactly one expected block is gone and every other one is seen
or covered. Pawns the same way: the engine's legal moves are the hypotheses (a covered block
is none), and the image chooses the block over whose top the pawn's head shows, looked for
where the camera model puts a head standing there (its colour, or its colour's hue in shade),
or says it cannot.

Example:
    >>> from vision.devtools.render_boxes import BoxScene, render_boxes
    >>> from vision.pose import table_pose
    >>> scene = BoxScene.random(seed=4)
    >>> gone = scene.blocks[0].id
    >>> frame = render_boxes(scene.without(gone)).image
    >>> check = check_blocks(frame, table_pose(frame, scene.pose.intrinsics), scene.field())
    >>> check.removal == gone
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from companion.games.infinifield import Block, Field
from vision.geometry import inset, quad_grid
from vision.palette import Palette, default_palette
from vision.pose import TablePose
from vision.readers.field3d import silhouettes
from vision.readers.hands3d import HAND_PX_PER_MM, hand_mask
from vision.readers.levels3d import prism_hits
from vision.readers.pawns3d import PAWN_SCORE, HeadTop, head_scores
from vision.readers.table_views import TableViews

SEEN_SHARE = 0.5
"""At least this share of a top's visible samples in its colour: the block is there."""

GONE_SHARE = 0.15
"""At most this share: the block is gone (if enough of its top was in view)."""

MIN_VISIBLE = 0.4
"""Under this share of a top's samples in view (towers, hands, frame edge): hidden."""

MIN_TELLING = 0.2
"""A top judged on the samples that can tell it from the block of its colour under or beside
it (a fifth of the top: ten samples, 6 mm apart) needs at least this share of them."""


@dataclass(frozen=True)
class BlockCheck:
    """What the camera says about one expected block.

    Attributes:
        id: the engine's block id.
        status: ``seen``, ``gone``, ``hidden`` or ``covered``.
        share: share of the visible samples of its top in its colour.
        visible: share of its top's samples in view (not behind a tower or a hand).
    """

    id: str
    status: str
    share: float = 0.0
    visible: float = 1.0


@dataclass(frozen=True)
class PawnCheck:
    """Where the camera puts one pawn among the hypotheses.

    Attributes:
        colour: the pawn's colour.
        block: the block it is on, or ``None`` when the image cannot tell.
        shares: each hypothesis block and the share of its top in the pawn's colour.
    """

    colour: str
    block: str | None
    shares: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayCheck:
    """One frame checked against the engine's field.

    Attributes:
        blocks: ``{block id: BlockCheck}`` for every block still expected.
        hands_in_view: a hand or an arm is over the table.
    """

    blocks: Mapping[str, BlockCheck]
    hands_in_view: bool

    @property
    def gone(self) -> list[str]:
        """The blocks seen to be gone."""
        return [b for b, c in self.blocks.items() if c.status == "gone"]

    @property
    def removal(self) -> str | None:
        """The one block taken away, or ``None``.

        Only when exactly one is gone, every other one is seen (or covered by one that is)
        and no hand is in view.
        """
        if self.hands_in_view:
            return None
        gone = self.gone
        if len(gone) != 1:
            return None
        if any(c.status == "hidden" for c in self.blocks.values()):
            return None
        return gone[0]


def _top_height(fld: Field, block: Block) -> float:
    return float(fld.elevation[block.id]) + block.height


@lru_cache(maxsize=4096)
def _inner_grid(poly: tuple[tuple[float, ...], ...]) -> np.ndarray:
    """The samples inside a footprint's top, 5 mm in from its edges."""
    return quad_grid(inset(np.asarray(poly, np.float64), 5.0))


def _outer_band(poly: np.ndarray, nadir: np.ndarray, depth: float = 4.0) -> np.ndarray:
    """Points 2-``depth`` mm inside the edges that face away from the nadir."""
    return _outer_band_cached(tuple(map(tuple, np.asarray(poly, np.float64).tolist())),
                              (round(float(nadir[0])), round(float(nadir[1]))), depth)


@lru_cache(maxsize=4096)
def _outer_band_cached(poly_t: tuple[tuple[float, ...], ...], nadir_t: tuple[int, int],
                       depth: float) -> np.ndarray:
    poly = np.asarray(poly_t)
    nadir = np.asarray(nadir_t, np.float64)
    centre = poly.mean(axis=0)
    pts = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        mid = (a + b) / 2
        out = mid - centre
        out /= max(float(np.linalg.norm(out)), 1e-9)
        if out @ (mid - nadir) <= 0:
            continue
        for s in np.linspace(0.2, 0.8, 7):
            for dd in (2.0, depth):
                pts.append(a + (b - a) * s - out * dd)
    return np.array(pts).reshape(-1, 2)


def _hand_mask(views: TableViews, height: float, expected: Sequence[tuple[Block, float]],
               pose: TablePose) -> tuple[np.ndarray, bool]:
    """A hand over the table in the view at ``height``, outside the expected blocks' boxes.

    See :func:`~vision.readers.hands3d.hand_mask`.
    """
    from vision.readers.field3d import SeenBlock3D

    layout = views.layout
    ppm = views.px_per_mm
    key = (ppm, height, tuple((tuple(map(tuple, np.asarray(b.footprint, float).tolist())), top)
                              for b, top in expected))
    cache = pose.derived
    boxes = cache.get(("boxes", key))
    if not isinstance(boxes, np.ndarray):
        # the same field under the same camera frame after frame: drawn once
        boxes = silhouettes(pose, [
            SeenBlock3D(b.colour, (0.0, 0.0), 0.0, max(1, round(top / layout.block_height_mm)),
                        np.asarray(b.footprint, float)) for b, top in expected], ppm, height)
        if len(cache) > 32:
            cache.clear()
        cache[("boxes", key)] = boxes
    return hand_mask(views, height, boxes)


NEAR_MM = 70.0
"""Only blocks whose centres are this close can meet the rays under a missing top."""


def _off_path(other: np.ndarray, here: np.ndarray, nadir: np.ndarray) -> bool:
    """Whether a block centred at ``other`` is too far off a top's line of sight to block it.

    The line of sight of a top at ``here`` runs toward the camera's nadir.
    """
    seg = nadir - here
    t = float(np.clip((other - here) @ seg / max(float(seg @ seg), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(other - (here + t * seg))) > NEAR_MM


def _same_colour_below(block: Block, pts3: np.ndarray, cam: np.ndarray,
                       tops: Sequence[tuple[Block, float]], centres: Mapping[str, np.ndarray]
                       ) -> np.ndarray:
    """Samples of ``block``'s top whose rays, were the top gone, meet a same-coloured block.

    A red top resting half on a red block shows red over that half when it is taken away
    (the lower top, or its side, is where the ray lands): those samples cannot tell
    whether it is there.
    """
    hits = np.zeros(len(pts3), bool)
    here = centres[block.id]
    near = [(o, t) for o, t in tops if o.id != block.id and o.colour == block.colour
            and float(np.linalg.norm(centres[o.id] - here)) < NEAR_MM]
    if not near:
        return hits
    beyond = pts3 + (pts3 - cam[None, :]) * (pts3[:, 2:3] / (cam[2] - pts3[:, 2:3]))
    for other, otop in near:
        fp = np.asarray(other.footprint, np.float64)
        hits |= prism_hits(pts3, beyond, fp, otop - other.height, otop)
    return hits


MIN_FEW = 0.1
"""A top whose colour lies under it, its sides out of sight, is gone when at least this share
of its samples can tell (five, a strip 6 mm wide) and next to none of them show its colour."""

SIDE_MIN = 8
"""Side-face samples a block needs in view (not behind another block, nor over one of its
colour) before its sides say anything."""

SIDE_GONE = 0.2
"""A block whose top cannot tell (its colour under it) is gone when its side faces in view
show its colour (or its hue in shade) for at most this share of their samples."""


SIDE_PX = 6.0
"""A side face is looked at only where the camera sees it at least this many pixels tall: a
face seen edge-on is a sliver the blur mixes with what lies beside it."""


def _side_points(poly: np.ndarray, bottom: float, top: float, cam: np.ndarray,
                 pose: TablePose) -> np.ndarray:
    """Points (N, 3) on the side faces of a block the camera faces (those toward its nadir).

    Five along each face, away from the bevelled corners, at a quarter, half and three
    quarters of its height; faces the camera sees under :data:`SIDE_PX` tall left out.
    """
    centre = poly.mean(axis=0)
    pts = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        mid = (a + b) / 2
        if (mid - centre) @ (cam[:2] - mid) <= 0:
            continue                      # a face turned away from the camera
        ends = pose.project([[mid[0], mid[1], bottom], [mid[0], mid[1], top]])
        if float(np.linalg.norm(ends[1] - ends[0])) < SIDE_PX:
            continue
        for t in np.linspace(0.2, 0.8, 5):
            for f in (0.25, 0.5, 0.75):
                x, y = a + (b - a) * t
                pts.append((x, y, bottom + (top - bottom) * f))
    return np.array(pts, np.float64).reshape(-1, 3)


def _side_share(views: TableViews, block: Block, top: float, cam: np.ndarray,
                tops: Sequence[tuple[Block, float]], centres: Mapping[str, np.ndarray]
                ) -> float | None:
    """Share of the samples on the side faces of ``block`` the camera sees in its colour.

    ``None`` when fewer than :data:`SIDE_MIN` can tell: behind another block, or whose rays
    would go on (the block gone) into a block of its colour, or of a pawn colour. A sample
    the palette calls table counts only by its class (a mat in the shade of red blocks has
    a red hue). A block taken away takes its sides with it: where it stood on a white block,
    the rays through its sides land on that block's white top.
    """
    poly = np.asarray(block.footprint, np.float64)
    pts = _side_points(poly, top - block.height, top, cam, views.pose)
    if len(pts) < SIDE_MIN:
        return None
    usable = np.ones(len(pts), bool)
    beyond = pts + (pts - cam[None, :]) * (pts[:, 2:3] / (cam[2] - pts[:, 2:3]))
    here = centres[block.id]
    for other, otop in tops:
        if other.id == block.id or float(np.linalg.norm(centres[other.id] - here)) > 2 * NEAR_MM:
            continue
        fp = np.asarray(other.footprint, np.float64)
        usable &= ~prism_hits(pts, cam, fp, otop - other.height, otop)
        if other.colour == block.colour:
            usable &= ~prism_hits(pts, beyond, fp, otop - other.height, otop)
    bgr, ok, _px = views.sample(pts)
    cls = views.classes_of(bgr, ok)
    usable &= ok & ~np.isin(cls, views.palette.of_kind("pawn"))
    n = int(np.count_nonzero(usable))
    if n < SIDE_MIN:
        return None
    on_table = np.isin(cls, views.palette.of_kind("table"))
    got = ((cls == views.palette.index(block.colour))
           | (views.chroma_match(bgr, block.colour) & ~on_table))
    return int(np.count_nonzero(got & usable)) / n


def _judge(got: np.ndarray, usable: np.ndarray, n_in: int, min_visible: float = MIN_VISIBLE
           ) -> tuple[str, float, float, float]:
    """``(status, share inside, share of the outer band, visible share)`` of one top.

    Hidden when less than ``min_visible`` of its inner samples are usable.
    """
    use_in = usable[:n_in]
    n_use = int(np.count_nonzero(use_in))
    visible = n_use / max(n_in, 1)
    if visible < min_visible:
        return "hidden", 0.0, 0.0, visible
    share_in = int(np.count_nonzero(got[:n_in] & use_in)) / n_use
    band_use = usable[n_in:]
    n_band = int(np.count_nonzero(band_use))
    share_band = (int(np.count_nonzero(got[n_in:] & band_use)) / n_band if n_band >= 5
                  else share_in)
    if share_in >= SEEN_SHARE and share_band >= 0.6 * SEEN_SHARE:
        return "seen", share_in, share_band, visible
    if share_in <= GONE_SHARE or (share_band <= GONE_SHARE and share_in < 0.35):
        return "gone", share_in, share_band, visible
    return "hidden", share_in, share_band, visible


REF_SAME = 28.0
"""Largest change of a balanced channel (0-255) between a sample and the same table point in
the reference view for the two to look the same (sensor noise and JPEG stay well under)."""

REF_SHARE = 0.7
"""A top whose usable samples look the same as in the reference for at least this share is
still there (a pawn that stepped off it changes a fifth at most)."""


def check_blocks(frame: np.ndarray, pose: TablePose, fld: Field, removed: Sequence[str] = (),
                 palette: Palette | None = None, views: TableViews | None = None,
                 reference: TableViews | None = None,
                 pawns: Mapping[str, str | None] | None = None) -> PlayCheck:
    """Check every expected block of ``fld`` (those not in ``removed``) in one frame.

    Args:
        frame: the BGR frame.
        pose: the camera.
        fld: the engine's field (footprints in table mm).
        removed: blocks already taken away.
        palette: colour classes learnt at set-up.
        views: views of this frame already made.
        reference: views of an earlier still frame of the same table in which every block
            of ``fld`` not in ``removed`` was there (the last view that confirmed the
            engine's state). A top that its colour alone does not show (a white top in a
            tower's shadow looks like the mat; glare washes a blue top to lavender) is
            still there when it looks as it did then, table point by table point through
            each frame's own camera and white balance. It never makes a block gone.
        pawns: where the engine has each pawn (colour -> block id, or ``None`` for a pawn
            not on the field yet, which may appear on any block). A pawn's head shows a top
            is there (a pawn does not float) only for a pawn that stands on that block or
            on one it touches (one move away); through a removed top's hole the shaded red
            side of a neighbour can look like an orange head. A colour not listed is not on
            the table. ``None``: nothing is known, any pawn colour counts anywhere.
    """
    palette = palette or default_palette()
    views = views or TableViews(frame, pose, palette)
    coarse = TableViews(frame, pose, palette, HAND_PX_PER_MM)
    gone_ids = set(removed)
    present = [b for b in fld.blocks if b.id not in gone_ids and b.footprint]
    covered = {s for b in present for s in b.rests_on}
    tops = [(b, _top_height(fld, b)) for b in present]
    cam = pose.camera_position()
    nadir = cam[:2]
    ppm = coarse.px_per_mm
    hand, hands = _hand_mask(coarse, pose.layout.block_height_mm, tops, pose)
    h1 = pose.layout.block_height_mm
    hand_hom = np.linalg.inv(pose.plane_homography(h1))
    out: dict[str, BlockCheck] = {}
    todo: list[tuple[Block, float, np.ndarray, int]] = []
    for block, top in tops:
        if block.id in covered:
            out[block.id] = BlockCheck(block.id, "covered")
            continue
        poly = np.asarray(block.footprint, np.float64)
        inner = _inner_grid(tuple(map(tuple, poly.tolist())))
        band = _outer_band(poly, nadir)
        pts2 = np.concatenate([inner, band]) if len(band) else inner
        todo.append((block, top, np.column_stack([pts2, np.full(len(pts2), top)]), len(inner)))
    if not todo:
        return PlayCheck(out, hands)
    # every block's samples at once: one projection, one read of the frame
    every = np.concatenate([t[2] for t in todo])
    bgr_all, in_frame, raw = views.sample(every)
    same_as_ref = np.zeros(len(every), bool)
    if reference is not None:
        ref_bgr, ref_in, _ref_px = reference.sample(every)
        same_as_ref = (ref_in & in_frame
                       & (np.abs(bgr_all - ref_bgr).max(axis=1) <= REF_SAME))
    seen_all = views.classes_of(bgr_all, in_frame)
    ideal = pose.project(every, distort=False)
    at_h1 = cv2.perspectiveTransform(ideal.reshape(-1, 1, 2), hand_hom).reshape(-1, 2) * ppm
    hx = np.clip(at_h1[:, 0].astype(int), 0, hand.shape[1] - 1)
    hy = np.clip(at_h1[:, 1].astype(int), 0, hand.shape[0] - 1)
    under_hand = hand[hy, hx] > 0
    fh, fw = frame.shape[:2]
    off_frame = ((raw[:, 0] < 0) | (raw[:, 1] < 0) | (raw[:, 0] >= fw - 1)
                 | (raw[:, 1] >= fh - 1))
    pawn_kinds = palette.of_kind("pawn")
    table_kinds = palette.of_kind("table")
    centres = {b.id: np.mean(np.asarray(b.footprint, np.float64), axis=0) for b, _t in tops}
    on_pawn = np.isin(seen_all, pawn_kinds)
    on_table = np.isin(seen_all, table_kinds)
    # each colour's chromaticity test once over every sample
    hue = {c: views.chroma_match(bgr_all, c) & ~on_table
           for c in {b.colour for b, _t, _p, _n in todo}}
    # which samples a tower hides, and which would show a block of the top's colour were
    # the top gone, depend on the camera and the field alone: kept with the camera while
    # the field stays the same
    tower_key = ("towers", tuple((b.id, t, tuple(map(tuple, np.asarray(b.footprint).tolist())))
                                 for b, t in tops))
    cached = pose.derived.get(tower_key)
    towers, below = cached if isinstance(cached, tuple) else (None, None)
    if (not isinstance(towers, np.ndarray) or not isinstance(below, np.ndarray)
            or len(towers) != len(every)):
        towers = np.zeros(len(every), bool)
        below = np.zeros(len(every), bool)
        start = 0
        for block, top, pts3, _n in todo:
            sl = slice(start, start + len(pts3))
            start += len(pts3)
            here = centres[block.id]
            below[sl] = _same_colour_below(block, pts3, cam, tops, centres)
            for other, otop in tops:
                if other.id == block.id or otop <= top + 1e-6:
                    continue        # only a higher block can stand between it and the camera
                if _off_path(centres[other.id], here, nadir):
                    continue
                fp = np.asarray(other.footprint, np.float64)
                towers[sl] |= prism_hits(pts3, cam, fp, otop - other.height, otop)
        if len(pose.derived) > 32:
            pose.derived.clear()
        pose.derived[tower_key] = (towers, below)
    start = 0
    for block, top_h, pts3, n_in in todo:
        sl = slice(start, start + len(pts3))
        start += len(pts3)
        blocked = under_hand[sl] | off_frame[sl] | towers[sl]
        here = centres[block.id]
        seen = seen_all[sl]
        # its colour, or its colour's chromaticity in shade (hard shadows, dim corners)
        got = (seen == palette.index(block.colour)) | hue[block.colour][sl]
        usable = ~blocked & ~on_pawn[sl]
        status, share_in, share_band, visible = _judge(got, usable, n_in)
        if visible >= MIN_VISIBLE:
            # where the top is gone, its samples' rays go on down to the table; one that
            # meets a block of the same colour on the way (the one it rests on, a
            # neighbour) would see that colour anyway: only the others tell
            telling = usable & ~below[sl]
            if status != "seen" or np.count_nonzero(telling[:n_in]) >= MIN_TELLING * n_in:
                usable = telling
                status, share_in, share_band, visible = _judge(got, usable, n_in,
                                                               MIN_TELLING)
            else:
                # nearly all of its top would show its colour without it (a yellow top
                # raised on a yellow block, seen from the side): its sides in view tell
                usable = telling
                sides = _side_share(views, block, top_h, cam, tops, centres)
                n_tell = int(np.count_nonzero(telling[:n_in]))
                if sides is not None:
                    if sides <= SIDE_GONE:
                        status, share_in, share_band = "gone", sides, sides
                elif n_tell >= MIN_FEW * n_in:
                    # sides seen edge-on (near the nadir): the few samples that can tell
                    # decide, when they all but agree that its colour is not there
                    few = int(np.count_nonzero(got[:n_in] & telling[:n_in])) / n_tell
                    if few <= GONE_SHARE:
                        status, share_in, share_band = "gone", few, few
        share = min(share_in, share_band)
        if (status != "seen" and visible >= MIN_VISIBLE
                and _carries_pawn(views, fld, block, _pawns_near(fld, block.id, pawns,
                                                                 views.palette))):
            # a pawn's head stands over its top: the top is there (a pawn does not float)
            status = "seen"
        if status != "seen" and reference is not None:
            use_in = usable[:n_in]
            n_use = int(np.count_nonzero(use_in))
            if n_use >= MIN_VISIBLE * n_in:
                same = int(np.count_nonzero(same_as_ref[sl][:n_in] & use_in)) / n_use
                if same >= REF_SHARE:
                    status, share, visible = "seen", same, n_use / n_in
        out[block.id] = BlockCheck(block.id, status, share, visible)
    return PlayCheck(out, hands)


def pawn_shares(views: TableViews, fld: Field, block_ids: Sequence[str], colour: str
                ) -> dict[str, float]:
    """For each of ``block_ids``, how much a pawn's head of ``colour`` shows over its top.

    The top is sampled every 2 mm in the plane of a pawn's head (:data:`PAWN_HEAD_MM` above
    it); the score is the largest share of the pawn's colour in any head-sized window: a
    small, far or dim head fills a window even where it is a tenth of the top.
    """
    return _head_scores(views, fld, block_ids, (colour,))[colour]


def _head_scores(views: TableViews, fld: Field, block_ids: Sequence[str],
                 colours: Sequence[str]) -> dict[str, dict[str, float]]:
    """:func:`pawn_shares` for several pawn colours at once (one read of the frame)."""
    tops = [HeadTop(np.asarray(fld.block(b).footprint, np.float64),
                    _top_height(fld, fld.block(b)), fld.block(b).colour) for b in block_ids]
    scores = head_scores(views, tops, colours)
    return {c: {b: s[c].share for b, s in zip(block_ids, scores, strict=True)}
            for c in colours}


def pawn_share(views: TableViews, fld: Field, block_id: str, colour: str) -> float:
    """How much a pawn's head of ``colour`` shows over ``block_id``'s top (0..1).

    See :func:`pawn_shares`.
    """
    return pawn_shares(views, fld, [block_id], colour)[block_id]


PAWN_CARRIED = 0.6
"""A head this clear (its window this full of a pawn colour) says a top is there: through a
removed top's hole a neighbour's red or yellow side, or a pawn's on a block beside it, fills
a window a fifth to two fifths."""


def _pawns_near(fld: Field, block_id: str, pawns: Mapping[str, str | None] | None,
                palette: Palette) -> list[str]:
    """The pawn colours that may stand on ``block_id`` now (see :func:`check_blocks`)."""
    every = [c.name for c in palette.classes if c.kind == "pawn"]
    if pawns is None:
        return every
    known = set(fld.graph.ids)
    out = []
    for colour in every:
        if colour not in pawns:
            continue
        at = pawns[colour]
        if at is None or at == block_id or (at in known and block_id in fld.neighbours(at)):
            out.append(colour)
    return out


def _carries_pawn(views: TableViews, fld: Field, block: Block, colours: Sequence[str]
                  ) -> bool:
    """Whether a pawn's head of one of ``colours`` shows where it would over ``block``'s top.

    A top the colour check cannot see (a white top in a tower's shadow with a pawn on it)
    is there when a pawn stands on it.
    """
    if not colours:
        return False
    scores = _head_scores(views, fld, [block.id], colours)
    return any(scores[c][block.id] >= PAWN_CARRIED for c in colours)


def locate_pawn(views: TableViews, fld: Field, colour: str, hypotheses: Sequence[str],
                removed: Sequence[str] = ()) -> PawnCheck:
    """Which of the hypothesis blocks the pawn of ``colour`` stands on.

    A block that another one still present rests on cannot carry a pawn (its top is
    covered), so it is no hypothesis; the head of a pawn on the block above it would show
    over it at its own, lower head height. Each other hypothesis is looked at where the
    pawn's head must appear over its top (:func:`pawn_shares`); the block that shows the
    most of the pawn's colour wins when it shows at least :data:`PAWN_SCORE` and clearly
    more (2.5 times) than the runner-up; else ``None``.

    Args:
        views: the frame's views.
        fld: the engine's field.
        colour: the pawn's colour.
        hypotheses: the blocks it may stand on (the engine's legal moves and where it was).
        removed: blocks already taken away (they cover nothing).
    """
    gone = set(removed)
    covered = {s for b in fld.blocks if b.id not in gone for s in b.rests_on}
    shares = pawn_shares(views, fld, [b for b in dict.fromkeys(hypotheses)
                                      if b not in covered and b not in gone], colour)
    ranked = sorted(shares.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] < PAWN_SCORE:
        return PawnCheck(colour, None, shares)
    if len(ranked) > 1 and ranked[1][1] * 2.5 > ranked[0][1]:
        return PawnCheck(colour, None, shares)
    return PawnCheck(colour, ranked[0][0], shares)
