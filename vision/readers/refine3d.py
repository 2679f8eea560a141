"""Correcting a set-up reading by analysis by synthesis: local changes the frame prefers.

The reading's blocks are rendered as the camera sees them and scored against the frame
(:mod:`vision.readers.synth3d`). A top seen at some pixels stands at level 1 or, on one
block (a tower) or two (a bridge, centred over where they meet), at level 2: the same
pixels put its footprint nearer the camera's nadir the higher it is. Each first-level top
is tried as a bridge on two blocks along either of its axes (a block read where one
stands is that one; blocks in their way are dropped, a read top only when a support of its
colour takes its place), the supports in the colours their pixels prefer (their side
faces, the parts of their tops beside it) or assumed where nothing of them shows.
Each first-level top is also tried as the support of a bridge of its own colour beside it
(the two show as one region, read as that top alone), the bridge credited only with what
it explains beyond the block added beside the top.
A change is kept only when it raises the score by a clear margin (:data:`LEVEL_MARGIN`;
pixels are not independent, and blocks the reading missed nearby lend any change that puts
a block there some pixels) and the field stays as physical as it was (:func:`_faults`:
blocks are solid, a second-level top rests on first-level blocks).

Lowering a top, towers, other supports for a second-level top and other colours for the
blocks under tops are there too, off by default: on the tune scenes they cost more than
they fixed (see :data:`LEVEL_MARGIN`, :data:`RESUPPORT`, :func:`refine_reading`), except
for a second-level top read on blocks that cannot carry it (two on adjacent sides of it, a
strip of a neighbour's top taken for its second block): it is tried on bridges along its
axes, where read and half a block off (over a support of its colour, the two read as one
region), nudged a few millimetres, the strips read under it put back beside the new
supports (:meth:`_Search.stands`, :meth:`_Search.pushed_out`, :data:`RESUPPORT_MARGIN`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.geometry import square
from vision.pose import TablePose
from vision.readers.hidden_colours import likeliest_colour
from vision.readers.notes import hidden_block_note
from vision.readers.synth3d import TABLE, Box, FrameEvidence
from vision.readers.table_views import TableViews

if TYPE_CHECKING:
    from vision.readers.field3d import SeenBlock3D

MARGIN = 12.0
"""A change of colour or a block dropped is kept when the frame's log-likelihood rises by
this much: about a dozen pixels' worth of a colour seen where it was not predicted."""

LEVEL_MARGIN = {"lower": math.inf, "tower": math.inf, "bridge": 500.0}
"""What a change of a top's level must gain (log-likelihood), by the kind of change. On
the tune scenes a bridge put on its two blocks gains 300-4700 over it read a level low
with nothing under it, but a top of the first level raised onto blocks gains up to a few
hundred where the reading around it is wrong (a neighbour missed, a top misplaced): that
change is taken from 500 up. A tower (one block under) or a top a level lower changes
only the pixels of one column's side faces and gains as much either way (the gap between
two touching blocks, a neighbour's blurred edge): never taken."""

RESUPPORT = False
"""Whether a second-level top as read is tried on other supports (a tower for a bridge...).
Off: the blocks the pipeline reads under a top (tops beside it, parts of them, side faces)
beat the rendered score there, which other blocks the reading missed nearby can sway (on
the tune scenes a hidden block under a tower was replaced by two that explained a missed
neighbour's pixels)."""

SUPPORT_OVERLAP_MM2 = 200.0
"""A first-level block whose footprint shares this much (mm²) with a top's carries it."""

RESUPPORT_MARGIN = 100.0
"""What other supports for a second-level top must gain when those read cannot carry it
(see :meth:`_Search.stands`): the top stays at its level, only the blocks under it change
(their side faces, a strip of a top), so less than a change of level needs, but more than
a colour (:data:`MARGIN`): the top is moved too (:data:`NUDGE_MM`)."""

NUDGE_MM = 4.0
"""How far (mm) along its axes a second-level top is moved when tried on other supports:
a top read from a region that a neighbour's strip of its colour widens is placed a few
millimetres off, and blocks put under it exactly half a block off then overlap the
neighbours beside them (a tune bridge gained 6 where read, 520 moved 4 mm)."""

NUDGES = ((0.0, 0.0), (1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))
"""The moves tried along the top's two axes, in :data:`NUDGE_MM`: one axis at a time (the
diagonal ones cost as much again and gained nothing more on the tune scenes' bridges)."""

STANDS_MM = 12.0
"""A support read this far (mm) from where a tower's or a bridge's block stands is that
block (tops are placed to a few millimetres, parts of tops beside a bridge to ten)."""

SOLID_MM = 4.0
"""Two blocks at one level overlapping deeper than this (mm) cannot both be there."""

BESIDE_ACROSS_MM = 6.0
"""A bridge over a top and its neighbour stands up to this far (mm) to either side of the
top's axis: bridges are laid by hand across a joint, and the top, read from the region its
strip shares with the bridge, is placed to a few millimetres."""

BESIDE_SHIFTS = (0.0, -1.0, 1.0)
"""Where across the axis a bridge beside a top is tried, in :data:`BESIDE_ACROSS_MM`."""

BESIDE_TOP_SHARE = 0.5
"""A bridge beside a top is tried only where its top's colour fills this share of where its
top would show (the view of the second level's plane): the tune bridges show 80-100 % of
their top, a pawn standing on one hides a fifth of it."""

REUSE_MM = 8.0
"""A block read within this distance (mm) of where a support should stand is that support."""

SEEN_PX = 12
"""A block under another that shows on at least this many pixels is seen (its sides)."""

NEAR_MM = 60.0
"""Blocks whose centres are further apart than this (mm) cannot overlap (a 40 mm square
reaches 28 mm from its centre)."""

MISSED_WIDTH = 0.5
"""A region no block explains is a missed top when it is this share of a top's side wide
everywhere (a side face or the part of a top beside a bridge is narrower)..."""

MISSED_AREA = 0.4
"""... and this share of a top's area."""

AGAIN_MM = 100.0
"""After a change, blocks this near (mm) to one it added are tried again: a change moves a
window's pixels from one block to another, and what they explain, two blocks away."""

ROI_PAD_PX = 12
"""Frame pixels round the reading's boxes where the evidence is gathered."""


def _box(block: SeenBlock3D, height: float) -> Box:
    return Box(np.asarray(block.outline, np.float64), height * (block.level - 1),
               height * block.level, block.colour)


def _shifted(block: SeenBlock3D, pose: TablePose, level: int) -> SeenBlock3D:
    """The same top at ``level``, seen at the same pixels.

    Each corner moves along its ray to that level's plane, so the outline shows exactly
    where the read one did (a top's size in pixels is too weak a cue of its level to let
    one ring of pixels round it decide: bevels and blur are as wide). The outline is put
    back to a block's size by :func:`_finish`.
    """
    h = pose.layout.block_height_mm
    pts = [[x, y, block.level * h] for x, y in np.asarray(block.outline, np.float64)]
    pts.append([block.centre[0], block.centre[1], block.level * h])
    moved = pose.to_plane(pose.project(pts), level * h)
    centre = (float(moved[4, 0]), float(moved[4, 1]))
    return dataclasses.replace(block, centre=centre, level=level, rests_on=(),
                               outline=moved[:4])


def _penetration(a: np.ndarray, b: np.ndarray) -> float:
    """How deep (mm) two convex quadrilateral footprints overlap (0 when apart).

    The least overlap of their projections on the normals of their sides (two per
    rectangle, as a footprint is).
    """
    if float(np.hypot(*(a.mean(axis=0) - b.mean(axis=0)))) >= NEAR_MM:
        return 0.0
    edges = np.array([a[1] - a[0], a[2] - a[1], b[1] - b[0], b[2] - b[1]])
    normals = np.column_stack([-edges[:, 1], edges[:, 0]])
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    pa, pb = a @ normals.T, b @ normals.T
    overlap = np.minimum(pa.max(axis=0), pb.max(axis=0)) - np.maximum(pa.min(axis=0),
                                                                      pb.min(axis=0))
    return max(0.0, float(overlap.min()))


def _area_px(quad: np.ndarray) -> float:
    """The area in pixels of a polygon given by its corners in the frame."""
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * abs(float(x @ np.roll(y, 1) - y @ np.roll(x, 1)))


def _overlap_mm2(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area)


class _Search:
    """The reading being refined, its evidence, and the moves tried on it."""

    def __init__(self, views: TableViews, blocks: Sequence[SeenBlock3D]) -> None:
        self.views = views
        self.pose = views.pose
        self.layout = views.layout
        self.height = self.layout.block_height_mm
        self.blocks = list(blocks)
        self.original = list(blocks)
        self._faults_of: tuple[tuple[int, ...], int] = ((), 0)
        self._slack_of: tuple[tuple[int, ...], np.ndarray] = ((), np.zeros((1, 1)))
        boxes = [_box(b, self.height) for b in self.blocks]
        corners = np.array([[x, y, z] for b in boxes for x, y in b.outline
                            for z in (b.bottom, b.top + self.height)])
        px = self.pose.project(corners)
        lo = np.floor(px.min(axis=0)).astype(int) - ROI_PAD_PX
        hi = np.ceil(px.max(axis=0)).astype(int) + ROI_PAD_PX
        self.evidence = FrameEvidence(views, (int(lo[0]), int(lo[1]), int(hi[0]), int(hi[1])))
        self.forget_missed_tops(boxes)

    def forget_missed_tops(self, boxes: list[Box]) -> None:
        """Leave the reading's missed tops out of the score.

        A block-coloured region no block of the reading explains, too wide to be a side
        face or a part of a top beside another, is a top the reading missed: left in,
        any change that put a block near it would gain by it.
        """
        ev = self.evidence
        rows, cols = slice(0, ev.shape[0]), slice(0, ev.shape[1])
        labels = ev.render(boxes, rows, cols)
        orphan = ((labels == TABLE) & (ev.symbols < len(ev.names))).astype(np.uint8)
        tops = [b for b in self.blocks if b.seen == "top"]
        if not tops or not orphan.any():
            return
        side_px = float(np.median([math.sqrt(max(_area_px(self.pose.project(
            [[x, y, b.level * self.height] for x, y in b.outline])), 1.0)) for b in tops]))
        k = max(3, round(MISSED_WIDTH * side_px))
        # specks of other classes in a top (noise, a shaded corner) do not split it
        orphan = cv2.morphologyEx(orphan, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        wide = cv2.morphologyEx(orphan, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        n, comp, stats, _ = cv2.connectedComponentsWithStats(wide)
        big = np.zeros_like(wide)
        for c in range(1, n):
            if stats[c, cv2.CC_STAT_AREA] >= MISSED_AREA * side_px ** 2:
                big[comp == c] = 1
        if big.any():
            grown = cv2.dilate(big, np.ones((k, k), np.uint8)) > 0
            ev.forget(grown & (orphan > 0))

    def faults(self) -> int:
        """:func:`_faults` of the current blocks (kept while they stay the same)."""
        key = tuple(id(b) for b in self.blocks)
        if self._faults_of[0] != key:
            self._faults_of = (key, _faults(self.blocks))
        return self._faults_of[1]

    def boxes(self, blocks: Sequence[SeenBlock3D]) -> list[Box]:
        return [_box(b, self.height) for b in blocks]

    def gain(self, new: list[SeenBlock3D], changed: Sequence[SeenBlock3D]) -> float:
        """How much the score rises from the current blocks to ``new``.

        ``changed``: the blocks either has that the other lacks (they bound the window).
        """
        ev = self.evidence
        rows, cols = ev.window(self.boxes(changed))
        return ev.score(self.boxes(new), rows, cols) - ev.score(self.boxes(self.blocks),
                                                                  rows, cols)

    def best_colours(self, blocks: list[SeenBlock3D], which: Sequence[int]
                     ) -> list[SeenBlock3D]:
        """``blocks`` with those at ``which`` in the colours their pixels prefer."""
        ev = self.evidence
        boxes = self.boxes(blocks)
        rows, cols = ev.window([boxes[i] for i in which])
        labels = ev.render(boxes, rows, cols)
        out = list(blocks)
        for i in which:
            scores = ev.colour_scores(labels, i, rows, cols)
            out[i] = dataclasses.replace(out[i], colour=ev.names[int(np.argmax(scores))])
        return out

    def supports_for(self, top: SeenBlock3D, rest: list[SeenBlock3D], kind: str
                     ) -> tuple[list[SeenBlock3D], list[SeenBlock3D]] | None:
        """Blocks under a second-level ``top``: a tower or a bridge along one of its axes.

        Returns the blocks of ``rest`` kept (those in the way dropped) with the supports
        added, and the dropped ones; ``None`` when the top itself would overlap a block at
        its level.
        """
        size = self.layout.block_mm
        c = np.asarray(top.centre, np.float64)
        t = math.radians(top.angle)
        axis = {"tower": np.zeros(2), "bridge-u": np.array([math.cos(t), math.sin(t)]),
                "bridge-v": np.array([-math.sin(t), math.cos(t)])}[kind]
        places = [c] if kind == "tower" else [c - axis * size / 2, c + axis * size / 2]
        if any(b.level == top.level and _penetration(b.outline, top.outline) > SOLID_MM
               for b in rest):
            return None
        kept = list(rest)
        added: list[SeenBlock3D] = []
        for p in places:
            reuse = [b for b in kept if b.level == top.level - 1
                     and math.hypot(b.centre[0] - p[0], b.centre[1] - p[1]) < REUSE_MM]
            if reuse:
                continue
            xy = (float(p[0]), float(p[1]))
            added.append(dataclasses.replace(
                top, centre=xy, level=top.level - 1, rests_on=(), seen="side",
                outline=square(xy, size, top.angle), size_mm=size))
        dropped = [b for b in kept if b.level == top.level - 1 and any(
            _penetration(b.outline, a.outline) > SOLID_MM for a in added)]
        kept = [b for b in kept if all(b is not d for d in dropped)]
        # what was dropped must not leave a top above it without support
        return [*kept, *added], dropped

    def try_change(self, new: list[SeenBlock3D], fresh: Sequence[int]) -> bool:
        """Take ``new`` (colours of its blocks at ``fresh`` chosen) when it scores clearly."""
        gain, new = self.assess(new, fresh)
        if gain > MARGIN:
            self.blocks = new
            return True
        return False

    def assess(self, new: list[SeenBlock3D], fresh: Sequence[int], need: float = -math.inf,
               dropped: Sequence[SeenBlock3D] = ()) -> tuple[float, list[SeenBlock3D]]:
        """How much ``new`` (its blocks at ``fresh`` in the colours they prefer) gains.

        ``-inf`` when it is less physical than the reading (:func:`_faults`), when no
        reading could gain ``need`` in the window it changes (:meth:`slack`), or when the
        blocks at ``fresh`` drop a read top they do not replace (:func:`_replaces`).
        """
        old_ids = {id(b) for b in self.blocks}
        new_ids = {id(b) for b in new}
        changed = ([b for b in self.blocks if id(b) not in new_ids]
                   + [b for b in new if id(b) not in old_ids])
        if not changed or self.slack(changed) < need or _faults(new) > self.faults():
            return -math.inf, new
        if fresh:
            new = self.best_colours(new, fresh)
            if not _replaces(dropped, [new[i] for i in fresh]):
                return -math.inf, new
            changed = [*(b for b in changed if any(b is o for o in self.blocks)),
                       *(b for b in new if all(b is not o for o in self.blocks))]
        return self.gain(new, changed), new

    def slack(self, changed: Sequence[SeenBlock3D]) -> float:
        """The most any reading could gain over the current one in the window of ``changed``.

        Each pixel's likeliest symbol under any label, less its score under the current
        reading's render, summed (kept while the blocks stay the same).
        """
        ev = self.evidence
        key = tuple(id(b) for b in self.blocks)
        if self._slack_of[0] != key:
            boxes = self.boxes(self.blocks)
            rows, cols = slice(0, ev.shape[0]), slice(0, ev.shape[1])
            lost = ev.best_ll() - ev.pixel_ll(boxes, ev.render(boxes, rows, cols), rows, cols)
            self._slack_of = (key, cv2.integral(lost.astype(np.float64)))
        total = self._slack_of[1]
        rows, cols = ev.window(self.boxes(changed))
        if rows.stop <= rows.start or cols.stop <= cols.start:
            return 0.0
        return float(total[rows.stop, cols.stop] - total[rows.start, cols.stop]
                     - total[rows.stop, cols.start] + total[rows.start, cols.start])

    def step_top(self, top: SeenBlock3D) -> bool:
        """Try ``top`` at the other level (and a second-level top on other supports)."""
        rest = [b for b in self.blocks if b is not top]
        if top.level == 2:
            # its supports go with it unless something else stands on them
            under = [b for b in rest if b.level == 1 and b.seen != "top"
                     and _overlap_mm2(b.outline, top.outline) > SUPPORT_OVERLAP_MM2
                     and not any(o.level == 2 and o is not top and _overlap_mm2(
                         b.outline, o.outline) > SUPPORT_OVERLAP_MM2 for o in rest)]
            bare = [b for b in rest if all(b is not u for u in under)]
            low = _shifted(top, self.pose, 1)
            lowered = [b for b in bare if not (b.level == 1 and _penetration(
                b.outline, low.outline) > SOLID_MM)]
            if RESUPPORT:
                options = self.placements(top, bare, top)
            elif not self.stands(top, supports := [b for b in rest if b.level == 1 and (
                    _overlap_mm2(b.outline, top.outline) > SUPPORT_OVERLAP_MM2)]):
                options = [(gain + LEVEL_MARGIN["bridge"] - RESUPPORT_MARGIN, new)
                           for moved in self.nudged(top, supports)
                           for gain, new in self.placements(moved, bare, top)]
                options += [self.pushed_out(new, under, gain) for gain, new in options
                            if gain > -math.inf]
            else:
                options = []
            if LEVEL_MARGIN["lower"] < math.inf:
                gain, new = self.assess([low, *lowered], [])
                options.append((gain - LEVEL_MARGIN["lower"], new))
        elif top.level == 1:
            high = _shifted(top, self.pose, 2)
            options = self.placements(high, rest, None) + self.bridges_beside(top)
        else:
            return False
        if not options:
            return False
        excess, best = max(options, key=lambda o: o[0])
        if excess > 0:
            self.blocks = best
            return True
        return False

    def pushed_out(self, new: list[SeenBlock3D], under: Sequence[SeenBlock3D],
                   gain: float) -> tuple[float, list[SeenBlock3D]]:
        """``new`` with the blocks read under the top that it dropped put back beside it.

        Each a block's size beyond the nearest new support, on the side it was read: a
        part of a block's top read beside a bridge is the strip of a neighbour's top in
        view, its block beyond the bridge's support, not under the bridge. Returns the
        gain less :data:`RESUPPORT_MARGIN`, and the blocks.
        """
        size = self.layout.block_mm
        added = [b for b in new if b.level == 1 and all(b is not o for o in self.blocks)]
        gone = [u for u in under if all(u is not b for b in new)]
        if not added or not gone:
            return gain, new
        out = list(new)
        for u in gone:
            s = min(added, key=lambda a: math.dist(a.centre, u.centre))
            t = math.radians(s.angle)
            axes = [np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])]
            d = np.asarray(u.centre, np.float64) - np.asarray(s.centre, np.float64)
            axis = max(axes, key=lambda a: abs(float(a @ d)))
            c = np.asarray(s.centre, np.float64) + axis * size * math.copysign(1.0, axis @ d)
            xy = (float(c[0]), float(c[1]))
            beside = dataclasses.replace(u, centre=xy, angle=s.angle, rests_on=(),
                                         outline=square(xy, size, s.angle), size_mm=size)
            if not any(b.level == 1 and _penetration(b.outline, beside.outline) > SOLID_MM
                       for b in out):
                out.append(beside)
        fresh = [i for i, b in enumerate(out) if all(b is not o for o in self.blocks)
                 and b.level == 1]
        more, out = self.assess(out, fresh)
        return more - RESUPPORT_MARGIN, out

    def nudged(self, top: SeenBlock3D, supports: Sequence[SeenBlock3D]
               ) -> list[SeenBlock3D]:
        """``top`` where read and half a block off towards its supports of its colour.

        Each nudged by up to :data:`NUDGE_MM` along its axes. A bridge over a support of
        its own colour shows with the strip of that support's top as one region: read
        from it, the top may be placed over that support, half a block off the bridge
        (towards the strip, read as a part of a block under it).
        """
        t = math.radians(top.angle)
        axes = (np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)]))
        u, v = axes
        half = self.layout.block_mm / 2
        bases = [np.zeros(2)]
        for support in supports:
            if support.colour == top.colour:
                d = (np.asarray(support.centre, np.float64)
                     - np.asarray(top.centre, np.float64))
                axis = max(axes, key=lambda a: abs(float(a @ d)))
                bases.append(axis * half * math.copysign(1.0, float(axis @ d)))
        out = []
        for base in bases:
            for a, b in NUDGES:
                d = base + (u * a + v * b) * NUDGE_MM
                out.append(top if not d.any() else dataclasses.replace(
                    top, centre=(top.centre[0] + float(d[0]),
                                 top.centre[1] + float(d[1])),
                    outline=np.asarray(top.outline, np.float64) + d))
        return out

    def stands(self, top: SeenBlock3D, supports: Sequence[SeenBlock3D]) -> bool:
        """Whether ``supports`` stand where a tower or a bridge under ``top`` has its blocks.

        A tower's block is under the top's centre; a bridge's two are half a block to
        either side of it along one of its axes. Supports read on two adjacent sides of a
        top (a strip of a neighbour's top beside the bridge taken for its second block)
        carry it as no block can stand.
        """
        size = self.layout.block_mm
        c = np.asarray(top.centre, np.float64)
        t = math.radians(top.angle)
        for axis in (np.zeros(2), np.array([math.cos(t), math.sin(t)]),
                     np.array([-math.sin(t), math.cos(t)])):
            places = [c] if not axis.any() else [c - axis * size / 2, c + axis * size / 2]
            if supports and all(min(math.hypot(b.centre[0] - p[0], b.centre[1] - p[1])
                                    for p in places) < STANDS_MM for b in supports):
                return True
        return False

    def bridges_beside(self, top: SeenBlock3D) -> list[tuple[float, list[SeenBlock3D]]]:
        """A bridge of ``top``'s colour resting on ``top`` and a block beside it.

        A bridge shows beside one of its supports of its own colour as one region of that
        colour with the strip of the support's top (no edge of another colour between
        them), so the reading may find the support's top alone there, placed somewhere in
        that region: the bridge stands a level up, centred over where that top meets its
        neighbour on one of its four sides, up to :data:`BESIDE_ACROSS_MM` to either side.
        Each is tried with the neighbour in the colour its pixels prefer; each with its
        gain less the margin a bridge needs (:data:`LEVEL_MARGIN`).
        """
        size = self.layout.block_mm
        c = np.asarray(top.centre, np.float64)
        t = math.radians(top.angle)
        u, v = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
        out = []
        for kind, axis, across in (("bridge-u", u, v), ("bridge-u", -u, v),
                                   ("bridge-v", v, u), ("bridge-v", -v, u)):
            # the most any of these could gain: where the bridge and the block beside
            # would stand, at either end of the shifts tried
            reach = [dataclasses.replace(
                top, centre=(float(p[0]), float(p[1])), level=top.level + up,
                outline=square((float(p[0]), float(p[1])), size, top.angle))
                for up, along in ((1, size / 2), (0, size)) for side in (-1.0, 1.0)
                for p in [c + axis * along + across * side * BESIDE_ACROSS_MM]]
            if self.slack(reach) < LEVEL_MARGIN["bridge"]:
                continue
            for shift in BESIDE_SHIFTS:
                mid = c + axis * size / 2 + across * shift * BESIDE_ACROSS_MM
                option = self.bridge_at(top, (float(mid[0]), float(mid[1])), kind)
                if option is not None:
                    out.append(option)
        return out

    def bridge_at(self, top: SeenBlock3D, xy: tuple[float, float], kind: str
                  ) -> tuple[float, list[SeenBlock3D]] | None:
        """A bridge of ``top``'s colour at ``xy`` on ``top`` and another block.

        See :meth:`bridges_beside`. Returns its gain less the margin, and the blocks;
        ``None`` when it cannot stand there or the frame cannot tell.
        """
        margin = LEVEL_MARGIN["bridge"]
        size = self.layout.block_mm
        bridge = dataclasses.replace(top, centre=xy, level=top.level + 1, rests_on=(),
                                     seen="top", outline=square(xy, size, top.angle),
                                     size_mm=size)
        if self.colour_share(bridge) < BESIDE_TOP_SHARE:
            return None         # no top of its colour shows there a level up
        if any(b is not top and b.level == top.level and b.seen == "top"
               and b.colour == top.colour
               and _overlap_mm2(b.outline, bridge.outline) > SUPPORT_OVERLAP_MM2
               for b in self.blocks):
            return None         # the groove between two tops of its colour shows there
        placed = self.supports_for(bridge, list(self.blocks), kind)
        if placed is None:
            return None
        new = [bridge, *placed[0]]
        fresh = [i for i, b in enumerate(new) if all(b is not o for o in self.blocks)
                 and b is not bridge]
        if not fresh or not self.in_evidence([bridge, *(new[i] for i in fresh)]):
            return None
        gain, placed_new = self.assess(new, fresh, margin, placed[1])
        if gain <= margin:
            return gain - margin, placed_new
        parts = [dataclasses.replace(d, seen="top") for d in placed[1] if d.seen == "part"]
        if not _replaces(parts, [placed_new[i] for i in fresh]):
            return None         # a strip of a top seen in one colour, put in another
        # the bridge is credited only with what it explains beyond the block put beside
        # ``top``: a top the reading missed (in a shadow) lends a bridge its pixels, and
        # that block alone takes them back
        alone = self.assess(placed_new[1:], [i - 1 for i in fresh])[0]
        return gain - max(0.0, alone) - margin, placed_new

    def colour_share(self, block: SeenBlock3D) -> float:
        """The share of ``block``'s top (its inner part) that shows its colour.

        Looked at in the view of the plane of its top, where a top there shows as itself.
        """
        views = self.views
        height = block.level * self.height
        classes = views.classes(height)
        a, b, d = (np.asarray(block.outline, np.float64)[k] for k in (0, 1, 3))
        s = np.linspace(0.15, 0.85, 8)
        pts = np.array([a + (b - a) * x + (d - a) * y for x in s for y in s])
        px = np.floor(pts * views.px_per_mm).astype(int)
        h, w = classes.shape
        inside = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < w) & (px[:, 1] < h)
        if not inside.any():
            return 0.0
        px = px[inside]
        own = classes[px[:, 1], px[:, 0]] == views.palette.index(block.colour)
        return float(own.mean())

    def in_evidence(self, blocks: Sequence[SeenBlock3D]) -> bool:
        """Whether the boxes of ``blocks`` show wholly inside the pixels the evidence covers.

        A block reaching out of them would be scored on only part of its pixels: the
        table it would hide there would not count against it.
        """
        spans = self.evidence.spans(self.boxes(blocks))
        rows, cols = self.evidence.shape
        return bool(np.all((spans[:, 0] >= 0) & (spans[:, 1] <= rows) & (spans[:, 2] >= 0)
                           & (spans[:, 3] <= cols)))

    def placements(self, top: SeenBlock3D, rest: list[SeenBlock3D],
                   same: SeenBlock3D | None) -> list[tuple[float, list[SeenBlock3D]]]:
        """``top`` (at level 2) on a tower and on bridges, new supports coloured.

        Each with its gain less the margin that kind of change needs (:data:`LEVEL_MARGIN`).

        ``same``: the top as read, when it is already at level 2 (its supports as read are
        then not tried again).
        """
        out = []
        for kind in ("tower", "bridge-u", "bridge-v"):
            margin = LEVEL_MARGIN[kind.split("-")[0]]
            if margin == math.inf:
                continue
            placed = self.supports_for(top, rest, kind)
            if placed is None:
                continue
            new = [top, *placed[0]]
            fresh = [i for i, b in enumerate(new) if all(b is not o for o in self.blocks)
                     and b is not top]
            if same is not None and not fresh:
                continue
            gain, placed_new = self.assess(new, fresh, margin, placed[1])
            out.append((gain - margin, placed_new))
        return out

    def step_colour(self, block: SeenBlock3D) -> bool:
        """Try a block under another in the colour its pixels prefer."""
        i = next(k for k, b in enumerate(self.blocks) if b is block)
        new = self.best_colours(list(self.blocks), [i])
        if new[i].colour == block.colour:
            return False
        new[i] = dataclasses.replace(new[i])
        return self.try_change(new, [])

    def step_drop(self, block: SeenBlock3D) -> bool:
        """Try the reading without a block under another that the frame contradicts."""
        return self.try_change([b for b in self.blocks if b is not block], [])

    def run(self, levels: bool, colours: Sequence[str], passes: int = 2
            ) -> list[SeenBlock3D]:
        """Refine the reading in place; return its blocks.

        Tops' levels (with ``levels``), then the blocks under them (with ``colours``:
        their colours, and whether they are there at all).
        """
        near: list[tuple[float, float]] | None = None      # first pass: everywhere
        for _ in range(passes):
            before = list(self.blocks)
            if levels:
                for top in [b for b in self.blocks if b.seen == "top" and _close(b, near)]:
                    if any(b is top for b in self.blocks):
                        self.step_top(top)
            for b in [b for b in self.blocks if b.seen in colours and _close(b, near)]:
                if any(o is b for o in self.blocks):
                    _ = self.step_colour(b) or self.step_drop(b)
            # the next pass looks again only near what changed in this one
            near = [b.centre for b in self.blocks if all(b is not o for o in before)]
            if not near:
                break
        return self.blocks


def _close(block: SeenBlock3D, near: Sequence[tuple[float, float]] | None) -> bool:
    """Whether ``block`` stands within :data:`AGAIN_MM` of a point of ``near`` (any: None)."""
    return near is None or any(math.hypot(block.centre[0] - x, block.centre[1] - y) < AGAIN_MM
                               for x, y in near)


def _replaces(dropped: Sequence[SeenBlock3D], added: Sequence[SeenBlock3D]) -> bool:
    """Whether every top read that supports put in its place drop is one of them misplaced.

    A top read there is surer than a support guessed under a raised top, unless a support
    of its colour takes its place (a part of a block's top beside a bridge read as a whole
    top, half a block off).
    """
    return all(any(a.colour == d.colour and _penetration(a.outline, d.outline) > SOLID_MM
                   for a in added) for d in dropped if d.seen == "top")


def _faults(blocks: Sequence[SeenBlock3D]) -> int:
    """How far from physical: pairs of blocks overlapping at one level, tops on nothing."""
    n = 0
    centres = np.array([b.centre for b in blocks], np.float64)
    near = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1)) < NEAR_MM
    for i, a in enumerate(blocks):
        for j in map(int, np.flatnonzero(near[i])):
            b = blocks[j]
            if j > i and a.level == b.level and _penetration(a.outline, b.outline) > SOLID_MM:
                n += 1
        if a.level > 1 and not any(
                blocks[j].level == a.level - 1 and _overlap_mm2(a.outline, blocks[j].outline)
                > SUPPORT_OVERLAP_MM2 for j in map(int, np.flatnonzero(near[i]))):
            n += 1
    return n


def refine_reading(views: TableViews, blocks: Sequence[SeenBlock3D], notes: Sequence[str],
                   levels: bool = True, colours: Sequence[str] = ()
                   ) -> tuple[list[SeenBlock3D], list[str]]:
    """The reading changed where the frame clearly prefers it (see the module's text).

    Args:
        views: the frame's views.
        blocks: the reading's blocks (tops first, blocks under them after).
        notes: its notes (those about blocks changed here are dropped).
        levels: try each top a level up or down (see :data:`LEVEL_MARGIN`).
        colours: the blocks under tops tried in other colours, and without them, by how
            they were read (``side``, ``part``, ``assumed``). None by default: on the tune
            scenes the pipeline's reading of them does better (blocks+colour 856 against
            846 of 919 with all three, 853 with ``assumed`` alone).

    Returns:
        The blocks (tops first, then the blocks under them, supports re-derived) and notes.
    """
    if not blocks:
        return list(blocks), list(notes)
    search = _Search(views, blocks)
    refined = search.run(levels, colours)
    if all(any(a is b for b in blocks) for a in refined) and len(refined) == len(blocks):
        return list(blocks), list(notes)
    kept_notes = list(notes)
    return _finish(search, refined, kept_notes), kept_notes


def _finish(search: _Search, blocks: list[SeenBlock3D], notes: list[str]
            ) -> list[SeenBlock3D]:
    """Tops first, then the blocks under them; supports re-derived; hidden ones assumed.

    A block added under a raised top that shows on no pixel is assumed in the colour the
    set has most left (:func:`~vision.readers.hidden_colours.likeliest_colour`), as the
    pipeline assumes a hidden block in a column, and said so in ``notes``.
    """
    ev = search.evidence
    boxes = search.boxes(blocks)
    rows, cols = ev.window(boxes)
    labels = ev.render(boxes, rows, cols)
    size = search.layout.block_mm
    seen = []
    for i, b in enumerate(blocks):
        if any(b is o for o in search.original):
            seen.append(b)
            continue
        b = dataclasses.replace(b, outline=square(b.centre, size, b.angle))
        shown = int(np.isin(labels, (2 * i, 2 * i + 1)).sum())
        if b.seen != "top" and shown < SEEN_PX:
            colour = likeliest_colour(o.colour for o in seen + blocks[i + 1:])
            b = dataclasses.replace(b, colour=colour, seen="assumed")
            notes.append(hidden_block_note(colour, b.centre, b.level))
        seen.append(b)
    ordered = [b for b in seen if b.seen == "top"] + [b for b in seen if b.seen != "top"]
    out = []
    for b in ordered:
        under = tuple(j for j, o in enumerate(ordered) if o.level == b.level - 1
                      and _overlap_mm2(o.outline, b.outline) > SUPPORT_OVERLAP_MM2)
        out.append(dataclasses.replace(b, rests_on=under))
    return out
