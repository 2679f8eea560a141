"""The Infinifield playing field: blocks, their footprints on the table, and which touch.

This is the public field model shared by the rules engine, the vision pipeline (which hands
detected blocks to :func:`build_field`) and the app (which draws :attr:`Block.footprint` and
highlights :func:`~companion.games.infinifield.removal.removable_blocks`).

- A :class:`Block` has an id (``W1``), a colour (white, yellow, red, blue), a convex footprint
  in table millimetres (x to the right, y away from the builder), a height, and the blocks it
  rests on (stacked blocks of a 3D field).
- A :class:`Field` is the blocks plus which pairs touch, computed from geometry
  (:mod:`~companion.games.infinifield.contacts`, tolerances documented there) or given
  explicitly, plus which neighbours cover each side of each block.

Example:
    >>> field = build_field([Block.square("W1", "white", (0, 0)),
    ...                      Block.square("Y1", "yellow", (40, 0)),
    ...                      Block.square("R1", "red", (80, 0))])
    >>> field.neighbours("Y1")
    ('W1', 'R1')
    >>> field.touches("W1", "R1")
    False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.games import codec
from companion.games.infinifield.blocks import (
    COLOURS,
    DEFAULT_BLOCK_HEIGHT_MM,
    DEFAULT_BLOCK_SIZE_MM,
    PAWN_DIAMETER_MM,
    Block,
    FieldError,
)
from companion.games.infinifield.contacts import covered, elevations, side_covers, touching_pairs

__all__ = ["COLOURS", "DEFAULT_BLOCK_HEIGHT_MM", "DEFAULT_BLOCK_SIZE_MM", "PAWN_DIAMETER_MM",
           "Block", "Field", "FieldError", "FieldGraph", "build_field"]


@dataclass(frozen=True)
class FieldGraph:
    """Integer-indexed adjacency of a field, for fast graph algorithms.

    Attributes:
        ids: block ids in field order; a block's index is its position here.
        adjacency: for each block, the indices of the blocks it touches.
        above: for each block, the indices of the blocks resting on it.
        sides: for each block, for each side, ``(index, start, end)`` of each neighbour flush
            against it, with the share of the side it runs along (fractions of its length).
        supports: indices of the blocks that something rests on.
        enclosable: indices of the blocks whose every side is covered along most of its
            length (so they are enclosed while enough of those neighbours are there).
    """

    ids: tuple[str, ...]
    index: Mapping[str, int]
    adjacency: tuple[tuple[int, ...], ...]
    above: tuple[tuple[int, ...], ...]
    sides: tuple[tuple[tuple[tuple[int, float, float], ...], ...], ...]
    supports: tuple[int, ...]
    enclosable: tuple[int, ...]


@dataclass(frozen=True)
class Field:
    """A playing field: blocks, touching pairs and side covers. Build with :func:`build_field`.

    Attributes:
        blocks: the blocks, in the order of the field file.
        touching: pairs of ids that touch, each pair in field order, sorted.
        sides: ``(block id, covers)`` where covers lists, per side of the footprint,
            ``(id, start, end)`` for each neighbour flush against it: the share of the side it
            runs along, as fractions of the side's length (empty without a footprint).
        name: a title for screens.
        pawn_diameter: mm of free space a pawn needs on top of a block.
        explicit: whether touching was given in the file rather than computed.
    """

    blocks: tuple[Block, ...]
    touching: tuple[tuple[str, str], ...]
    sides: tuple[tuple[str, tuple[tuple[tuple[str, float, float], ...], ...]], ...] = ()
    name: str = ""
    pawn_diameter: float = PAWN_DIAMETER_MM
    explicit: bool = False

    @cached_property
    def graph(self) -> FieldGraph:
        """The integer-indexed adjacency (computed once per field)."""
        ids = tuple(block.id for block in self.blocks)
        index = {block_id: i for i, block_id in enumerate(ids)}
        adjacency: list[list[int]] = [[] for _ in ids]
        for a, b in self.touching:
            adjacency[index[a]].append(index[b])
            adjacency[index[b]].append(index[a])
        above: list[list[int]] = [[] for _ in ids]
        for block in self.blocks:
            for support in block.rests_on:
                above[index[support]].append(index[block.id])
        covers = dict(self.sides)
        sides = tuple(tuple(tuple((index[o], lo, hi) for o, lo, hi in side)
                            for side in covers.get(block_id, ()))
                      for block_id in ids)
        return FieldGraph(ids, index, tuple(tuple(sorted(n)) for n in adjacency),
                          tuple(tuple(a) for a in above), sides,
                          tuple(i for i, a in enumerate(above) if a),
                          tuple(i for i, s in enumerate(sides)
                                if s and all(covered([(lo, hi) for _, lo, hi in side])
                                             for side in s)))

    @cached_property
    def by_id(self) -> Mapping[str, Block]:
        """Blocks by id."""
        return {block.id: block for block in self.blocks}

    @cached_property
    def canonical(self) -> Mapping[str, str]:
        """Lower-cased id -> id as written (for case-insensitive input)."""
        return {block.id.lower(): block.id for block in self.blocks}

    @cached_property
    def elevation(self) -> Mapping[str, float]:
        """Height in mm of each block's bottom face above the table."""
        return elevations(self.blocks)

    def block(self, block_id: str) -> Block:
        """The block called ``block_id`` (exact id).

        Raises:
            KeyError: no such block.
        """
        return self.by_id[block_id]

    def neighbours(self, block_id: str) -> tuple[str, ...]:
        """Ids of the blocks touching ``block_id``, in field order.

        Example:
            >>> field = build_field([Block("A", "red"), Block("B", "blue")], [("A", "B")])
            >>> field.neighbours("B")
            ('A',)
        """
        graph = self.graph
        return tuple(graph.ids[i] for i in graph.adjacency[graph.index[block_id]])

    def touches(self, a: str, b: str) -> bool:
        """Whether blocks ``a`` and ``b`` touch."""
        graph = self.graph
        return graph.index[b] in graph.adjacency[graph.index[a]]

    def resting_on(self, block_id: str) -> tuple[str, ...]:
        """Ids of the blocks standing on ``block_id``."""
        graph = self.graph
        return tuple(graph.ids[i] for i in graph.above[graph.index[block_id]])

    def whites(self) -> tuple[str, ...]:
        """Ids of the white blocks (starting positions), in field order."""
        return tuple(block.id for block in self.blocks if block.is_white)

    def to_json(self) -> dict[str, Any]:
        """The field as JSON-ready data (the type-driven :mod:`~companion.games.codec`)."""
        data: dict[str, Any] = codec.to_json(self)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Field:
        """Rebuild a field from :meth:`to_json` output.

        Raises:
            CodecError: the data is not a field.
        """
        field: Field = codec.from_json(cls, data)
        return field


def build_field(blocks: Iterable[Block], touching: Iterable[Sequence[str]] | None = None, *,
                name: str = "", pawn_diameter: float = PAWN_DIAMETER_MM) -> Field:
    """Make a field from blocks, computing which touch from their footprints.

    Args:
        blocks: the blocks (ids unique case-insensitively; ``rests_on`` naming other blocks,
            without cycles).
        touching: pairs of ids that touch, to use instead of geometry (stacked blocks always
            touch what they rest on, listed or not). ``None``: compute from footprints, which
            every block must then have.
        name: a title for screens.
        pawn_diameter: mm of free space a pawn needs on top of a block.

    Raises:
        FieldError: naming the block at fault and the problem.

    Example:
        >>> field = build_field([Block.square("W1", "white", (0, 0)),
        ...                      Block.square("Y1", "yellow", (0, 0), rests_on=["W1"])])
        >>> field.touching
        (('W1', 'Y1'),)
    """
    block_list = list(blocks)
    _check_ids(block_list)
    if touching is None:
        missing = [block.id for block in block_list if not block.footprint]
        if missing:
            raise FieldError(missing[0], "has no footprint, so touching cannot be computed; "
                                         "give a footprint or list the touching pairs")
        pairs = touching_pairs(block_list)
    else:
        pairs = _explicit_pairs(block_list, touching)
    covers = side_covers(block_list, pairs)
    return Field(tuple(block_list), tuple(pairs),
                 tuple((block.id, covers[block.id]) for block in block_list
                       if block.id in covers),
                 name, float(pawn_diameter), touching is not None)


def _check_ids(blocks: Sequence[Block]) -> None:
    seen: dict[str, str] = {}
    for block in blocks:
        key = block.id.lower()
        if key in seen:
            raise FieldError(block.id, f"the id is used twice (also {seen[key]!r})")
        seen[key] = block.id
    known = {block.id for block in blocks}
    for block in blocks:
        for support in block.rests_on:
            if support not in known:
                raise FieldError(block.id, f"rests on {support!r}, which is not a block")
            if support == block.id:
                raise FieldError(block.id, "cannot rest on itself")
    _check_no_cycles(blocks)


def _check_no_cycles(blocks: Sequence[Block]) -> None:
    by_id = {block.id: block for block in blocks}
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    for root in blocks:
        if state.get(root.id):
            continue
        path = [(root.id, iter(root.rests_on))]
        state[root.id] = 1
        while path:
            current, supports = path[-1]
            support = next(supports, None)
            if support is None:
                state[current] = 2
                path.pop()
            elif state.get(support) == 1:
                raise FieldError(current, f"rests on {support}, which (indirectly) rests on it")
            elif not state.get(support):
                state[support] = 1
                path.append((support, iter(by_id[support].rests_on)))


def _explicit_pairs(blocks: Sequence[Block], touching: Iterable[Sequence[str]]
                    ) -> list[tuple[str, str]]:
    order = {block.id: index for index, block in enumerate(blocks)}
    pairs: set[tuple[str, str]] = set()
    for pair in touching:
        if len(pair) != 2:
            raise FieldError("", f"a touching pair needs two block ids, got {list(pair)}")
        a, b = pair
        for block_id in (a, b):
            if block_id not in order:
                raise FieldError(block_id, "is listed as touching but is not a block")
        if a == b:
            raise FieldError(a, "cannot touch itself")
        pairs.add((a, b) if order[a] < order[b] else (b, a))
    for block in blocks:
        for support in block.rests_on:
            pairs.add((support, block.id) if order[support] < order[block.id]
                      else (block.id, support))
    return sorted(pairs, key=lambda pair: (order[pair[0]], order[pair[1]]))
