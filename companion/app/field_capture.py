"""The field read from the camera at set-up, corrected by touch, checked, written (issue 12).

After the builder arranges the blocks, one camera frame is read (:func:`capture_field`: the
camera's pose from the table markers, then :func:`vision.readers.field3d.read_field`: tops at every
level, stacks, touching pairs, pawns). The reading becomes a :class:`FieldDraft` the players
correct on screen, without Kivy here:

- :meth:`FieldDraft.cycle` turns a block's colour white -> yellow -> red -> blue -> *not a
  block* -> white (a false block is dropped, and comes back with one more tap);
- :meth:`FieldDraft.toggle` makes two neighbours touch or not (pairs at most
  :data:`PAIR_CANDIDATE_MM` apart; a block always touches what it rests on); on screen, in
  touching mode, a tap selects a block and rings its neighbours, a tap on one toggles;
- :meth:`FieldDraft.set_level` puts a top read at the wrong height one level up (in levels
  mode a tap on its mark: 1 -> 2 -> 3 -> 1, where its spot in the picture is at that height);
- :meth:`FieldDraft.move_to` puts a block read a few mm off its place where it is (in move
  mode a tap on its mark selects it, then a tap on the picture moves its top's centre
  there, or the arrows nudge it by :data:`NUDGE_MM` and turn it by :data:`TURN_DEG`); its
  touching pairs are decided again by the table's touch tolerance;
- :meth:`FieldDraft.add_at` adds a block the camera missed (a tap on bare table in blocks
  mode: level 1, lined up with its nearest neighbour; elsewhere in levels mode: level 2),
  in the colour the picture shows there.

A block above the table rests on the blocks one level down that its footprint overlaps
(:meth:`FieldDraft.supports`), so dropping the block the camera assumed under a bridge and
adding the two it really stands on gives the bridge. Two blocks side by side cannot share
space: footprints overlapping by up to :data:`SETTLE_MM` (the camera's error; half a block
for a block whose place is a guess) are pushed apart in the field written; deeper overlaps
stay, and the engine's check names them (``overlapping``: usually a false block to drop).

:meth:`FieldDraft.problems` runs the engine's field-building checks
(``companion.games.infinifield.check_field``) plus "one white block per player"; a draft with
none starts the match as field TOML (:meth:`FieldDraft.field_toml`, read back by
``load_field_text``). Where each block and touching pair shows on screen, and what a tap
there means, is :class:`companion.app.field_view.SetupView`.

Example:
    >>> from vision.readers.field3d import FieldReading, SeenBlock3D
    >>> from vision.geometry import square
    >>> blocks = tuple(SeenBlock3D(c, (100.0 + 41 * i, 100.0), 0.0, 1,
    ...                            square((100.0 + 41 * i, 100.0), 40.0, 0.0))
    ...                for i, c in enumerate(["white", "red", "white"]))
    >>> draft = FieldDraft.from_reading(FieldReading(blocks, (), frozenset({(0, 1), (1, 2)}),
    ...                                              False))
    >>> draft.cycle(1)
    'blue'
    >>> [v.code for v in draft.problems("quickstart", 2)]
    []
    >>> draft.toggle(1, 2)
    False
    >>> [v.code for v in draft.problems("quickstart", 2)]
    ['isolated', 'islands', 'islands']
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.games.core import RuleRef
from companion.games.infinifield import (
    COLOURS,
    Block,
    Field,
    FieldError,
    Violation,
    build_field,
    check_field,
    field_toml_text,
)
from vision.geometry import gaps_between, square
from vision.layout import TableLayout
from vision.palette import provisional_ids
from vision.readers.hidden_colours import likeliest_colour

CYCLE: tuple[str | None, ...] = (*COLOURS, None)
"""What a tap on a block makes of it: the next colour, then *not a block* (``None``)."""

PAIR_CANDIDATE_MM = 20.0
"""Neighbours at the same level at most this far apart may be toggled touching or not (the
rulebook's blocks "clearly apart" stand half an inch, 12.7 mm, apart)."""

SETTLE_MM = 8.0
"""Side-by-side footprints overlapping by up to this are taken apart (measurement error)."""

GUESSED = frozenset({"assumed", "side", "part", "added"})
"""How a block was found when its place is a guess: assumed under another, read from its
side faces, from part of its top, or added by touch where the camera missed it."""

ROOM_NUDGE_MM = 4.0
"""A support placed by a guess (part of its top seen, or a side face) is moved up to this far
out from under the block it carries where that leaves room for a pawn on it (the rule's
pawn room is 18 mm; a bridge leaves about 20: within the camera's error of a guessed place).
"""

SUPPORT_SHARE = 0.15
"""A block rests on each block one level down whose top its footprint covers this much."""

ADD_CLEARANCE = 0.7
"""A block is added only where no block of its level has its centre within this many block
sizes (a read block can sit 10 mm off; the overlap left is settled, the added one moving)."""

SNAP_GAP_MM = 1.0
"""An added block is lined up this far from the neighbour it is placed beside."""

NUDGE_MM = 2.0
"""How far one tap on an arrow moves the block selected in move mode."""

TURN_DEG = 2.0
"""How far one tap on a turning arrow turns the block selected in move mode."""

READ_SEED = 12
"""OpenCV's random generator is seeded with this before each reading (the reader splits
same-coloured neighbours by k-means), so the same frame always reads the same."""

STARTING_POSITIONS = RuleRef("infinifield", "Select starting positions", "step 2")
"""Each player places a pawn on a white block: a field needs one per player."""


@dataclass(frozen=True)
class DraftBlock:
    """One block of the field as the players are confirming it.

    Attributes:
        key: its number on this screen (never reused, so nothing moves as blocks change).
        colour: ``white``, ``yellow``, ``red``, ``blue``, or ``None``: not a block (dropped).
        centre: (x, y) of its footprint, table mm.
        angle: rotation of its footprint, degrees.
        level: 1 on the table, 2 on blocks of level 1, ...
        seen: how the camera read it (``top``, ``part``, ``side``, ``assumed``: see
            :class:`vision.readers.field3d.SeenBlock3D`) or ``added`` (by touch).
        read_as: the colour the camera read (``None`` for an added block).
        size_mm: the side of its top as the camera read it (``None``: not read, or not a
            top); a first level kept from this draft keeps it, so a tower's top read
            later as this block shows larger than it
            (:func:`vision.readers.field3d.read_field`'s ``tower_unsure`` notes).
    """

    key: int
    colour: str | None
    centre: tuple[float, float]
    angle: float
    level: int
    seen: str = "top"
    read_as: str | None = None
    size_mm: float | None = None

    @property
    def present(self) -> bool:
        """Whether it is a block of the field (not dropped)."""
        return self.colour is not None

    def outline(self, layout: TableLayout) -> np.ndarray:
        """Its footprint's four corners (table mm)."""
        return square(self.centre, layout.block_mm, self.angle)


@dataclass(frozen=True)
class DraftPawn:
    """A pawn seen at set-up (shown, not part of the field: pawns start with ``start``)."""

    colour: str
    centre: tuple[float, float]
    block: int | None


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _penetration(a: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray]:
    """How deep two convex polygons overlap, and along which unit axis (0 when apart).

    Example:
        >>> depth, axis = _penetration(square((0, 0), 40, 0), square((37, 1), 40, 0))
        >>> round(depth, 1), np.abs(axis).round(1).tolist()
        (3.0, [1.0, 0.0])
    """
    best, best_axis = math.inf, np.array([1.0, 0.0])
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        for edge in edges:
            norm = float(np.hypot(*edge))
            if norm < 1e-9:
                continue
            axis = np.array([-edge[1], edge[0]]) / norm
            pa, pb = a @ axis, b @ axis
            overlap = min(pa.max(), pb.max()) - max(pa.min(), pb.min())
            if overlap <= 0:
                return 0.0, axis
            if overlap < best:
                best, best_axis = float(overlap), axis
    return best, best_axis


@dataclass
class FieldDraft:
    """The field read from the camera, as corrected by the players.

    Attributes:
        blocks: every block read or added, by key (dropped ones stay, as ``colour=None``).
        touching: key pairs ``(a, b)``, ``a < b``, that touch side by side.
        pawns: the pawns seen.
        notes: what the camera could not see and assumed.
        hands_in_view: a hand was over the table when the frame was taken.
        layout: the table (block size and height, touch tolerance).
        taps: corrections made so far.
        unsure_touching: key pairs a level apart the camera read too near the edge of
            touching to tell (``FieldReading.unsure_touching``); a pair leaves it when the
            players toggle it.
    """

    blocks: dict[int, DraftBlock]
    touching: set[tuple[int, int]]
    pawns: list[DraftPawn] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hands_in_view: bool = False
    layout: TableLayout = field(default_factory=TableLayout)
    taps: int = 0
    unsure_touching: set[tuple[int, int]] = field(default_factory=set)

    @classmethod
    def from_reading(cls, reading: Any) -> FieldDraft:
        """A draft of a :class:`vision.readers.field3d.FieldReading` (keys: its block indexes)."""
        blocks = {i: DraftBlock(i, b.colour, (float(b.centre[0]), float(b.centre[1])),
                                float(b.angle), int(b.level), b.seen, b.colour,
                                float(b.size_mm) if b.seen == "top" and b.size_mm else None)
                  for i, b in enumerate(reading.blocks)}
        stacked = {_pair(i, j) for i, b in enumerate(reading.blocks) for j in b.rests_on}
        touching = {_pair(i, j) for i, j in reading.touching} - stacked
        pawns = [DraftPawn(p.colour, (float(p.centre[0]), float(p.centre[1])), p.block)
                 for p in reading.pawns]
        unsure = {_pair(i, j) for i, j in getattr(reading, "unsure_touching", ())} - stacked
        return cls(blocks, touching, pawns, list(reading.notes), bool(reading.hands_in_view),
                   reading.layout, unsure_touching=unsure)

    # -- what there is ---------------------------------------------------------------------
    def present(self) -> list[DraftBlock]:
        """The blocks of the field, in id order (colour, level, row, column)."""
        size = self.layout.block_mm
        return sorted((b for b in self.blocks.values() if b.present),
                      key=lambda b: (COLOURS.index(b.colour or "white"), b.level,
                                     round(b.centre[1] / size), b.centre[0], b.key))

    def guessed(self) -> list[DraftBlock]:
        """Blocks assumed under others whose colour the players have not changed.

        Nothing of them showed to the camera: they are marked ``?`` on the picture for the
        players to check.
        """
        return [b for b in self.present() if b.seen == "assumed" and b.colour == b.read_as]

    def first_level(self) -> list[Any]:
        """The blocks on the table as they stand now, for reading the stacked field on them.

        Taken before the builder stacks on the first level (corrected by touch if need be):
        a later reading puts what it finds over them on them, and keeps the colours and
        places of those it cannot see (:func:`capture_field`).
        """
        from vision.readers.ground3d import ground_block
        return [ground_block(b.colour, b.centre, b.angle, self.layout.block_mm,
                             b.size_mm if b.colour == b.read_as else None)
                for b in self.present() if b.level == 1 and b.colour is not None]

    def tower_asks(self) -> list[DraftBlock]:
        """First-level blocks that may carry a block of their own colour, still unchecked.

        The reading's ``tower_unsure`` notes (:func:`vision.readers.notes.tower_unsure_note`),
        each on the present first-level block of its colour nearest where it says (within
        half a block), while that block is on the table as read, with nothing on it: marked
        on the picture for the players to check; lifting it in levels mode (onto a block of
        its colour, :meth:`set_level`) or changing it settles the question.
        """
        from vision.readers.notes import TOWER_UNSURE

        asked = []
        for note in self.notes:
            if getattr(note, "kind", None) != TOWER_UNSURE:
                continue
            at, colour = getattr(note, "at", (0.0, 0.0)), getattr(note, "colour", "")
            near = [b for b in self.present() if b.level == 1 and b.colour == colour
                    and b.colour == b.read_as and not self.above(b.key)
                    and math.dist(b.centre, at) < self.layout.block_mm / 2]
            if near:
                block = min(near, key=lambda b: math.dist(b.centre, at))
                if block not in asked:
                    asked.append(block)
        return asked

    def ids(self) -> dict[int, str]:
        """Key -> the block's id in the field file (``W1``, ``Y2``...)."""
        blocks = self.present()
        return dict(zip((b.key for b in blocks),
                        provisional_ids(b.colour or "white" for b in blocks), strict=True))

    def supports(self, key: int) -> list[int]:
        """Keys of the present blocks that block ``key`` rests on.

        Those one level down whose tops its footprint covers by :data:`SUPPORT_SHARE` or more.
        """
        block = self.blocks[key]
        if block.level <= 1:
            return []
        mine = block.outline(self.layout).astype(np.float32)
        full = self.layout.block_mm ** 2
        return [b.key for b in self.blocks.values()
                if b.present and b.level == block.level - 1
                and math.dist(b.centre, block.centre) < 1.5 * self.layout.block_mm
                and cv2.intersectConvexConvex(
                    mine, b.outline(self.layout).astype(np.float32))[0] >= SUPPORT_SHARE * full]

    def above(self, key: int) -> list[int]:
        """Keys of the present blocks resting on block ``key``."""
        return [b.key for b in self.blocks.values()
                if b.present and b.level > 1 and key in self.supports(b.key)]

    def live_touching(self) -> set[tuple[int, int]]:
        """The touching pairs of present blocks.

        A dropped block keeps its pairs, so the tap that brings it back brings them back.
        """
        return {p for p in self.touching
                if self.blocks[p[0]].present and self.blocks[p[1]].present}

    def unsure_pairs(self) -> list[tuple[int, int]]:
        """Pairs a level apart the camera could not tell touch or not, still unchecked.

        Both blocks present, neither moved to another level, the pair not toggled yet; drawn
        in amber on the picture for the players to check in touching mode.
        """
        return sorted(p for p in self.unsure_touching
                      if self.blocks[p[0]].present and self.blocks[p[1]].present
                      and abs(self.blocks[p[0]].level - self.blocks[p[1]].level) == 1)

    def pair_candidates(self) -> list[tuple[int, int]]:
        """Pairs that may be toggled, and the pairs touching now.

        Side by side at most :data:`PAIR_CANDIDATE_MM` apart, at one level or one level
        apart (a block edge to edge with one it does not rest on).
        """
        blocks = [b for b in self.blocks.values() if b.present]
        idx = [(a, b) for n, a in enumerate(blocks) for b in blocks[n + 1:]
               if abs(a.level - b.level) <= 1
               and math.dist(a.centre, b.centre) < 2 * self.layout.block_mm]
        idx = [(a, b) for a, b in idx if a.level == b.level
               or (b.key not in self.supports(a.key) and a.key not in self.supports(b.key))]
        if not idx:
            return sorted(self.live_touching())
        gaps = gaps_between(np.stack([a.outline(self.layout) for a, _ in idx]),
                            np.stack([b.outline(self.layout) for _, b in idx]))
        near = {_pair(a.key, b.key) for (a, b), g in zip(idx, gaps, strict=True)
                if g <= PAIR_CANDIDATE_MM}
        return sorted(near | self.live_touching())

    # -- corrections -----------------------------------------------------------------------
    def cycle(self, key: int) -> str | None:
        """The next colour of block ``key`` (then not a block, then white again)."""
        block = self.blocks[key]
        colour = CYCLE[(CYCLE.index(block.colour) + 1) % len(CYCLE)]
        self.blocks[key] = replace(block, colour=colour)
        self.taps += 1
        return colour

    def toggle(self, a: int, b: int) -> bool:
        """Make blocks ``a`` and ``b`` touch, or not; returns whether they touch now.

        Raises:
            KeyError: the two are not neighbours that may be toggled.
        """
        pair = _pair(a, b)
        if pair not in self.pair_candidates():
            raise KeyError(f"blocks {a} and {b} are not neighbours at one level")
        if pair in self.touching:
            self.touching.discard(pair)
        else:
            self.touching.add(pair)
        self.unsure_touching.discard(pair)  # the players have looked at it
        self.taps += 1
        return pair in self.touching

    def set_level(self, key: int, level: int, centre: Sequence[float]) -> list[int]:
        """Put block ``key`` at ``level`` with its footprint's centre at ``centre`` (mm).

        For a top the camera read at the wrong height: the same spot in the picture is
        another point of the table at another height (see
        :meth:`companion.app.field_view.SetupView.tap`). Where no block stands under it, one
        is assumed at each level below (in the colour the set has most left of, as the camera
        assumes hidden blocks: :func:`vision.readers.hidden_colours.likeliest_colour`), for
        the players to colour, drop or replace; under a block asked about as maybe carrying
        one of its colour (:meth:`tower_asks`), lifted a level, the one assumed is of its
        colour: that is what was asked. Returns the keys of the blocks assumed.
        """
        asked = level == self.blocks[key].level + 1 and any(
            b.key == key for b in self.tower_asks())
        block = replace(self.blocks[key], level=int(level),
                        centre=(float(centre[0]), float(centre[1])))
        self.blocks[key] = block
        self.taps += 1
        assumed = self._assume_under(block)
        if asked and assumed:
            under = self.blocks[assumed[0]]
            self.blocks[assumed[0]] = replace(under, colour=block.colour)
        return assumed

    def held(self, key: int) -> bool:
        """Whether what block ``key`` rests on can hold it level: its centre over them.

        A block on the table is held. One above it needs its centre over one of its
        supports' tops or between them (the rulebook's tops are never tilted: a block
        touching the corner of another's top only would tip off it).
        """
        block = self.blocks[key]
        if block.level <= 1:
            return True
        under = self.supports(key)
        if not under:
            return False
        points = np.concatenate([self.blocks[k].outline(self.layout) for k in under])
        hull = cv2.convexHull(points.astype(np.float32))
        return cv2.pointPolygonTest(hull, (float(block.centre[0]), float(block.centre[1])),
                                    False) >= 0

    def _assume_under(self, block: DraftBlock) -> list[int]:
        """Blocks assumed under ``block`` down to the table where nothing holds it.

        Nothing holds it where :meth:`held` says its centre is over none of its supports.
        """
        assumed: list[int] = []
        upper = block
        while upper.level > 1 and not self.held(upper.key):
            new = max(self.blocks) + 1
            colour = likeliest_colour(b.colour for b in self.present() if b.colour)
            upper = DraftBlock(new, colour, upper.centre, upper.angle, upper.level - 1,
                               "assumed", None)
            self.blocks[new] = upper
            assumed.append(new)
        return assumed

    def add_at(self, xy_mm: Sequence[float], level: int = 1) -> int | None:
        """Add a white block where the camera missed one, its top's centre at ``xy_mm``.

        (On screen it takes the colour the picture shows there: :meth:`Capture.colour_at`.)

        On the table, beside a block (its centre 0.5-1.6 block sizes away along one of its
        axes) the new one is lined up with it, :data:`SNAP_GAP_MM` apart, and turned as it
        is. Above the table it is turned as the block under it, and blocks are assumed under
        it where none is. It touches the blocks at its level within the table's touch
        tolerance. Returns its key, or ``None`` where a block already stands there.
        """
        size = self.layout.block_mm
        centre = np.asarray(xy_mm, np.float64)[:2]
        angle = 0.0
        ground = [b for b in self.blocks.values() if b.present and b.level == level]
        below = [b for b in self.blocks.values() if b.present and b.level == level - 1]
        if level > 1 and below:
            angle = min(below, key=lambda b: math.dist(b.centre, centre)).angle
        elif ground:
            near = min(ground, key=lambda b: math.dist(b.centre, centre))
            angle = near.angle
            t = math.radians(near.angle)
            axes = (np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)]))
            d = centre - np.asarray(near.centre)
            along = [float(d @ axis) for axis in axes]
            k = int(abs(along[1]) > abs(along[0]))
            if 0.5 * size <= abs(along[k]) <= 1.6 * size and abs(along[1 - k]) < 0.5 * size:
                centre = np.asarray(near.centre) + math.copysign(size + SNAP_GAP_MM,
                                                                 along[k]) * axes[k]
        outline = square((float(centre[0]), float(centre[1])), size, angle)
        others = ground
        if any(math.dist(b.centre, centre) < ADD_CLEARANCE * size for b in others):
            return None
        key = max(self.blocks, default=-1) + 1
        self.blocks[key] = DraftBlock(key, "white", (float(centre[0]), float(centre[1])),
                                      angle, level, "added", None)
        self._assume_under(self.blocks[key])
        if others:
            gaps = gaps_between(np.stack([outline] * len(others)),
                                np.stack([b.outline(self.layout) for b in others]))
            self.touching |= {_pair(key, b.key) for b, g in zip(others, gaps, strict=True)
                              if g <= self.layout.touch_mm}
        self.taps += 1
        return key

    def move_to(self, key: int, centre: Sequence[float], angle: float | None = None
                ) -> set[tuple[int, int]]:
        """Move block ``key``'s footprint so its centre is at ``centre`` (table mm).

        For a block the camera read a few mm or degrees off its place (then the checks of
        touching, overlap and a pawn's room fail): its level stays, and its angle unless
        ``angle`` (degrees) is given. The pairs it is in are decided
        again as an added block's are: it touches the blocks of its level whose footprints
        are within the table's touch tolerance (:attr:`TableLayout.touch_mm`) of its own;
        the players can still toggle them in touching mode. What it rests on, and what
        rests on it, follow from the footprints (:meth:`supports`). Returns its touching
        pairs now.

        Raises:
            KeyError: no block ``key``, or it is dropped.
        """
        block = self.blocks.get(key)
        if block is None or not block.present:
            raise KeyError(f"block {key} is not on the field")
        moved = replace(block, centre=(float(centre[0]), float(centre[1])),
                        angle=block.angle if angle is None else float(angle))
        self.blocks[key] = moved
        self.touching = {p for p in self.touching if key not in p}
        others = [b for b in self.blocks.values()
                  if b.present and b.key != key and b.level == moved.level]
        if others:
            gaps = gaps_between(np.stack([moved.outline(self.layout)] * len(others)),
                                np.stack([b.outline(self.layout) for b in others]))
            self.touching |= {_pair(key, b.key) for b, g in zip(others, gaps, strict=True)
                              if g <= self.layout.touch_mm}
        self.taps += 1
        return {p for p in self.touching if key in p}

    # -- the field -------------------------------------------------------------------------
    def settled(self) -> dict[int, tuple[float, float]]:
        """Centres of the present blocks with shallow side-by-side overlaps taken apart.

        Each pair at one level overlapping by at most :data:`SETTLE_MM` is pushed apart
        along the axis of least overlap until it stands clear (a few rounds). A block whose
        top the camera did not see whole (:data:`GUESSED`) is placed by a guess: up to half
        a block of overlap is taken apart, and beside a seen block it alone moves; under the
        one block it carries it moves out up to :data:`ROOM_NUDGE_MM` to leave a pawn room.
        """
        centres = {b.key: np.asarray(b.centre, np.float64) for b in self.blocks.values()
                   if b.present}
        levels = {b.key: b for b in self.blocks.values() if b.present}
        keys = sorted(centres)
        size = self.layout.block_mm
        for _round in range(12):
            moved = False
            for n, a in enumerate(keys):
                for b in keys[n + 1:]:
                    if levels[a].level != levels[b].level or \
                            float(np.linalg.norm(centres[a] - centres[b])) >= 1.5 * size:
                        continue
                    depth, axis = _penetration(
                        square(tuple(centres[a]), size, levels[a].angle),
                        square(tuple(centres[b]), size, levels[b].angle))
                    guessed = (levels[a].seen in GUESSED, levels[b].seen in GUESSED)
                    limit = size / 2 if any(guessed) else SETTLE_MM + 1.0
                    if 0.0 < depth <= limit:
                        if (centres[b] - centres[a]) @ axis < 0:
                            axis = -axis
                        if guessed[0] != guessed[1]:  # only the one nobody saw moves
                            share = (1.0, 0.0) if guessed[0] else (0.0, 1.0)
                        else:
                            share = (0.5, 0.5)
                        centres[a] -= (depth + 0.1) * share[0] * axis
                        centres[b] += (depth + 0.1) * share[1] * axis
                        moved = True
            moved = self._leave_room(centres, levels) or moved
            if not moved:
                break
        return {k: (float(c[0]), float(c[1])) for k, c in centres.items()}

    def _leave_room(self, centres: dict[int, np.ndarray], blocks: dict[int, DraftBlock]
                    ) -> bool:
        """Move guessed supports out from under the one block they carry, if need be.

        By up to :data:`ROOM_NUDGE_MM`, where that leaves a pawn's room on them. Returns
        whether any moved.
        """
        moved = False
        pawn = self.layout.pawn_mm
        for key, block in blocks.items():
            above = self.above(key) if block.seen in GUESSED else []
            if len(above) != 1:
                continue
            t = math.radians(block.angle)
            axes = (np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)]))
            offset = centres[key] - centres[above[0]]
            along = [float(offset @ axis) for axis in axes]
            k = int(abs(along[1]) > abs(along[0]))
            short = pawn + 0.2 - abs(along[k])
            if 0.0 < short <= ROOM_NUDGE_MM:
                centres[key] = centres[key] + math.copysign(short, along[k]) * axes[k]
                moved = True
        return moved

    def to_field(self, name: str = "Field read by the camera") -> Field:
        """The engine's field: footprints, heights, stacking and the confirmed pairs.

        Raises:
            FieldError: no block left, or a block above the table stands on nothing.
        """
        ids = self.ids()
        if not ids:
            raise FieldError("", "no block is left on the field")
        height = self.layout.block_height_mm
        centres = self.settled()
        blocks = []
        for b in self.present():
            supports = tuple(ids[k] for k in self.supports(b.key))
            if b.level > 1 and not supports:
                raise FieldError(ids[b.key], f"is read at level {b.level} but stands on no "
                                             "block: add the blocks under it, or drop it")
            outline = square(centres[b.key], self.layout.block_mm, b.angle)
            blocks.append(Block(ids[b.key], b.colour or "white",
                                tuple((float(x), float(y)) for x, y in outline),
                                height, supports))
        pairs = [(ids[a], ids[b]) for a, b in sorted(self.live_touching())]
        return build_field(blocks, pairs, name=name, pawn_diameter=self.layout.pawn_mm)

    def problems(self, mode: str, players: int) -> list[Violation]:
        """Every field-building rule of ``mode`` the field breaks, and too few white blocks.

        Example: see the module's.
        """
        try:
            found = check_field(self.to_field(), mode)
        except FieldError as error:
            return [Violation("no_field", (error.block,) if error.block else (), str(error),
                              RuleRef("infinifield", "Build the field", "step 1"))]
        whites = [block_id for block_id in self.ids().values() if block_id.startswith("W")]
        if len(whites) < players:
            found.append(Violation(
                "too_few_whites", tuple(whites),
                f"{players} players need {players} white blocks to start on; the field has "
                f"{len(whites)}", STARTING_POSITIONS))
        return found

    def field_toml(self, mode: str, name: str = "Field read by the camera") -> str:
        """The confirmed field as a field file, with the chosen rules as ``[match] mode``.

        Raises:
            FieldError: as :meth:`to_field`.
        """
        notes = [f"note: {note}" for note in self.notes]
        return field_toml_text(self.to_field(name), {"mode": mode},
                               [f"Read by the camera at set-up and confirmed on screen "
                                f"({self.taps} correction(s)).", *notes])


@dataclass(frozen=True)
class Capture:
    """One frame read at set-up: the frame, the camera's pose in it, the draft.

    ``views`` (a :class:`vision.readers.table_views.TableViews` with the colours learnt on
    this table) tells the colour of a block added by touch; without it an added block is white.
    """

    frame: np.ndarray
    pose: Any
    draft: FieldDraft
    views: Any = None

    def photo(self) -> Any:
        """The frame and the camera's pose in it, for reading a later frame against it.

        Kept with the first level (:meth:`FieldDraft.first_level`) as ``ground_photo`` of
        :func:`capture_field`.
        """
        from vision.readers.added3d import FirstLevelPhoto
        return FirstLevelPhoto(self.frame, self.pose)

    def colour_at(self, centre: Sequence[float], level: int = 1) -> str:
        """The block colour most of a top at ``centre`` (mm) and ``level`` shows, else white.

        Example: see :func:`capture_field` (a block added where the camera missed it).
        """
        if self.views is None:
            return "white"
        layout = self.draft.layout
        offsets = np.linspace(-0.3, 0.3, 7) * layout.block_mm
        pts = np.array([[centre[0] + dx, centre[1] + dy, level * layout.block_height_mm]
                        for dx in offsets for dy in offsets])
        names = [c.name for c in self.views.palette.classes]
        votes: dict[str, int] = {}
        for index in self.views.sample_classes(pts):
            name = names[index] if index < len(names) else ""
            if name in COLOURS:
                votes[name] = votes.get(name, 0) + 1
        best = max(votes, key=lambda n: votes[n], default="white")
        return best if votes.get(best, 0) >= len(pts) // 3 else "white"


def table_intrinsics(calibration_path: Path) -> Any:
    """The camera named by a saved table calibration, or ``None`` (estimated from markers).

    Raises:
        ValueError: the calibration file or the camera it names cannot be read.
    """
    if not calibration_path.is_file():
        return None
    from vision.calibration import load_calibration
    from vision.camera_model import camera_named

    saved = load_calibration(calibration_path)
    return camera_named(saved.camera, calibration_path.parent) if saved.camera else None


def capture_field(frame: np.ndarray, intrinsics: Any = None, ground: Sequence[Any] = (),
                  ground_photo: Any = None) -> Capture:
    """Read the whole field from one frame: pose from the markers, then every block.

    ``ground``: the field's first level as kept before the builder stacked on it
    (:meth:`FieldDraft.first_level`): what stands on it, and what it hides, are read with it
    (:mod:`vision.readers.ground3d`). ``ground_photo``: the frame it was read on
    (:meth:`Capture.photo`): a block set a level up since shows where the two frames differ,
    one of a colour on another of it too (:mod:`vision.readers.added3d`).

    Raises:
        ValueError: the table markers cannot be found (``PoseError``), or the intrinsics do
            not fit the frame (``CameraModelError``).
    """
    from vision.palette import default_palette
    from vision.pose import table_pose
    from vision.readers.field3d import read_field
    from vision.readers.table_views import TableViews, learn_palette

    cv2.setRNGSeed(READ_SEED)  # the reader's k-means: one frame, one reading
    pose = table_pose(frame, intrinsics)
    palette = learn_palette(TableViews(frame, pose, default_palette()))
    views = TableViews(frame, pose, palette)
    reading = read_field(frame, pose, palette, views=views, ground=ground,
                         ground_photo=ground_photo if ground else None)
    return Capture(frame, pose, FieldDraft.from_reading(reading), views)


def violating_keys(draft: FieldDraft, violations: Iterable[Violation]) -> set[int]:
    """The keys of the blocks the violations name (ringed on screen)."""
    by_id = {block_id: key for key, block_id in draft.ids().items()}
    return {by_id[b] for v in violations for b in v.blocks if b in by_id}
