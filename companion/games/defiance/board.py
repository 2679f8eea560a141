"""The hex board: axial coordinates, walls on tile edges, clear paths and reach.

Tiles sit on an axial hex grid ``(q, r)``; the Rift is at ``0,0``. Direction ``d`` (0-5) is
one of :data:`DIRECTIONS`, counter-clockwise from east. A tile's printed walls are tile-local
edge numbers turned by its rotation: the wall on local edge ``e`` of a tile placed with
rotation ``k`` faces world direction ``(e + k) % 6``. Two neighbouring tiles are joined when
neither has a wall on their shared edge (rulebook 2.5 "Walls").

Example:
    >>> board = Board.build((Placement("rift", 0, 0, 0, False),
    ...                      Placement("forge", 1, 0, 0, False)),
    ...                     {"rift": (), "forge": (3,)})
    >>> board.joined((0, 0), 0)
    False
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Pos = tuple[int, int]

DIRECTIONS: tuple[Pos, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial offsets of the six directions, counter-clockwise from east."""


def neighbour(pos: Pos, direction: int) -> Pos:
    """The space next to ``pos`` in ``direction``.

    Example:
        >>> neighbour((0, 0), 2)
        (0, -1)
    """
    dq, dr = DIRECTIONS[direction]
    return (pos[0] + dq, pos[1] + dr)


def direction_to(a: Pos, b: Pos) -> int | None:
    """The direction from ``a`` to the adjacent ``b`` (``None`` when not adjacent).

    Example:
        >>> direction_to((0, 0), (-1, 1))
        4
    """
    offset = (b[0] - a[0], b[1] - a[1])
    return DIRECTIONS.index(offset) if offset in DIRECTIONS else None


def format_pos(pos: Pos) -> str:
    """``"q,r"`` as the notation writes a space.

    Example:
        >>> format_pos((2, -1))
        '2,-1'
    """
    return f"{pos[0]},{pos[1]}"


def parse_pos(text: str) -> Pos | None:
    """Read ``"q,r"``; ``None`` when it is not two whole numbers.

    Example:
        >>> parse_pos("-1,2"), parse_pos("x"), parse_pos("1_0,2")
        ((-1, 2), None, None)
    """
    parts = text.split(",")
    if len(parts) != 2 or not all(_SIGNED.match(part) for part in parts):
        return None
    return (int(parts[0]), int(parts[1]))


_SIGNED = re.compile(r"^[+-]?[0-9]{1,6}\Z")
_COUNT = re.compile(r"^[0-9]{1,6}\Z")


def parse_count(text: str) -> int | None:
    """A whole number written in notation (ASCII digits, at most six), else ``None``.

    Unicode digits such as ``²`` or ``٣``, signs, underscores and absurd lengths are not
    numbers of the notation, so they never reach ``int``.

    Example:
        >>> parse_count("3"), parse_count("²"), parse_count("nan"), parse_count("9" * 99)
        (3, None, None, None)
    """
    return int(text) if _COUNT.match(text) else None


def world_walls(local_walls: Iterable[int], rotation: int) -> frozenset[int]:
    """World directions walled on a tile with printed ``local_walls`` turned by ``rotation``.

    Example:
        >>> sorted(world_walls((0, 3), 1))
        [1, 4]
    """
    return frozenset((edge + rotation) % 6 for edge in local_walls)


@dataclass(frozen=True)
class Placement:
    """A tile on the board: which tile, where, its rotation, and whether it is flipped."""

    tile: str
    q: int
    r: int
    rotation: int
    flipped: bool

    @property
    def pos(self) -> Pos:
        """The tile's space."""
        return (self.q, self.r)


class Board:
    """A read-only view of the placed tiles for path questions (build once per query batch).

    Attributes:
        tiles: active (face-up) tile id per space.
        walls: walled world directions per active space.
        flipped: spaces holding a face-down tile (they count as empty).
    """

    __slots__ = ("flipped", "links", "tiles", "walls")

    def __init__(self, tiles: dict[Pos, str], walls: dict[Pos, frozenset[int]],
                 flipped: dict[Pos, str]) -> None:
        self.tiles, self.walls, self.flipped = tiles, walls, flipped
        self.links: dict[Pos, tuple[Pos, ...]] = {}
        """Space -> the active neighbours joined to it (filled in as queries need them)."""

    @classmethod
    def build(cls, placements: Iterable[Placement],
              printed_walls: Mapping[str, tuple[int, ...]]) -> Board:
        """The view of ``placements`` given each tile's printed walls."""
        tiles: dict[Pos, str] = {}
        walls: dict[Pos, frozenset[int]] = {}
        flipped: dict[Pos, str] = {}
        for p in placements:
            if p.flipped:
                flipped[p.pos] = p.tile
            else:
                tiles[p.pos] = p.tile
                walls[p.pos] = world_walls(printed_walls[p.tile], p.rotation)
        return cls(tiles, walls, flipped)

    def active(self, pos: Pos) -> bool:
        """Whether a face-up tile is at ``pos``."""
        return pos in self.tiles

    def walled(self, pos: Pos, direction: int) -> bool:
        """Whether the tile at ``pos`` has a wall facing ``direction``."""
        return direction in self.walls.get(pos, frozenset())

    def joined(self, pos: Pos, direction: int) -> bool:
        """Whether two active tiles meet across an edge with no wall on either side."""
        other = neighbour(pos, direction)
        return (pos in self.tiles and other in self.tiles and not self.walled(pos, direction)
                and not self.walled(other, (direction + 3) % 6))

    def reach(self, start: Pos, limit: int, occupied: Iterable[Pos] = ()) -> dict[Pos, int]:
        """Active tiles at most ``limit`` steps from ``start`` along clear paths.

        A clear path crosses no walls and passes through no pawns (rulebook 9 "Clear Path");
        an occupied tile can be reached but not passed through.

        Example:
            >>> board = Board.build((Placement("rift", 0, 0, 0, False),), {"rift": ()})
            >>> board.reach((0, 0), 2)
            {(0, 0): 0}
        """
        blocked = set(occupied)
        blocked.discard(start)
        found = {start: 0}
        if start not in self.tiles:
            return found
        links = self.links
        frontier = [start]
        steps = 0
        while frontier and steps < limit:
            steps += 1
            following = []
            for pos in frontier:
                joined = links.get(pos)
                if joined is None:
                    joined = links[pos] = tuple(neighbour(pos, d) for d in range(6)
                                                if self.joined(pos, d))
                for nxt in joined:
                    if nxt not in found:
                        found[nxt] = steps
                        if nxt not in blocked:
                            following.append(nxt)
            frontier = following
        return found

    def path_length(self, start: Pos, goal: Pos, occupied: Iterable[Pos] = ()) -> int | None:
        """Steps of the shortest clear path from ``start`` to ``goal`` (``None`` if none).

        Example:
            >>> board = Board.build((Placement("rift", 0, 0, 0, False),), {"rift": ()})
            >>> board.path_length((0, 0), (5, 5)) is None
            True
        """
        return self.reach(start, 10**6, occupied).get(goal)

    def empty_neighbours(self, pos: Pos) -> list[int]:
        """Directions from ``pos`` to spaces without an active tile."""
        return [d for d in range(6) if neighbour(pos, d) not in self.tiles]
