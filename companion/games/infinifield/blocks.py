"""One block of the Infinifield set: its id, colour, footprint on the table, height and supports.

The field model (:mod:`~companion.games.infinifield.field`) is made of these; the touching
rules (:mod:`~companion.games.infinifield.contacts`) read their geometry.

Example:
    >>> block = Block.square("W1", "White", (20, 20))
    >>> block.colour, block.is_white, block.footprint[0]
    ('white', True, (0.0, 0.0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.infinifield.geometry import (
    GeometryError,
    Point,
    Polygon,
    convex_polygon,
    rectangle,
)

COLOURS = ("white", "yellow", "red", "blue")
"""Block colours in the set; white blocks are the starting positions."""

BLOCK_SET = {"white": 8, "yellow": 8, "red": 6, "blue": 2}
"""How many blocks of each colour the box holds (infinifield.md, Components: "24 blocks:
8 white (also called starting positions), 8 yellow, 6 red, and 2 blue")."""

DEFAULT_BLOCK_SIZE_MM = (40.0, 40.0)
"""Footprint (width, depth) of a block when the field file gives only its centre."""

DEFAULT_BLOCK_HEIGHT_MM = 40.0
"""Height of a block when the field file does not say."""

PAWN_DIAMETER_MM = 18.0
"""Diameter of a pawn's base: the free space a block's top must offer."""


class FieldError(ValueError):
    """A field description that cannot be a field (unknown ids, cycles, bad footprints).

    Attributes:
        block: the id of the block at fault ("" when not about one block).
        problem: what is wrong, in one sentence.
    """

    def __init__(self, block: str, problem: str) -> None:
        self.block = block
        self.problem = problem
        super().__init__(f"block {block}: {problem}" if block else problem)


@dataclass(frozen=True)
class Block:
    """One block of the field.

    Attributes:
        id: its name as written in the field file (``W1``), unique case-insensitively.
        colour: ``white``, ``yellow``, ``red`` or ``blue``.
        footprint: convex polygon on the table in mm, counter-clockwise; ``()`` when unknown
            (then touching must be given explicitly).
        height: in mm.
        rests_on: ids of the blocks it stands on (empty: it stands on the table).

    Example:
        >>> Block.square("W1", "White", (20, 20)).footprint[0]
        (0.0, 0.0)
    """

    id: str
    colour: str
    footprint: Polygon = ()
    height: float = DEFAULT_BLOCK_HEIGHT_MM
    rests_on: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.id or any(ch.isspace() or ch == "#" for ch in self.id):
            raise FieldError(self.id, "a block id must be one word without '#'")
        colour = self.colour.lower()
        if colour not in COLOURS:
            raise FieldError(self.id, f"colour {self.colour!r} is not one of {', '.join(COLOURS)}")
        object.__setattr__(self, "colour", colour)
        if self.footprint:
            try:
                object.__setattr__(self, "footprint", convex_polygon(self.footprint))
            except GeometryError as error:
                raise FieldError(self.id, str(error)) from error
        if not self.height > 0:
            raise FieldError(self.id, f"height must be positive, got {self.height}")
        object.__setattr__(self, "height", float(self.height))
        object.__setattr__(self, "rests_on", tuple(self.rests_on))

    @classmethod
    def square(cls, block_id: str, colour: str, centre: Point,
               size: Point = DEFAULT_BLOCK_SIZE_MM, angle: float = 0.0,
               height: float = DEFAULT_BLOCK_HEIGHT_MM, rests_on: Sequence[str] = ()) -> Block:
        """A rectangular block given by its centre, size and rotation (degrees).

        Example:
            >>> Block.square("Y1", "yellow", (0, 0), size=(20, 10)).footprint[2]
            (10.0, 5.0)
        """
        return cls(block_id, colour, rectangle(centre, size, angle), height, tuple(rests_on))

    @property
    def is_white(self) -> bool:
        """Whether this is a white block (a starting position)."""
        return self.colour == "white"
