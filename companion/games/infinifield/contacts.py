"""Which blocks touch, from their footprints and heights, with the documented tolerances.

Two blocks *touch* when one rests on the other, or when they stand side by side (their
heights overlap by more than :data:`LEVEL_TOLERANCE_MM`) and their footprints are at most
:data:`TOUCH_TOLERANCE_MM` apart. Blocks :data:`CLEAR_GAP_MM` (half an inch) or more apart
never touch; a gap between the two tolerances is *unclear*, which the official field-building
rules forbid ("place them clearly apart").

Near pairs are found with a uniform grid (spatial hash), so a field of 10,000 blocks is
handled in linear time.

Example:
    >>> from companion.games.infinifield.field import Block
    >>> blocks = [Block.square("W1", "white", (0, 0)), Block.square("Y1", "yellow", (40, 0)),
    ...           Block.square("R1", "red", (120, 0))]
    >>> [(c.first, c.second, c.gap) for c in near_pairs(blocks)]
    [('W1', 'Y1', 0.0)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.infinifield.geometry import bounding_box, covers_side, gap

if TYPE_CHECKING:  # pragma: no cover
    from companion.games.infinifield.field import Block

TOUCH_TOLERANCE_MM = 2.0
"""Footprints this close (or overlapping by up to :data:`OVERLAP_TOLERANCE_MM`) touch."""

OVERLAP_TOLERANCE_MM = 2.0
"""Side-by-side footprints overlapping deeper than this are an impossible layout."""

CLEAR_GAP_MM = 12.7
"""Half an inch: blocks at least this far apart clearly do not touch."""

LEVEL_TOLERANCE_MM = 1.0
"""Blocks whose heights overlap by less than this are on different levels (one on top)."""

SIDE_CONTACT_MM = 3.0
"""A neighbour covers a side of a block when it runs along it for at least this length."""


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

    @property
    def touching(self) -> bool:
        """Whether the pair touches side by side (within the tolerances)."""
        return self.side_by_side and self.gap <= TOUCH_TOLERANCE_MM

    @property
    def overlapping(self) -> bool:
        """Whether two side-by-side blocks would have to occupy the same space."""
        return self.side_by_side and self.gap < -OVERLAP_TOLERANCE_MM

    @property
    def unclear(self) -> bool:
        """Whether the gap is neither touching nor clearly apart (half an inch)."""
        return self.side_by_side and TOUCH_TOLERANCE_MM < self.gap < CLEAR_GAP_MM


def elevations(blocks: Sequence[Block]) -> dict[str, float]:
    """The height (mm above the table) of each block's bottom face, from what it rests on.

    A block on the table is at 0; a stacked block sits on the highest top among its supports.
    Assumes ``rests_on`` names known blocks without cycles (:func:`build_field` checks).

    Example:
        >>> from companion.games.infinifield.field import Block
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
        >>> from companion.games.infinifield.field import Block
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
                clearance = gap(first.footprint, second.footprint)
                if clearance >= CLEAR_GAP_MM:
                    continue
                shared = (min(z[a.id] + a.height, z[b.id] + b.height) - max(z[a.id], z[b.id]))
                pairs.append(NearPair(first.id, second.id, clearance,
                                      shared > LEVEL_TOLERANCE_MM))
    pairs.sort(key=lambda pair: (order[pair.first], order[pair.second]))
    return pairs


def _boxes_near(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return (a[0] - CLEAR_GAP_MM <= b[2] and b[0] - CLEAR_GAP_MM <= a[2]
            and a[1] - CLEAR_GAP_MM <= b[3] and b[1] - CLEAR_GAP_MM <= a[3])


def touching_pairs(blocks: Sequence[Block]) -> list[tuple[str, str]]:
    """Which blocks touch, computed from geometry: side by side within tolerance, or stacked.

    Example:
        >>> from companion.games.infinifield.field import Block
        >>> touching_pairs([Block.square("W1", "white", (0, 0)),
        ...                 Block.square("Y1", "yellow", (41.5, 0)),
        ...                 Block.square("R1", "red", (0, 0), rests_on=("W1",))])
        [('W1', 'Y1'), ('W1', 'R1')]
    """
    order = {block.id: index for index, block in enumerate(blocks)}
    pairs = {(p.first, p.second) for p in near_pairs(blocks) if p.touching}
    for block in blocks:
        for support in block.rests_on:
            pairs.add((support, block.id) if order[support] < order[block.id]
                      else (block.id, support))
    return sorted(pairs, key=lambda pair: (order[pair[0]], order[pair[1]]))


def side_covers(blocks: Sequence[Block], touching: Sequence[tuple[str, str]]
                ) -> dict[str, tuple[tuple[str, ...], ...]]:
    """For each block with a footprint: for each of its sides, the neighbours flush against it.

    Only side-by-side touching neighbours count (not the blocks it rests on or that rest on
    it). A block is *enclosed on all sides* while every side has a neighbour still there.

    Example:
        >>> from companion.games.infinifield.field import Block
        >>> row = [Block.square("A", "red", (0, 0)), Block.square("B", "red", (40, 0))]
        >>> side_covers(row, [("A", "B")])["A"]
        ((), ('B',), (), ())
        >>> side_covers(row, [("A", "B")])["B"]
        ((), (), (), ('A',))
    """
    by_id: Mapping[str, Block] = {block.id: block for block in blocks}
    stacked = {frozenset((block.id, support)) for block in blocks for support in block.rests_on}
    neighbours: dict[str, list[str]] = defaultdict(list)
    for a, b in touching:
        if frozenset((a, b)) not in stacked:
            neighbours[a].append(b)
            neighbours[b].append(a)
    covers: dict[str, tuple[tuple[str, ...], ...]] = {}
    for block in blocks:
        if not block.footprint:
            continue
        sides = []
        for side in range(len(block.footprint)):
            sides.append(tuple(other for other in neighbours[block.id]
                               if by_id[other].footprint and covers_side(
                                   block.footprint, side, by_id[other].footprint,
                                   TOUCH_TOLERANCE_MM, SIDE_CONTACT_MM)))
        covers[block.id] = tuple(sides)
    return covers
