"""What the 401 Infinite screen shows, and what a tap proposes (no Kivy).

The board is the engine's grid; each unit carries its HP and the HP indicator as each
player reads it (``401-infinite.md`` "UNITS AND HP": the owner reads the top white number,
the opponent across the table the top black one). Tapping one of the side-to-move's units
selects it; the spaces its legal moves reach are highlighted; tapping a space proposes the
move (the engine decides, and a refusal cites its rule).

Example:
    >>> cell_kind((0, 0), walls=frozenset({(0, 0)}), spawners=(), bases={})
    'wall'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.infinite401.board import Space, parse_space, space_name
from companion.games.infinite401.hp import indicator_rotation, read_indicator
from companion.games.infinite401.state import State


def cell_kind(space: Space, walls: frozenset[Space], spawners: Sequence[Space],
              bases: Mapping[str, frozenset[Space]]) -> str:
    """``wall``, ``spawner``, ``base-blue``, ``base-red`` or ``open``."""
    if space in walls:
        return "wall"
    if space in spawners:
        return "spawner"
    for side, spaces in bases.items():
        if space in spaces:
            return f"base-{side}"
    return "open"


@dataclass(frozen=True)
class UnitView:
    """A unit on the board: side, HP and what each seat reads on its indicator."""

    name: str
    side: str
    hp: int
    space: Space
    owner_reads: int
    opponent_reads: int


@dataclass(frozen=True)
class BoardView:
    """The board's content: size, each space's kind, units, the HP token."""

    width: int
    height: int
    cells: Mapping[Space, str]
    units: tuple[UnitView, ...]
    token: Space | None


def board_view(state: State) -> BoardView:
    """The board of ``state``."""
    board = state.setup.board
    cells = {(c, r): cell_kind((c, r), board.walls, board.spawners, board.bases)
             for c in range(board.width) for r in range(board.height)}
    units = []
    for unit in state.units:
        if unit.space is None:
            continue
        rotation = indicator_rotation(unit.hp)
        units.append(UnitView(unit.name, unit.side, unit.hp, unit.space,
                              read_indicator(rotation, "owner").white,
                              read_indicator(rotation, "opponent").black))
    return BoardView(board.width, board.height, cells, tuple(units), state.token)


def move_targets(legal: Sequence[str], side: str, unit: str) -> set[Space]:
    """The spaces ``unit``'s legal ``move`` actions reach."""
    targets = set()
    prefix = f"move {side} {unit} ".lower()
    for text in legal:
        if text.lower().startswith(prefix):
            space = parse_space(text.split()[-1])
            if space is not None:
                targets.add(space)
    return targets


def named_spaces(legal: Sequence[str]) -> set[Space]:
    """Every space some legal action names (the legal targets of this moment)."""
    spaces = set()
    for text in legal:
        for word in text.split()[1:]:
            space = parse_space(word.split("@")[0])
            if space is not None:
                spaces.add(space)
    return spaces


def move_action(side: str, unit: str, space: Space) -> str:
    """The candidate move of ``unit`` to ``space`` (the engine decides).

    Example:
        >>> move_action("red", "R1", (0, 6))
        'move red R1 a7'
    """
    return f"move {side} {unit} {space_name(space)}"


def side_summary(state: State, side_index: int) -> str:
    """One line per side: hand and stack sizes, deck, passive."""
    cards = state.cards[side_index]
    passive = f" · {cards.passive}" if cards.passive else ""
    return f"hand {len(cards.hand)} · stack {len(cards.stack)} · deck {len(cards.deck)}{passive}"
