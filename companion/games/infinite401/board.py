"""The 401 Infinite board: a grid of spaces read from an ASCII map in TOML, and its checker.

The rulebook's board picture is not in its text, so the board is data
(``docs/401-infinite.md`` "Board files"). Spaces are ``(column, row)`` pairs counted from 0;
in notation a space is a column letter and a row number from 1 (``c5``), row 1 at the bottom
of the map, as on a chess board.

Map characters: ``.`` open space, ``#`` wall, ``S`` spawner, ``B`` a Blue base space,
``R`` a Red base space. The map's first line is the top row.

Example:
    >>> space_name((2, 4))
    'c5'
    >>> parse_space("c5")
    (2, 4)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml

Space = tuple[int, int]
"""A space as ``(column, row)``, both counted from 0 (``a1`` is ``(0, 0)``)."""

SIDES = ("blue", "red")
"""The two sides, in the order used everywhere (Blue is listed first)."""

UNITS_PER_SIDE = 3
EDGES = ("north", "south")
OPEN, WALL, SPAWNER = ".", "#", "S"
BASE_CHARS = {"B": "blue", "R": "red"}
MAP_CHARS = frozenset({OPEN, WALL, SPAWNER, *BASE_CHARS})
BOARD_KEYS = ("name", "map", "token", "field", "units")
NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_'-]*$")
SPACE_PATTERN = re.compile(r"^([a-z])([1-9][0-9]?)$")


def space_name(space: Space) -> str:
    """The notation of a space.

    Example:
        >>> space_name((0, 0))
        'a1'
    """
    return f"{chr(ord('a') + space[0])}{space[1] + 1}"


def parse_space(text: str) -> Space | None:
    """The space written as ``text`` (``"c5"``, case-insensitive), or ``None`` if not a space.

    Example:
        >>> parse_space("B12"), parse_space("12")
        ((1, 11), None)
    """
    match = SPACE_PATTERN.match(text.lower())
    if match is None:
        return None
    return ord(match.group(1)) - ord("a"), int(match.group(2)) - 1


def other_side(side: str) -> str:
    """The opposing side.

    Example:
        >>> other_side("red")
        'blue'
    """
    return "blue" if side == "red" else "red"


@dataclass(frozen=True)
class Board:
    """A checked board.

    Attributes:
        name: the board's name.
        width: number of columns.
        height: number of rows.
        walls: the wall spaces.
        spawners: the two spawner spaces; the HP token starts on ``token_start``.
        token_start: the spawner the HP token starts on.
        bases: side -> that side's base spaces.
        units: every unit as ``(name, side, starting space)``, Blue's first.
        field: side -> the table edge (``north``/``south``) where that side sits and where its
            Field (unit indicators, played cards) lies; it decides which way is "in front".
    """

    name: str
    width: int
    height: int
    walls: frozenset[Space]
    spawners: tuple[Space, Space]
    token_start: Space
    bases: Mapping[str, frozenset[Space]] = field(hash=False)
    units: tuple[tuple[str, str, Space], ...] = ()
    field: Mapping[str, str] = field(default_factory=dict, hash=False)

    def on_board(self, space: Space) -> bool:
        """Whether ``space`` lies on the grid.

        Example:
            >>> BOARD_EXAMPLE.on_board((0, 0)), BOARD_EXAMPLE.on_board((9, 0))
            (True, False)
        """
        return 0 <= space[0] < self.width and 0 <= space[1] < self.height

    def forward(self, side: str) -> int:
        """The row step that is "in front" for ``side``: +1 when it sits south, else -1.

        Example:
            >>> BOARD_EXAMPLE.forward("blue"), BOARD_EXAMPLE.forward("red")
            (1, -1)
        """
        return 1 if self.field[side] == "south" else -1

    def base_side(self, space: Space) -> str | None:
        """The side whose base ``space`` belongs to, if any."""
        for side, spaces in self.bases.items():
            if space in spaces:
                return side
        return None

    def spaces(self) -> list[Space]:
        """Every space that is not a wall, row by row from ``a1``."""
        return [(c, r) for r in range(self.height) for c in range(self.width)
                if (c, r) not in self.walls]


def load_board(source: str, text: str) -> Board:
    """Read and check a board file.

    Args:
        source: the file name, for error messages.
        text: the TOML text.

    Raises:
        SetupError: naming the file, the key or map line, and what is wrong.

    Example:
        >>> load_board("b.toml", EXAMPLE_TOML).spawners
        ((0, 2), (4, 2))
    """
    data = read_keys(source, "", load_toml(source, text), BOARD_KEYS)
    name = data.get("name", source)
    if not isinstance(name, str) or not name.strip():
        raise SetupError(source, "name", f"must be non-empty text, got {name!r}")
    grid = _read_map(source, data.get("map"))
    height, width = len(grid), len(grid[0])
    cells = {(c, height - 1 - r): ch for r, line in enumerate(grid) for c, ch in enumerate(line)}
    walls = frozenset(s for s, ch in cells.items() if ch == WALL)
    spawners = sorted(s for s, ch in cells.items() if ch == SPAWNER)
    if len(spawners) != 2:
        raise SetupError(source, "map", f"needs exactly two spawners 'S', found {len(spawners)}")
    bases = {side: frozenset(s for s, ch in cells.items() if BASE_CHARS.get(ch) == side)
             for side in SIDES}
    for side in SIDES:
        if len(bases[side]) < UNITS_PER_SIDE:
            raise SetupError(source, "map", f"the {side} base needs at least {UNITS_PER_SIDE} "
                             f"spaces (one per unit), found {len(bases[side])}")
    token = _read_token(source, data, spawners)
    fields = _read_field(source, data)
    units = _read_units(source, data, cells, width, height)
    board = Board(name, width, height, walls,
                  (spawners[0], spawners[1]), token, bases, units, fields)
    _check_connected(source, board)
    return board


def read_keys(source: str, where: str, table: Any, keys: tuple[str, ...] | frozenset[str]
              ) -> dict[str, Any]:
    """The values of ``keys`` present in ``table``, read through :class:`Table`.

    Any other key is refused, naming the closest valid one, before a value is checked.

    Raises:
        SetupError: ``table`` is not a table, or holds a key not in ``keys``, e.g.
            ``nmae: unknown key; did you mean 'name'?``.

    Example:
        >>> try:
        ...     read_keys("b.toml", "", {"nmae": "X"}, BOARD_KEYS)
        ... except SetupError as error:
        ...     print(error.where, "-", error.problem.split(";")[1].split("?")[0].strip())
        nmae - did you mean 'name'
    """
    reader = Table(source, table, where)
    values = {key: reader.raw(key) for key in keys if reader.has(key)}
    reader.done()
    return values


def _read_map(source: str, raw: Any) -> list[str]:
    if not isinstance(raw, str) or not raw.strip():
        raise SetupError(source, "map", "missing: an ASCII map of the board is required")
    lines = [line.replace(" ", "") for line in raw.strip("\n").splitlines()]
    lines = [line for line in lines if line]
    for number, line in enumerate(lines, start=1):
        bad = sorted(set(line) - MAP_CHARS)
        if bad:
            raise SetupError(source, f"map line {number}",
                             f"unknown character {bad[0]!r}; use one of . # S B R")
        if len(line) != len(lines[0]):
            raise SetupError(source, f"map line {number}",
                             f"has {len(line)} spaces but line 1 has {len(lines[0])}; "
                             "the map must be a rectangle")
    if len(lines[0]) > 26 or len(lines) > 99:
        raise SetupError(source, "map", "at most 26 columns and 99 rows")
    return lines


def _read_token(source: str, data: Mapping[str, Any], spawners: list[Space]) -> Space:
    raw = data.get("token", space_name(spawners[0]))
    space = parse_space(raw) if isinstance(raw, str) else None
    if space not in spawners or space is None:
        names = " or ".join(space_name(s) for s in spawners)
        raise SetupError(source, "token", f"{raw!r} is not a spawner; the HP token starts on "
                         f"a spawner ({names})")
    return space


def _read_field(source: str, data: Mapping[str, Any]) -> dict[str, str]:
    raw = data.get("field", {"blue": "south", "red": "north"})
    if not isinstance(raw, dict):
        raise SetupError(source, "field", "must be a table: side = edge")
    raw = read_keys(source, "field", raw, SIDES)
    fields: dict[str, str] = {}
    for side in SIDES:
        edge = raw.get(side)
        if edge not in EDGES:
            raise SetupError(source, f"field.{side}", f"{edge!r} is not one of north, south")
        fields[side] = edge
    if fields["blue"] == fields["red"]:
        raise SetupError(source, "field", "the two sides must sit at opposite edges")
    return fields


def _read_units(source: str, data: Mapping[str, Any], cells: Mapping[Space, str],
                width: int, height: int) -> tuple[tuple[str, str, Space], ...]:
    raw = data.get("units")
    if not isinstance(raw, dict):
        raise SetupError(source, "units", "missing: a table [units.blue] and [units.red] of "
                         "unit = starting space")
    raw = read_keys(source, "units", raw, SIDES)
    units: list[tuple[str, str, Space]] = []
    seen_names: set[str] = set()
    seen_spaces: dict[Space, str] = {}
    for side in SIDES:
        table = raw.get(side)
        if not isinstance(table, dict) or len(table) != UNITS_PER_SIDE:
            raise SetupError(source, f"units.{side}",
                             f"each side has exactly {UNITS_PER_SIDE} units")
        for name, where in table.items():
            key = f"units.{side}.{name}"
            if not NAME_PATTERN.match(name) or name.lower() in SIDES:
                raise SetupError(source, key, "a unit name is one word of letters and digits, "
                                 "not a side's name")
            if name.lower() in seen_names:
                raise SetupError(source, key, "unit names must be unique (case-insensitive)")
            space = parse_space(where) if isinstance(where, str) else None
            if space is None or not (0 <= space[0] < width and 0 <= space[1] < height):
                raise SetupError(source, key, f"{where!r} is not a space of the map")
            if BASE_CHARS.get(cells[space]) != side:
                raise SetupError(source, key, f"{where} is not a {side} base space; units "
                                 "start on their own base")
            if space in seen_spaces:
                raise SetupError(source, key, f"{where} already holds {seen_spaces[space]} "
                                 "(One Object One Space)")
            seen_names.add(name.lower())
            seen_spaces[space] = name
            units.append((name, side, space))
    return tuple(units)


def _check_connected(source: str, board: Board) -> None:
    open_spaces = set(board.spaces())
    start = next(iter(sorted(open_spaces)))
    reached = {start}
    frontier = [start]
    while frontier:
        c, r = frontier.pop()
        for step in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if step in open_spaces and step not in reached:
                reached.add(step)
                frontier.append(step)
    cut_off = sorted(open_spaces - reached)
    if cut_off:
        raise SetupError(source, "map", f"space {space_name(cut_off[0])} cannot be reached "
                         "from the rest of the board; walls must not cut the board apart")


EXAMPLE_TOML = """
name = "Example"
map = '''
. R R R .
. # . # .
S . . . S
. # . # .
. B B B .
'''
[units.blue]
B1 = "b1"
B2 = "c1"
B3 = "d1"
[units.red]
R1 = "b5"
R2 = "c5"
R3 = "d5"
"""
"""A small board used in docstring examples."""

BOARD_EXAMPLE = load_board("example", EXAMPLE_TOML)
