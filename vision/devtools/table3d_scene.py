"""Plans of photoreal table scenes: field, pawns, camera, light, hand (no renderer needed).

A *family* is one field under one camera and one light, seen in up to three images:
``before``; ``after`` one action (a block removed, or a pawn moved to a touching block);
``hand``, an arm reaching over the table. Everything is drawn from ``random.Random(seed)``,
so a family is the same on every machine. :mod:`vision.devtools.render_table` turns a plan
into images with Blender; the ground truth comes from the plan (see
:mod:`vision.devtools.table3d_truth` for the frames and conventions).

Example:
    >>> fam = plan_family(3)
    >>> fam.family, list(fam.images)[0]
    ('f003', 'before')
    >>> 10 <= len(fam.blocks) <= 24
    True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import cv2
import numpy as np

from companion.games.infinifield.field import Block, build_field
from vision.devtools.table3d_truth import CameraTruth, look_at_rotation
from vision.layout import INCH_MM, TableLayout
from vision.palette import DEFAULT_BGR

LIGHTINGS = ("ceiling", "window", "lamp", "ceiling+lamp", "window+lamp", "dim")
"""Lighting rigs, cycled by family number so every one is equally represented."""

HOLDOUT_EVERY = 4
"""Families whose number is ``HOLDOUT_EVERY - 1`` modulo this are held out of tuning."""

PAPER_MIN_MM, PAPER_MAX_MM = 6.0, 11.0
"""White paper left around a printed marker when it was cut out (each side drawn apart)."""

BLOCK_COUNTS = {"white": 8, "yellow": 8, "red": 6, "blue": 2}
"""The Infinifield set (infinifield.md, Contents)."""

PAWN_COLOURS = tuple(n for n, (kind, _l, _c) in DEFAULT_BGR.items() if kind == "pawn")


def family_numbers(spec: str) -> list[int]:
    """Family numbers from a spec such as ``0-19,40`` (ranges inclusive).

    Raises:
        ValueError: a part is not a number or a range of numbers.

    Example:
        >>> family_numbers("0-2,40")
        [0, 1, 2, 40]
    """
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def split_of(family_number: int) -> str:
    """``"holdout"`` for every fourth family (numbers 3, 7, 11...), else ``"tune"``.

    Example:
        >>> [split_of(n) for n in range(5)]
        ['tune', 'tune', 'tune', 'holdout', 'tune']
    """
    return "holdout" if family_number % HOLDOUT_EVERY == HOLDOUT_EVERY - 1 else "tune"


@dataclass(frozen=True)
class BlockPlan:
    """A block to place: id, colour, footprint centre (mm), angle, level, what it rests on."""

    id: str
    colour: str
    centre: tuple[float, float]
    angle: float
    level: int = 1
    rests_on: tuple[str, ...] = ()
    size: tuple[float, float, float] = (40.0, 40.0, 40.0)

    @property
    def bottom(self) -> float:
        """Height of the bottom face above the table (mm)."""
        return (self.level - 1) * self.size[2]

    @property
    def top(self) -> float:
        """Height of the top face above the table (mm)."""
        return self.level * self.size[2]

    def top_corners(self) -> np.ndarray:
        """The top face's corners (4, 3) in the table frame (z = -top)."""
        t = math.radians(self.angle)
        c, s = math.cos(t), math.sin(t)
        hx, hy = self.size[0] / 2, self.size[1] / 2
        pts = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        return np.array([[self.centre[0] + c * x - s * y, self.centre[1] + s * x + c * y,
                          -self.top] for x, y in pts])

    def engine_block(self) -> Block:
        """The engine's :class:`Block` (footprint in the table frame, height, rests_on)."""
        return Block.square(self.id, self.colour, self.centre, self.size[:2], self.angle,
                            self.size[2], self.rests_on)


@dataclass(frozen=True)
class PawnPlan:
    """A pawn on a block: colour, block id, offset of its base from the block's centre (mm)."""

    colour: str
    block: str
    offset: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class HandPlan:
    """An arm reaching over the table.

    Attributes:
        entry: where the arm comes from, ``(x, y)`` mm, outside the play area.
        target: the point (x, y) mm the fingertips reach toward.
        height: height of the palm above the table (mm).
        skin: linear RGB of the skin.
        sleeve: linear RGB of a sleeve, or None for a bare arm.
        spread: finger spread (0 closed .. 1 open).
        curl: finger curl (0 straight .. 1 curled).
    """

    entry: tuple[float, float]
    target: tuple[float, float]
    height: float
    skin: tuple[float, float, float]
    sleeve: tuple[float, float, float] | None
    spread: float
    curl: float


@dataclass(frozen=True)
class LightPlan:
    """The lighting rig of a family (all positions in the table frame, mm; z up is -z)."""

    name: str
    params: dict[str, Any]


@dataclass(frozen=True)
class ImagePlan:
    """One image of a family: what stands on the table, whether a hand is in view."""

    role: str
    blocks: tuple[BlockPlan, ...]
    pawns: tuple[PawnPlan, ...]
    hand: HandPlan | None = None
    action: dict[str, Any] | None = None


@dataclass(frozen=True)
class FamilyPlan:
    """A family of images sharing field, camera, light and table."""

    number: int
    seed: int
    camera: CameraTruth
    layout: TableLayout
    light: LightPlan
    table: dict[str, Any]
    markers: dict[int, dict[str, Any]]
    images: dict[str, ImagePlan]
    kind: str
    block_rgb: dict[str, tuple[float, float, float]] = field(default_factory=dict)

    @property
    def family(self) -> str:
        """The family's name, e.g. ``f012``."""
        return f"f{self.number:03d}"

    @property
    def split(self) -> str:
        """``tune`` or ``holdout``."""
        return split_of(self.number)

    @property
    def blocks(self) -> tuple[BlockPlan, ...]:
        """The blocks of the ``before`` image."""
        return self.images["before"].blocks


def srgb_to_linear(v: np.ndarray | float) -> np.ndarray:
    """IEC 61966-2-1 decoding of sRGB values in 0..1."""
    a = np.asarray(v, np.float64)
    return np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4)


def touching_pairs(blocks: Sequence[BlockPlan]) -> list[tuple[str, str]]:
    """Touching pairs by the engine's rule (side by side within 2 mm, or resting on)."""
    fld = build_field([b.engine_block() for b in blocks])
    pairs = {tuple(sorted((a, b))) for a in fld.by_id for b in fld.neighbours(a)}
    return sorted(pairs)  # type: ignore[arg-type]


def edge_only_pairs(blocks: Sequence[BlockPlan]) -> list[tuple[str, str]]:
    """Touching pairs that meet only along an edge or at a corner.

    These are the engine's *ambiguous* contacts, where its contacts module tells them apart
    (an empty list otherwise).
    """
    from companion.games.infinifield.contacts import near_pairs

    near = near_pairs([b.engine_block() for b in blocks])
    return sorted(tuple(sorted((p.first, p.second)))  # type: ignore[misc]
                  for p in near if p.touching and getattr(p, "edge_only", False))


def _gaps(rng: random.Random, n: int, touch_share: float) -> list[float]:
    """Gaps between grid neighbours: touching (0.6-1.2 mm) or clearly apart (13-20 mm)."""
    return [rng.uniform(0.6, 1.2) if rng.random() < touch_share
            else rng.uniform(INCH_MM / 2 + 0.5, 20.0) for _ in range(n - 1)]


def _clear_of_markers(pts: np.ndarray, layout: TableLayout, paper: float) -> bool:
    """Whether footprint corners stay on the play area and off the markers' paper."""
    m = 6.0
    if (pts[:, 0] < m).any() or (pts[:, 0] > layout.width_mm - m).any():
        return False
    if (pts[:, 1] < m).any() or (pts[:, 1] > layout.height_mm - m).any():
        return False
    keep = layout.marker_margin_mm + layout.marker_mm + paper + 4.0
    for x, y in pts[:, :2]:
        near_x = x < keep or x > layout.width_mm - keep
        near_y = y < keep or y > layout.height_mm - keep
        if near_x and near_y:
            return False
    return True


def _colours(rng: random.Random, n: int) -> list[str]:
    pool = [c for c, k in BLOCK_COUNTS.items() for _ in range(k)]
    first = ["white", "yellow", "red", "blue"]
    for c in first:
        pool.remove(c)
    rng.shuffle(pool)
    chosen = first + pool[: n - len(first)]
    rng.shuffle(chosen)
    return chosen


def _connected(ids: Sequence[str], pairs: Sequence[tuple[str, str]]) -> bool:
    adj: dict[str, set[str]] = {i: set() for i in ids}
    for a, b in pairs:
        adj[a].add(b)
        adj[b].add(a)
    seen = {ids[0]}
    todo = [ids[0]]
    while todo:
        for nb in adj[todo.pop()]:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(ids)


def plan_field(rng: random.Random, layout: TableLayout, stacked: bool,
               level_study: bool = False, levels_clear: bool = False
               ) -> tuple[BlockPlan, ...]:
    """A connected field on a turned grid; ``stacked`` adds 1-4 blocks on top of others.

    ``level_study`` (with ``stacked``) adds 5-8 instead, half of them towers: many
    second-level tops per render, for the level network's training data.

    Neighbours either touch (0.6-1.2 mm apart) or stand clearly apart (13-20 mm); each block
    is turned up to 0.6 degrees from the grid (hands place them), so touching faces stay
    within the engine's 2 mm. A stacked block bridges two touching blocks (half on each) or
    stands on one (a tower), as in infinifield.md pictures 1-2.

    ``levels_clear`` (families from :data:`LEVELS_CLEAR_FROM`) plans stacks as a builder
    following the official rules does: a bridge set down by hand, off its supports' middle
    by up to :data:`BRIDGE_OFF_MM` along them, and every pair a level apart either meeting
    (within the engine's 2 mm) or clearly apart, as pairs on one level always were
    (:func:`_levels_clear`).
    """
    side = layout.block_mm
    for _attempt in range(400):
        cols, rows = rng.choice([(6, 5), (7, 4), (5, 5), (6, 4), (7, 5)])
        xs, ys = [0.0], [0.0]
        for g in _gaps(rng, cols, rng.uniform(0.55, 0.85)):
            xs.append(xs[-1] + side + g)
        for g in _gaps(rng, rows, rng.uniform(0.55, 0.85)):
            ys.append(ys[-1] + side + g)
        n_top = (rng.randint(5, 8) if level_study else rng.randint(1, 4)) if stacked else 0
        n = rng.randint(12, 24 - n_top) if not stacked else rng.randint(12, 22 - n_top)
        n = min(n, cols * rows)
        angle = rng.uniform(-25.0, 25.0) if rng.random() < 0.7 else rng.uniform(-4.0, 4.0)
        t = math.radians(angle)
        cx0, cy0 = xs[-1] / 2, ys[-1] / 2
        mid = (layout.width_mm / 2 + rng.uniform(-40, 40),
               layout.height_mm / 2 + rng.uniform(-25, 25))
        # grow a connected shape over the grid cells
        cells = [(rng.randrange(cols), rng.randrange(rows))]
        while len(cells) < n:
            c, r = rng.choice(cells)
            dc, dr = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
            nc = (c + dc, r + dr)
            if 0 <= nc[0] < cols and 0 <= nc[1] < rows and nc not in cells:
                cells.append(nc)
        cols_used = sorted(cells)
        colours = _colours(rng, n + n_top)
        counters: dict[str, int] = {}
        blocks: list[BlockPlan] = []
        for (c, r), colour in zip(cols_used, colours[:n], strict=True):
            lx, ly = xs[c] + side / 2 - cx0 - side / 2, ys[r] + side / 2 - cy0 - side / 2
            x = mid[0] + lx * math.cos(t) - ly * math.sin(t) + rng.uniform(-0.3, 0.3)
            y = mid[1] + lx * math.sin(t) + ly * math.cos(t) + rng.uniform(-0.3, 0.3)
            counters[colour] = counters.get(colour, 0) + 1
            blocks.append(BlockPlan(f"{colour[0].upper()}{counters[colour]}", colour,
                                    (x, y), angle + rng.uniform(-0.6, 0.6)))
        if not all(_clear_of_markers(b.top_corners(), layout, PAPER_MAX_MM) for b in blocks):
            continue
        pairs = plan_touching(blocks)
        if not _connected([b.id for b in blocks], pairs):
            continue
        if stacked:
            tops = _stack(rng, blocks, pairs, colours[n:], counters, angle,
                          TOWER_SHARE_STUDY if level_study else TOWER_SHARE, levels_clear)
            if len(tops) < n_top:
                continue
            blocks += tops
        if not _unambiguous(blocks) or (levels_clear and not _levels_clear(blocks)):
            continue
        return tuple(blocks)
    raise RuntimeError("could not plan a field in 400 attempts")


TOWER_SHARE = 0.3
"""Share of the blocks of level 2 that stand on one block (the rest bridge two)."""

TOWER_SHARE_STUDY = 0.7
"""The same in a level study's fields (towers are the level cues' hard case)."""


SET_DOWN_TRIES = 30
"""How often a builder following the rules sets a top down again (:func:`_stack`)."""

BRIDGE_OFF_MM = 1.5
"""How far (mm, either way) a builder following the rules sets a bridge off its supports'
middle along them (:func:`plan_field`'s ``levels_clear``). infinifield.md, "Build the field"
step 1 (and the official rules): every block keeps room on its top for a pawn (18 mm
across, ``PAWN_DIAMETER_MM``); a bridge half on each of two 40 mm blocks leaves each 20 mm,
so it may sit 2 mm off their middle at most, less the 0.35 mm a degree of turn takes."""

LEVELS_CLEAR_FROM = 700
"""Families from this number on plan stacks with ``levels_clear`` (:func:`plan_field`); the
earlier ones keep their first plans, so the shipped images still match them."""


def _stack(rng: random.Random, blocks: list[BlockPlan], pairs: Sequence[tuple[str, str]],
           colours: Sequence[str], counters: dict[str, int], angle: float,
           tower_share: float = TOWER_SHARE, levels_clear: bool = False) -> list[BlockPlan]:
    """Blocks of level 2 on touching pairs (bridges) or single blocks (towers).

    With ``levels_clear`` a bridge's centre is moved from its supports' midpoint along them
    by up to :data:`BRIDGE_OFF_MM` either way, and a top is set down again (up to
    :data:`SET_DOWN_TRIES` times, as a builder squares it up) until it meets each block a
    level below beside it along an edge or stands clearly apart (:func:`_levels_clear`);
    one that never does is left off. Without it the draws are the first plans' own.
    """
    by_id = {b.id: b for b in blocks}
    used: set[str] = set()
    tops: list[BlockPlan] = []
    candidates = list(pairs)
    rng.shuffle(candidates)

    def set_down(draw: Callable[[], BlockPlan]) -> BlockPlan | None:
        for _try in range(SET_DOWN_TRIES if levels_clear else 1):
            top = draw()
            if not levels_clear or _levels_clear([*blocks, top]):
                return top
        return None

    for colour in colours:
        counters[colour] = counters.get(colour, 0) + 1
        bid = f"{colour[0].upper()}{counters[colour]}"
        if rng.random() < 1.0 - tower_share:
            for a, b in candidates:
                if a in used or b in used:
                    continue
                if math.dist(by_id[a].centre, by_id[b].centre) > 42.0:
                    continue
                top = set_down(partial(_bridge, rng, bid, colour, (by_id[a], by_id[b]), angle,
                                       BRIDGE_OFF_MM if levels_clear else 0.0))
                if top is None:
                    continue
                used |= {a, b}
                tops.append(top)
                break
            else:
                continue
        else:
            # (in a study's crowded stacks, towers apart from other tops: turned by up to 4
            # degrees, a tower beside a top of its level would make the field ambiguous)
            free = [b for b in blocks if b.id not in used and (
                tower_share == TOWER_SHARE or all(math.dist(b.centre, o.centre) > 60.0
                                                  for o in tops))]
            if not free:
                continue
            base = rng.choice(free)
            top = set_down(partial(_tower, rng, bid, colour, base))
            if top is None:
                continue
            used.add(base.id)
            tops.append(top)
    # a block resting on others should not touch side by side blocks at its level
    return tops


def _bridge(rng: random.Random, bid: str, colour: str, supports: tuple[BlockPlan, BlockPlan],
            angle: float, off_mm: float) -> BlockPlan:
    """A block half on each of two supports, turned up to a degree from the field's grid.

    Its centre is off their middle along them by up to ``off_mm`` either way (no draw
    when 0).
    """
    (ca, cb), (a, b) = (s.centre for s in supports), (s.id for s in supports)
    along = rng.uniform(-off_mm, off_mm) / math.dist(ca, cb) if off_mm else 0.0
    return BlockPlan(bid, colour, ((ca[0] + cb[0]) / 2 + along * (cb[0] - ca[0]),
                                   (ca[1] + cb[1]) / 2 + along * (cb[1] - ca[1])),
                     angle + rng.uniform(-1.0, 1.0), 2, (a, b))


def _tower(rng: random.Random, bid: str, colour: str, base: BlockPlan) -> BlockPlan:
    """A block on one, set down by hand: up to 2 mm off its centre, 4 degrees off square."""
    return BlockPlan(bid, colour, (base.centre[0] + rng.uniform(-2, 2),
                                   base.centre[1] + rng.uniform(-2, 2)),
                     base.angle + rng.uniform(-4.0, 4.0), 2, (base.id,))


def grid_gap(a: BlockPlan, b: BlockPlan) -> tuple[float, float, str]:
    """Gap between two blocks' outlines and how far their facing sides run together.

    Measured in the frame of their mean angle (the blocks of a field share one grid), so it
    is exact for aligned blocks and within a few tenths of a millimetre for the small turns
    the planner uses. Returns ``(gap, flush, side)``: ``gap`` negative when they overlap,
    ``flush`` 0 when only corners meet, ``side`` the direction from ``a`` to ``b``
    (``+u``, ``-u``, ``+v``, ``-v``).

    Example:
        >>> a = BlockPlan("W1", "white", (0.0, 0.0), 0.0)
        >>> grid_gap(a, BlockPlan("Y1", "yellow", (41.0, 10.0), 0.0))
        (1.0, 30.0, '+u')
    """
    t = math.radians((a.angle + b.angle) / 2)
    dx, dy = b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]
    u = dx * math.cos(t) + dy * math.sin(t)
    v = -dx * math.sin(t) + dy * math.cos(t)
    s = (a.size[0] + b.size[0]) / 2
    gu, gv = abs(u) - s, abs(v) - s
    if gu > 0 and gv > 0:
        return math.hypot(gu, gv), 0.0, ("+u" if u > 0 else "-u") if gu > gv \
            else ("+v" if v > 0 else "-v")
    if gu >= gv:
        return gu, s - abs(v), "+u" if u > 0 else "-u"
    return gv, s - abs(u), "+v" if v > 0 else "-v"


def plan_touching(blocks: Sequence[BlockPlan]) -> list[tuple[str, str]]:
    """Pairs whose faces meet, or that rest one on the other: the planner's own fixed rule.

    Faces meet when the blocks are on one level, within 2 mm and flush for 3 mm or more.
    The planner never asks the engine, so a family's plan cannot change when the engine's
    contact rules do; the ground truth's ``touching`` is the engine's.
    """
    out = {tuple(sorted((b.id, r))) for b in blocks for r in b.rests_on}
    for i, a in enumerate(blocks):
        for b in blocks[i + 1:]:
            if a.level != b.level:
                continue
            gap, flush, _side = grid_gap(a, b)
            if gap <= 2.0 and flush >= 3.0:
                out.add(tuple(sorted((a.id, b.id))))
    return sorted(out)  # type: ignore[arg-type]


def _unambiguous(blocks: Sequence[BlockPlan]) -> bool:
    """No two blocks of one level overlap or stand in the unclear 2-12.7 mm band."""
    for i, a in enumerate(blocks):
        for b in blocks[i + 1:]:
            if a.level != b.level:
                continue
            gap, _flush, _side = grid_gap(a, b)
            if gap < -0.3 or 2.0 < gap < INCH_MM / 2:
                return False
            if gap < INCH_MM / 2 and abs(a.angle - b.angle) > 1.5:
                return False
    return True


def outline_clearance(a: BlockPlan, b: BlockPlan) -> float:
    """The exact distance (mm) between two blocks' footprints; negative when they overlap.

    Overlapping footprints give minus the depth of the overlap (the least push that parts
    them, over both squares' side directions); apart, the least distance from a corner of
    one to a side of the other.

    Example:
        >>> a = BlockPlan("W1", "white", (0.0, 0.0), 0.0)
        >>> round(outline_clearance(a, BlockPlan("Y1", "yellow", (42.5, 0.0), 0.0)), 3)
        2.5
        >>> float(round(outline_clearance(a, BlockPlan("Y1", "yellow", (39.0, 0.0), 0.0)), 3))
        -1.0
    """
    pa, pb = a.top_corners()[:, :2], b.top_corners()[:, :2]
    depth = math.inf
    for poly in (pa, pb):
        for k in range(4):
            edge = poly[(k + 1) % 4] - poly[k]
            axis = np.array([-edge[1], edge[0]]) / float(np.hypot(*edge))
            ra, rb = pa @ axis, pb @ axis
            push = min(ra.max() - rb.min(), rb.max() - ra.min())
            if push <= 0.0:
                depth = -1.0
                break
            depth = min(depth, push)
        if depth < 0.0:
            break
    if depth > 0.0:
        return -float(depth)
    best = math.inf
    for p, q in ((pa, pb), (pb, pa)):
        for corner in p:
            for k in range(4):
                s0, s1 = q[k], q[(k + 1) % 4]
                seg = s1 - s0
                t = float(np.clip((corner - s0) @ seg / (seg @ seg), 0.0, 1.0))
                best = min(best, float(np.hypot(*(corner - s0 - t * seg))))
    return float(best)


def _levels_clear(blocks: Sequence[BlockPlan]) -> bool:
    """No two blocks a level apart (neither on the other) stand in the unclear band.

    infinifield.md, official field-building rules: blocks not meant to touch are placed
    "clearly apart (half-inch or more)". A block a level up meets one a level down beside
    its support along an edge (within the engine's 2 mm) or stands clearly apart from it;
    nor does it hang over that block's top (it would rest on it).
    """
    for i, a in enumerate(blocks):
        for b in blocks[i + 1:]:
            if abs(a.level - b.level) != 1 or a.id in b.rests_on or b.id in a.rests_on:
                continue
            gap = outline_clearance(a, b)
            if gap < -0.3 or 2.0 < gap < INCH_MM / 2:
                return False
    return True


def plan_removable(blocks: Sequence[BlockPlan], occupied: set[str]) -> list[str]:
    """Blocks one may remove (infinifield.md, Chase-and-capture 7), by the planner's rule.

    Not one with a block on it or a pawn on it, not one whose removal splits the field, not
    one whose four sides are all closed by neighbours of its level.
    """
    covered = {r for b in blocks for r in b.rests_on}
    pairs = plan_touching(blocks)
    out = []
    for b in blocks:
        if b.id in covered or b.id in occupied:
            continue
        rest = [x.id for x in blocks if x.id != b.id]
        if not _connected(rest, [p for p in pairs if b.id not in p]):
            continue
        sides = {grid_gap(b, o)[2] for o in blocks if o.id != b.id and o.level == b.level
                 and grid_gap(b, o)[0] <= 2.0 and grid_gap(b, o)[1] >= 3.0}
        if len(sides) == 4:
            continue
        out.append(b.id)
    return sorted(out)


def _pawns(rng: random.Random, blocks: Sequence[BlockPlan], count: int) -> list[PawnPlan]:
    covered = {r for b in blocks for r in b.rests_on}
    free = [b for b in blocks if b.id not in covered]
    whites = [b for b in free if b.colour == "white"]
    out: list[PawnPlan] = []
    taken: set[str] = set()
    for colour in rng.sample(PAWN_COLOURS, count):
        pool = [b for b in (whites if rng.random() < 0.5 else free) if b.id not in taken]
        pool = pool or [b for b in free if b.id not in taken]
        if not pool:
            break
        b = rng.choice(pool)
        taken.add(b.id)
        out.append(PawnPlan(colour, b.id, (rng.uniform(-4, 4), rng.uniform(-4, 4))))
    return out


def plan_camera(rng: random.Random, layout: TableLayout, size: tuple[int, int],
                markers: dict[int, dict[str, Any]]) -> CameraTruth:
    """A camera on a stand 45-100 cm up, 60-70 degree lens, small tilt and roll.

    The pose is drawn again until all four markers with their paper lie at least 12 px
    inside the image.
    """
    w, h = size
    for _attempt in range(2000):
        height = rng.uniform(450.0, 1000.0)
        hfov = rng.uniform(60.0, 70.0)
        f = w / 2 / math.tan(math.radians(hfov) / 2)
        k1 = rng.uniform(-0.30, -0.06)
        k2 = rng.uniform(0.0, 0.12) if k1 < -0.15 else rng.uniform(-0.02, 0.06)
        dist = np.array([k1, k2, rng.uniform(-8e-4, 8e-4), rng.uniform(-8e-4, 8e-4), 0.0])
        fx = f * rng.uniform(0.998, 1.002)
        cx = (w - 1) / 2 + rng.uniform(-0.012, 0.012) * w
        cy = (h - 1) / 2 + rng.uniform(-0.012, 0.012) * h
        K = np.array([[fx, 0, cx], [0, f, cy], [0, 0, 1.0]])
        tilt = math.radians(rng.uniform(0.0, 12.0) if rng.random() < 0.8
                            else rng.uniform(0.0, 3.0))
        az = rng.uniform(0, 2 * math.pi)
        d = np.array([math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)])
        target = np.array([layout.width_mm / 2 + rng.uniform(-30, 30),
                           layout.height_mm / 2 + rng.uniform(-25, 25), 0.0])
        centre = target - d * height / math.cos(tilt)
        R = look_at_rotation(d, rng.uniform(-4.0, 4.0))
        tvec = -R @ centre
        cam = CameraTruth(size, K, dist, cv2.Rodrigues(R)[0].reshape(3), tvec)
        paper = np.concatenate([m["paper_mm"] for m in markers.values()])
        px = cam.project(paper)
        if not _distortion_monotonic(cam):
            continue
        if (px[:, 0] > 12).all() and (px[:, 0] < w - 13).all() and \
                (px[:, 1] > 12).all() and (px[:, 1] < h - 13).all():
            return cam
    raise RuntimeError("no camera pose keeps the markers in view")


def _distortion_monotonic(cam: CameraTruth) -> bool:
    """Radial distortion must keep growing out to beyond the image's corners."""
    k1, k2 = float(cam.dist[0]), float(cam.dist[1])
    w, h = cam.size
    r_max = 1.3 * math.hypot(w / 2, h / 2) / float(cam.K[0, 0])
    r = np.linspace(0, r_max, 64)
    return bool((1 + 3 * k1 * r**2 + 5 * k2 * r**4 > 0.3).all())


def plan_markers(rng: random.Random, layout: TableLayout) -> dict[int, dict[str, Any]]:
    """The four printed markers: corners, and the paper cut around each (uneven margins)."""
    out: dict[int, dict[str, Any]] = {}
    for mid in layout.marker_ids:
        corners = np.array([[x, y, 0.0] for x, y in layout.marker_corners_mm(mid)])
        left, top, right, bottom = (rng.uniform(PAPER_MIN_MM, PAPER_MAX_MM) for _ in range(4))
        x0, y0 = corners[0, :2]
        s = layout.marker_mm
        paper = np.array([[x0 - left, y0 - top, 0.0], [x0 + s + right, y0 - top, 0.0],
                          [x0 + s + right, y0 + s + bottom, 0.0],
                          [x0 - left, y0 + s + bottom, 0.0]])
        out[mid] = {"corners_mm": corners, "paper_mm": paper,
                    "margins_mm": (left, top, right, bottom)}
    return out


def _kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """Approximate linear RGB of a black body (normalised to max 1), 1000-12000 K."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = (99.4708025861 * math.log(t) - 161.1195681661) if t <= 66 \
        else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10)
                               - 305.0447927307)
    srgb = np.clip(np.array([r, g, b]) / 255.0, 0, 1)
    lin = srgb_to_linear(srgb)
    return tuple(float(v) for v in lin / lin.max())  # type: ignore[return-value]


def plan_light(rng: random.Random, name: str, layout: TableLayout) -> LightPlan:
    """Parameters of a lighting rig (``ceiling``, ``window``, ``lamp``, mixes, ``dim``)."""
    cx, cy = layout.width_mm / 2, layout.height_mm / 2
    p: dict[str, Any] = {"ambient": rng.uniform(0.04, 0.12),
                         "ambient_rgb": _kelvin_rgb(rng.uniform(4500, 7000))}
    if name in ("ceiling", "ceiling+lamp", "dim"):
        p["ceiling"] = {
            "pos": (cx + rng.uniform(-600, 600), cy + rng.uniform(-600, 600),
                    -rng.uniform(1500, 2300)),
            "size": (rng.uniform(300, 1200), rng.uniform(300, 1200)),
            "power": rng.uniform(250, 420) * (0.3 if name == "dim" else 1.0),
            "rgb": _kelvin_rgb(rng.uniform(3500, 5500))}
    if name in ("window", "window+lamp"):
        elev = math.radians(rng.uniform(22, 55))
        az = rng.uniform(0, 2 * math.pi)
        p["sun"] = {"dir": (math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az),
                            math.sin(elev)),
                    "strength": rng.uniform(2.0, 3.5), "angle_deg": rng.uniform(0.5, 1.5),
                    "rgb": _kelvin_rgb(rng.uniform(5200, 6500)),
                    "frame": rng.random() < 0.6, "frame_offset": rng.uniform(0, 300),
                    "frame_pitch": rng.uniform(280, 450)}
        p["sky"] = {"power": rng.uniform(150, 400), "rgb": _kelvin_rgb(rng.uniform(7000, 10000))}
        p["ambient"] *= 0.7
    if name in ("lamp", "ceiling+lamp", "window+lamp"):
        side = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(350, 650)
        p["lamp"] = {"pos": (cx + dist * math.cos(side), cy + dist * math.sin(side),
                             -rng.uniform(350, 700)),
                     "radius": rng.uniform(8, 30),
                     "power": rng.uniform(25, 45) * (0.6 if name != "lamp" else 1.0),
                     "rgb": _kelvin_rgb(rng.uniform(2600, 3200))}
        if name == "lamp":
            p["ambient"] *= 1.3
            p["ambient_rgb"] = _kelvin_rgb(rng.uniform(3000, 4000))
    if name == "dim":
        p["ambient"] *= 0.5
    return LightPlan(name, p)


def plan_table(rng: random.Random, layout: TableLayout) -> dict[str, Any]:
    """The mat under the play area and the wooden table around it."""
    base = np.array(DEFAULT_BGR["table"][2][::-1], np.float64) / 255.0
    tints = [base, np.array([0.30, 0.32, 0.33]), np.array([0.22, 0.30, 0.26]),
             np.array([0.24, 0.27, 0.36]), np.array([0.36, 0.33, 0.30])]
    tint = tints[0] if rng.random() < 0.5 else rng.choice(tints[1:])
    tint = np.clip(tint * rng.uniform(0.85, 1.15), 0, 1)
    ext = [rng.uniform(25, 140) for _ in range(4)]
    return {"mat_rgb": tuple(float(v) for v in srgb_to_linear(tint)),
            "mat_rect": (-ext[0], -ext[1], layout.width_mm + ext[2], layout.height_mm + ext[3]),
            "mat_roughness": rng.uniform(0.75, 0.95), "mat_scale": rng.uniform(0.6, 1.6),
            "wood_rgb": tuple(float(v) for v in srgb_to_linear(
                np.array(rng.choice([(0.55, 0.40, 0.26), (0.40, 0.27, 0.17),
                                     (0.68, 0.55, 0.40), (0.30, 0.21, 0.15)]))
                * rng.uniform(0.85, 1.1))),
            "wood_angle": rng.uniform(0, 180), "seed": rng.randrange(10_000)}


def block_colour(rng: random.Random, colour: str) -> tuple[float, float, float]:
    """Linear RGB albedo of one block: the palette colour with a little variation."""
    bgr = np.array(DEFAULT_BGR[colour][2], np.float64) / 255.0
    rgb = bgr[::-1]
    hsv = cv2.cvtColor(rgb.astype(np.float32).reshape(1, 1, 3), cv2.COLOR_RGB2HSV).reshape(3)
    hsv[0] = (hsv[0] + rng.uniform(-3, 3)) % 360
    hsv[1] = float(np.clip(hsv[1] * rng.uniform(0.9, 1.05), 0, 1))
    hsv[2] = float(np.clip(hsv[2] * rng.uniform(0.9, 1.04), 0, 1))
    out = cv2.cvtColor(hsv.reshape(1, 1, 3), cv2.COLOR_HSV2RGB).reshape(3)
    lin = srgb_to_linear(np.clip(out, 0, 1)) * (0.92 if colour == "white" else 1.0)
    return tuple(float(v) for v in lin)  # type: ignore[return-value]


SKIN_SRGB = ((0.95, 0.80, 0.70), (0.90, 0.72, 0.60), (0.80, 0.60, 0.47), (0.65, 0.46, 0.34),
             (0.48, 0.33, 0.24), (0.34, 0.23, 0.17))


def plan_hand(rng: random.Random, layout: TableLayout, target: tuple[float, float]
              ) -> HandPlan:
    """An arm entering from the near side or a side of the table toward ``target``."""
    side = rng.choice(["near", "near", "left", "right", "far"])
    w, h = layout.width_mm, layout.height_mm
    if side == "near":
        entry = (rng.uniform(0.2 * w, 0.9 * w), h + 300)
    elif side == "far":
        entry = (rng.uniform(0.2 * w, 0.8 * w), -300.0)
    elif side == "left":
        entry = (-300.0, rng.uniform(0.3 * h, 1.0 * h))
    else:
        entry = (w + 300, rng.uniform(0.3 * h, 1.0 * h))
    skin = srgb_to_linear(np.array(rng.choice(SKIN_SRGB)) * rng.uniform(0.95, 1.05))
    sleeve: tuple[float, float, float] | None = None
    if rng.random() < 0.6:
        r, g, b = (float(v) for v in srgb_to_linear(np.array(
            [rng.uniform(0.05, 0.85) for _ in range(3)])))
        sleeve = (r, g, b)
    return HandPlan(entry, target, rng.uniform(70, 190),
                    tuple(float(v) for v in np.clip(skin, 0, 1)),  # type: ignore[arg-type]
                    sleeve, rng.uniform(0.1, 0.9), rng.uniform(0.0, 0.6))


def plan_family(number: int, size: tuple[int, int] | None = None,
                layout: TableLayout | None = None, level_study: bool = False) -> FamilyPlan:
    """The family ``number``: fixed seed, lighting cycled, stacked every third or so.

    Args:
        number: family number (``f{number:03d}``); seeds everything.
        size: image size; default 1280x960 for every tenth family (4, 14, ...) and for
            families 80-87 (so that the held-out 83 and 87 have the larger size), else 640x480.
        layout: the table; default :class:`TableLayout`.
        level_study: a stacked field with 5-8 blocks on others (:func:`plan_field`) and
            its set-up image alone, whatever the number: training data for the level
            network (not a test family: render it into a folder of its own), 640x480
            unless ``size`` says otherwise.
    """
    seed = 12_000 + number
    rng = random.Random(seed)
    layout = layout or TableLayout()
    size = size or ((1280, 960) if not level_study and (number % 10 == 4 or 80 <= number < 88)
                    else (640, 480))
    light_name = LIGHTINGS[number % len(LIGHTINGS)]
    stacked = level_study or number % 5 in (1, 3)
    blocks = plan_field(rng, layout, stacked, level_study,
                        levels_clear=number >= LEVELS_CLEAR_FROM and not level_study)
    action_kind = ("remove", "move", "remove", "none")[number % 4] if number % 7 != 6 else "none"
    pawns = _pawns(rng, blocks, rng.randint(2, 4) if action_kind == "move" or number % 3 == 0
                   else rng.randint(0, 4))
    markers = plan_markers(rng, layout)
    camera = plan_camera(rng, layout, size, markers)
    light = plan_light(rng, light_name, layout)
    table = plan_table(rng, layout)
    block_rgb = {b.id: block_colour(rng, b.colour) for b in blocks}
    images = {"before": ImagePlan("before", blocks, tuple(pawns))}
    after = _after(rng, blocks, tuple(pawns), action_kind)
    if after is not None:
        images["after"] = after
    if number % 5 in (0, 3) or number % 7 == 6:
        target_block = rng.choice(blocks)
        if after is not None and after.action is not None:
            key = "block" if after.action["kind"] == "remove" else "to"
            target_block = next(b for b in blocks if b.id == after.action[key])
        hand = plan_hand(rng, layout, (target_block.centre[0] + rng.uniform(-30, 30),
                                       target_block.centre[1] + rng.uniform(-30, 30)))
        images["hand"] = ImagePlan("hand", blocks, tuple(pawns), hand)
    if after is None and split_of(number) == "holdout":
        # Held-out families must have before/after pairs too. Drawn from a separate generator
        # after everything else, so that the family's other images stay as first rendered.
        extra = random.Random(seed + 500_000)
        late = _after(extra, blocks, tuple(pawns), "remove" if number // 4 % 2 == 0 else "move")
        if late is not None:
            images["after"] = late
    if stacked and not level_study:
        # the field's first level alone, before the builder stacked on it (no pawns yet):
        # what a camera watching the building saw; drawn from nothing, so nothing else moves
        images["ground"] = ImagePlan("ground", tuple(b for b in blocks if b.level == 1), ())
    if level_study:
        images = {"before": images["before"]}
    return FamilyPlan(number, seed, camera, layout, light, table, markers, images,
                      "stacked" if stacked else "flat", block_rgb)


def _after(rng: random.Random, blocks: tuple[BlockPlan, ...], pawns: tuple[PawnPlan, ...],
           kind: str) -> ImagePlan | None:
    """The ``after`` image: a legal removal or a pawn move to a neighbour (planner's rules)."""
    pairs = plan_touching(blocks)
    occupied = {p.block for p in pawns}
    if kind == "remove":
        options = plan_removable(blocks, occupied)
        if not options:
            kind = "move"
        else:
            gone = rng.choice(options)
            return ImagePlan("after", tuple(b for b in blocks if b.id != gone), pawns,
                             action={"kind": "remove", "block": gone})
    if kind == "move" and pawns:
        covered = {r for b in blocks for r in b.rests_on}
        for p in rng.sample(list(pawns), len(pawns)):
            near = sorted({x for pair in pairs if p.block in pair for x in pair} - {p.block})
            dests = [n for n in near if n not in occupied and n not in covered]
            if dests:
                to = rng.choice(dests)
                moved = replace(p, block=to, offset=(rng.uniform(-4, 4), rng.uniform(-4, 4)))
                return ImagePlan("after", blocks,
                                 tuple(moved if q is p else q for q in pawns),
                                 action={"kind": "move", "pawn": p.colour, "from": p.block,
                                         "to": to})
    return None
