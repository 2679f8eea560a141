"""What the 401 Infinite screen shows, and what a tap proposes (no Kivy).

The board is the engine's grid; each unit carries its HP and the HP indicator as each
player reads it (``401-infinite.md`` "UNITS AND HP": the owner reads the top white number,
the opponent across the table the top black one). Tapping one of the side-to-move's units
selects it; the spaces its legal moves reach are highlighted; tapping a space proposes the
move (the engine decides, and a refusal cites its rule). The legal actions are read as the
engine's typed actions (:mod:`companion.games.infinite401.actions`), never as text.

Example:
    >>> cell_kind((0, 0), walls=frozenset({(0, 0)}), spawners=(), bases={})
    'wall'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.infinite401.actions import Action, Move, Score
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


def move_targets(legal: Sequence[Action], side: str, unit: str) -> set[Space]:
    """The spaces ``unit``'s legal Movement actions reach.

    Example:
        >>> from companion.games.infinite401.actions import End, Move
        >>> sorted(move_targets([Move("red", "R1", (0, 6)), Move("red", "R2", (1, 6)),
        ...                      End("red")], "red", "R1"))
        [(0, 6)]
    """
    return {action.destination for action in legal
            if isinstance(action, Move) and action.side == side and action.unit == unit}


def named_spaces(legal: Sequence[Action]) -> set[Space]:
    """Every space some legal action names (the legal targets of this moment).

    A Movement action names its destination (and its path, when written with one); a
    Runner's Rule ``score`` names the base space the runner goes back to.

    Example:
        >>> from companion.games.infinite401.actions import Move, Score
        >>> sorted(named_spaces([Move("red", "R1", (0, 6)), Score("red", "R2", (3, 8), "B1")]))
        [(0, 6), (3, 8)]
    """
    spaces: set[Space] = set()
    for action in legal:
        if isinstance(action, Move):
            spaces.add(action.destination)
            spaces.update(action.path)
        elif isinstance(action, Score):
            spaces.add(action.space)
    return spaces


def move_action(side: str, unit: str, space: Space) -> str:
    """The candidate move of ``unit`` to ``space`` (the engine decides).

    Example:
        >>> move_action("red", "R1", (0, 6))
        'move red R1 a7'
    """
    return f"move {side} {unit} {space_name(space)}"


def side_summary(state: State, side_index: int, tr: Callable[..., str] | None = None) -> str:
    """One line per side: hand and stack sizes, deck, passive (worded by ``tr`` if given)."""
    cards = state.cards[side_index]
    passive = f" · {cards.passive}" if cards.passive else ""
    if tr is not None:
        return tr("i401.side_summary", hand=len(cards.hand), stack=len(cards.stack),
                  deck=len(cards.deck)) + passive
    return f"hand {len(cards.hand)} · stack {len(cards.stack)} · deck {len(cards.deck)}{passive}"


@dataclass(frozen=True)
class CardView:
    """A card in a hand as the screen lists it: name, type and the reference sheet's text."""

    name: str
    kind: str
    text: str


def hand_view(state: State, side: str) -> tuple[CardView, ...]:
    """The cards in ``side``'s hand with each card's text (and its passive last, if any)."""
    cards = state.side_cards(side)
    shown = []
    for name in cards.hand:
        try:
            card = state.setup.cards.ability(name)
        except (KeyError, ValueError):
            shown.append(CardView(name, "", ""))
            continue
        shown.append(CardView(card.name, card.type, card.text))
    if cards.passive:
        try:
            passive = state.setup.cards.passive(cards.passive)
            shown.append(CardView(passive.name, "passive", passive.text))
        except (KeyError, ValueError):
            shown.append(CardView(cards.passive, "passive", ""))
    return tuple(shown)


def turn_line(state: State, tr: Callable[..., str],
              side_name: Callable[[str], str] = str.title) -> str:
    """The header line: the turn, the side to act and its actions left.

    ``state.turn`` already counts the turn being played (1 on the first turn). Before the
    coin flip no side acts: the line says what setup still waits for.

    Example:
        >>> from types import SimpleNamespace
        >>> tr = lambda key, **p: key + repr(sorted(p.items()))
        >>> turn_line(SimpleNamespace(turn=1, to_move="red", actions_left=2), tr)
        "i401.turn[('actions', 2), ('side', 'Red'), ('turn', 1)]"
        >>> turn_line(SimpleNamespace(turn=0, to_move="", actions_left=0), tr)
        'i401.setup[]'
    """
    if not state.to_move:
        return tr("i401.setup")
    return tr("i401.turn", turn=state.turn, side=side_name(state.to_move),
              actions=state.actions_left)


def refused_line(params: Mapping[str, Any]) -> tuple[tuple[Space, ...], Space | None]:
    """The straight line a refusal tested, from its params, to draw on the board.

    The engine's params (``targeting.drawn_line``, docs/401-infinite.md "Straight lines"):
    ``line`` names the two spaces whose centres the line joins, source first;
    ``line_spaces`` the spaces strictly between that it crosses; ``space`` the one that
    stopped it. Returns the spaces from source to target and the blocking space; nothing
    when the params carry no line.

    Example:
        >>> refused_line({"line": ["b5", "b8"], "line_spaces": ["b6", "b7"], "space": "b6"})
        (((1, 4), (1, 5), (1, 6), (1, 7)), (1, 5))
        >>> refused_line({"space": "c5"})
        ((), None)
    """
    ends = params.get("line")
    if not isinstance(ends, (list, tuple)) or len(ends) != 2:
        return (), None
    crossed = params.get("line_spaces", ())
    names = [ends[0], *(crossed if isinstance(crossed, (list, tuple)) else ()), ends[1]]
    spaces = tuple(space for space in (parse_space(str(name)) for name in names)
                   if space is not None)
    blocked = params.get("space")
    return spaces, parse_space(blocked) if isinstance(blocked, str) else None
