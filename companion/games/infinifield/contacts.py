"""Which blocks touch, from their footprints and heights, with the documented tolerances.

One rule, in three dimensions: two blocks *touch* when one rests on the other, or when their
solids come within :data:`TOUCH_TOLERANCE_MM` of each other anywhere, whether along a face,
along an edge or at a corner. Side by side (heights overlapping by more than
:data:`LEVEL_TOLERANCE_MM`) the distance is the gap between the footprints, so two blocks
meeting only at a corner in plan touch; at different levels it also counts the height between
them, so a stacked block whose bottom edge meets the top edge of a table-level block beside its
support touches that block too. Blocks :data:`CLEAR_GAP_MM` (half an inch) or more apart
never touch; a distance between the two tolerances is *unclear*, and a contact only along an
edge or at a corner is *ambiguous*: the official field-building rules report both ("place
them clearly apart"), so the builder decides (move them, or list the touching pairs).

Near pairs are found with a uniform grid (spatial hash), so a field of 10,000 blocks is
handled in linear time.

Example:
    >>> from companion.games.infinifield.blocks import Block
    >>> blocks = [Block.square("W1", "white", (0, 0)), Block.square("Y1", "yellow", (40, 0)),
    ...           Block.square("R1", "red", (120, 0))]
    >>> [(c.first, c.second, c.gap) for c in near_pairs(blocks)]
    [('W1', 'Y1', 0.0)]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.infinifield.blocks import Block
from companion.games.infinifield.geometry import bounding_box, contact_length, gap, side_span

TOUCH_TOLERANCE_MM = 2.0
"""Footprints this close (or overlapping by up to :data:`OVERLAP_TOLERANCE_MM`) touch."""

OVERLAP_TOLERANCE_MM = 2.0
"""Side-by-side footprints overlapping deeper than this are an impossible layout."""

CLEAR_GAP_MM = 12.7
"""Half an inch: blocks at least this far apart clearly do not touch."""

LEVEL_TOLERANCE_MM = 1.0
"""Blocks whose heights overlap by less than this are on different levels (one on top)."""

SIDE_CONTACT_MM = 3.0
"""Outlines flush for less than this length meet only at a corner (an ambiguous contact)."""

MOST_OF_SIDE = 0.5
"""A side of a block is covered when neighbours run along more than this share of it."""


@dataclass(frozen=True)
class NearPair:
    """Two footprints closer than :data:`CLEAR_GAP_MM`, side by side or one above the other.

    Attributes:
        first: the block listed first in the field.
        second: the other block.
        gap: signed clearance in mm (negative: the footprints overlap by that depth).
        side_by_side: whether their heights overlap (same level), so their faces meet.
    """

    first: str
    second: str
    gap: float
    side_by_side: bool
    clearance: float = 0.0
    stacked: bool = False
    flush: float = 0.0

    @property
    def touching(self) -> bool:
        """Whether the pair touches (rests on, or within the tolerance anywhere)."""
        return self.stacked or self.clearance <= TOUCH_TOLERANCE_MM

    @property
    def overlapping(self) -> bool:
        """Whether two side-by-side blocks would have to occupy the same space."""
        return self.side_by_side and self.gap < -OVERLAP_TOLERANCE_MM

    @property
    def unclear(self) -> bool:
        """Whether the distance is neither touching nor clearly apart (half an inch)."""
        return not self.stacked and TOUCH_TOLERANCE_MM < self.clearance < CLEAR_GAP_MM

    @property
    def edge_only(self) -> bool:
        """Whether the pair touches only along an edge or at a corner (an ambiguous contact).

        Side by side: the outlines run flush for less than :data:`SIDE_CONTACT_MM` (a corner
        in plan). At different levels: the footprints do not overlap, so a bottom edge meets
        a top edge (or a corner meets one).
        """
        if self.stacked or not self.touching:
            return False
        if self.side_by_side:
            return self.flush < SIDE_CONTACT_MM
        return self.gap >= -OVERLAP_TOLERANCE_MM


def elevations(blocks: Sequence[Block]) -> dict[str, float]:
    """The height (mm above the table) of each block's bottom face, from what it rests on.

    A block on the table is at 0; a stacked block sits on the highest top among its supports.
    Assumes ``rests_on`` names known blocks without cycles (:func:`build_field` checks).

    Example:
        >>> from companion.games.infinifield.blocks import Block
        >>> elevations([Block.square("A", "red", (0, 0)),
        ...             Block.square("B", "blue", (0, 0), rests_on=("A",))])
        {'A': 0.0, 'B': 40.0}
    """
    by_id = {block.id: block for block in blocks}
    result: dict[str, float] = {}
    for block in blocks:
        stack = [block.id]
        while stack:
            current = by_id[stack[-1]]
            missing = [s for s in current.rests_on if s not in result]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            result[current.id] = max((result[s] + by_id[s].height for s in current.rests_on),
                                     default=0.0)
    return {block.id: result[block.id] for block in blocks}


def near_pairs(blocks: Sequence[Block]) -> list[NearPair]:
    """Every pair of footprints closer than half an inch, in field order.

    Blocks without a footprint are skipped. One block resting on another is reported with
    ``side_by_side`` false (their footprints overlap by design).

    Example:
        >>> from companion.games.infinifield.blocks import Block
        >>> pair = near_pairs([Block.square("A", "red", (0, 0)),
        ...                    Block.square("B", "red", (46, 0))])[0]
        >>> pair.gap, pair.touching, pair.unclear
        (6.0, False, True)
    """
    placed = [block for block in blocks if block.footprint]
    if not placed:
        return []
    z = elevations(blocks)
    order = {block.id: index for index, block in enumerate(blocks)}
    stacked = {frozenset((block.id, support)) for block in blocks for support in block.rests_on}
    boxes = {block.id: bounding_box(block.footprint) for block in placed}
    cell = max(max(b[2] - b[0], b[3] - b[1]) for b in boxes.values()) + CLEAR_GAP_MM
    grid: dict[tuple[int, int], list[Block]] = defaultdict(list)
    for block in placed:
        min_x, min_y, max_x, max_y = boxes[block.id]
        for gx in range(int((min_x - CLEAR_GAP_MM) // cell), int((max_x + CLEAR_GAP_MM) // cell)
                        + 1):
            for gy in range(int((min_y - CLEAR_GAP_MM) // cell),
                            int((max_y + CLEAR_GAP_MM) // cell) + 1):
                grid[(gx, gy)].append(block)
    seen: set[tuple[str, str]] = set()
    pairs: list[NearPair] = []
    for members in grid.values():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                first, second = (a, b) if order[a.id] < order[b.id] else (b, a)
                key = (first.id, second.id)
                if key in seen or not _boxes_near(boxes[a.id], boxes[b.id]):
                    continue
                seen.add(key)
                plan = gap(first.footprint, second.footprint)
                if plan >= CLEAR_GAP_MM:
                    continue
                shared = (min(z[a.id] + a.height, z[b.id] + b.height) - max(z[a.id], z[b.id]))
                side_by_side = shared > LEVEL_TOLERANCE_MM
                height_gap = 0.0 if shared >= -LEVEL_TOLERANCE_MM else -shared
                distance = plan if side_by_side else math.hypot(max(plan, 0.0), height_gap)
                if distance >= CLEAR_GAP_MM:
                    continue
                flush = (contact_length(first.footprint, second.footprint, TOUCH_TOLERANCE_MM)
                         if side_by_side and distance <= TOUCH_TOLERANCE_MM else 0.0)
                pairs.append(NearPair(first.id, second.id, plan, side_by_side, distance,
                                      frozenset(key) in stacked, flush))
    pairs.sort(key=lambda pair: (order[pair.first], order[pair.second]))
    return pairs


def _boxes_near(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return (a[0] - CLEAR_GAP_MM <= b[2] and b[0] - CLEAR_GAP_MM <= a[2]
            and a[1] - CLEAR_GAP_MM <= b[3] and b[1] - CLEAR_GAP_MM <= a[3])


def touching_pairs(blocks: Sequence[Block]) -> list[tuple[str, str]]:
    """Which blocks touch, computed from geometry: within the tolerance anywhere, or stacked.

    Example: R1 stands on W1; its bottom edge meets the top edge of Y1 beside W1 (1.5 mm
    away), so R1 touches Y1 as well, as a corner meeting in plan would.

        >>> from companion.games.infinifield.blocks import Block
        >>> touching_pairs([Block.square("W1", "white", (0, 0)),
        ...                 Block.square("Y1", "yellow", (41.5, 0)),
        ...                 Block.square("R1", "red", (0, 0), rests_on=("W1",))])
        [('W1', 'Y1'), ('W1', 'R1'), ('Y1', 'R1')]
    """
    order = {block.id: index for index, block in enumerate(blocks)}
    pairs = {(p.first, p.second) for p in near_pairs(blocks) if p.touching}
    for block in blocks:
        for support in block.rests_on:
            pairs.add((support, block.id) if order[support] < order[block.id]
                      else (block.id, support))
    return sorted(pairs, key=lambda pair: (order[pair[0]], order[pair[1]]))


def side_covers(blocks: Sequence[Block], touching: Sequence[tuple[str, str]]
                ) -> dict[str, tuple[tuple[tuple[str, float, float], ...], ...]]:
    """For each block with a footprint: for each of its sides, the neighbours flush against it.

    Each neighbour comes with the share of the side it runs along (``start``, ``end`` as
    fractions of the side's length, from the side's first corner). Only neighbours standing
    side by side at the same level count (not the blocks it rests on, that rest on it, or that
    meet it along an edge from another level), and only when they run along the side for at
    least :data:`SIDE_CONTACT_MM`. A side is *covered* while the neighbours still there run
    along more than half of it (:data:`MOST_OF_SIDE`, see :func:`covered`).

    Example:
        >>> from companion.games.infinifield.blocks import Block
        >>> row = [Block.square("A", "red", (0, 0)), Block.square("B", "red", (40, 20))]
        >>> side_covers(row, [("A", "B")])["A"]
        ((), (('B', 0.5, 1.0),), (), ())
    """
    by_id: Mapping[str, Block] = {block.id: block for block in blocks}
    z = elevations(blocks)
    stacked = {frozenset((block.id, support)) for block in blocks for support in block.rests_on}
    neighbours: dict[str, list[str]] = defaultdict(list)
    for a, b in touching:
        one, two = by_id[a], by_id[b]
        shared = min(z[a] + one.height, z[b] + two.height) - max(z[a], z[b])
        if frozenset((a, b)) not in stacked and shared > LEVEL_TOLERANCE_MM:
            neighbours[a].append(b)
            neighbours[b].append(a)
    covers: dict[str, tuple[tuple[tuple[str, float, float], ...], ...]] = {}
    for block in blocks:
        if not block.footprint:
            continue
        sides = []
        for side in range(len(block.footprint)):
            found = []
            for other in neighbours[block.id]:
                if not by_id[other].footprint:
                    continue
                span = side_span(block.footprint, side, by_id[other].footprint,
                                 TOUCH_TOLERANCE_MM)
                if span is not None and span[1] - span[0] >= SIDE_CONTACT_MM:
                    found.append((other, round(span[0] / span[2], 6),
                                  round(span[1] / span[2], 6)))
            sides.append(tuple(found))
        covers[block.id] = tuple(sides)
    return covers


def covered(spans: Sequence[tuple[float, float]]) -> bool:
    """Whether spans along a side (fractions of its length) cover most of it (over half).

    Example:
        >>> covered([(0.0, 0.5)]), covered([(0.0, 0.5), (0.4, 0.75)])
        (False, True)
    """
    total, reach = 0.0, 0.0
    for start, end in sorted(spans):
        start = max(start, reach)
        if end > start:
            total += end - start
            reach = end
    return total > MOST_OF_SIDE + 1e-9
