"""A 401 Infinite position for people and screens: a plain-text picture and JSON rows.

The picture is the CLI's ``--show`` and goes into bug reports; :func:`position` is the same
position as JSON data (``--show --json``), without the setup files' texts.

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> print(render(example_state()).splitlines()[1])
    5  .  R1 R2 R3 .
    >>> position(example_state())["units"][0]
    ['B1', 'blue', 2, [1, 0]]
"""

from __future__ import annotations

from typing import Any

from companion.games import codec
from companion.games.infinite401.board import SIDES, space_name
from companion.games.infinite401.movement import allowance
from companion.games.infinite401.setup import Start
from companion.games.infinite401.state import State

SYMBOLS = {"wall": "##", "spawner": "S", "token": "HP"}


def render(state: State) -> str:
    """The board, then each side's units (HP, status effects), cards, the Field and the turn.

    On the board: units by name, walls ``##``, the HP token ``HP``, spawners ``S``, empty base
    spaces ``b``/``r``.
    """
    board = state.setup.board
    header = " ".join(f"{chr(ord('a') + c):<2}" for c in range(board.width))
    lines = [f"   {header}".rstrip()]
    for row in reversed(range(board.height)):
        cells = []
        for col in range(board.width):
            space = (col, row)
            unit = state.occupant(space)
            if unit is not None:
                cells.append(f"{unit.name:<2}")
            elif space in board.walls:
                cells.append(SYMBOLS["wall"])
            elif space == state.token:
                cells.append(SYMBOLS["token"])
            elif space in board.spawners:
                cells.append(f"{SYMBOLS['spawner']:<2}")
            else:
                base = board.base_side(space)
                cells.append(f"{base[0] if base else '.':<2}")
        lines.append(f"{row + 1:<2} " + " ".join(cells).rstrip())
    for side in SIDES:
        cards = state.side_cards(side)
        units = []
        for unit in state.units:
            if unit.side != side:
                continue
            if not unit.alive:
                units.append(f"{unit.name} eliminated")
                continue
            assert unit.space is not None
            extras = sorted(state.statuses(unit.name))
            if state.shield(unit.name):
                extras.append(f"shield {state.shield(unit.name)}")
            extras.append(f"moves {allowance(state, unit)}")
            units.append(f"{unit.name} {space_name(unit.space)} {unit.hp} HP "
                         f"({', '.join(extras)})")
        lines.append(f"{side}: " + "; ".join(units))
        passive = f", passive {cards.passive}" if cards.passive else ""
        stack = f"stack {len(cards.stack)}"
        if state.setup.start is Start.COMPETITOR:  # a player may view their own stack's order
            stack += f" (top first: {' '.join(cards.stack) or '-'})"
        lines.append(f"  hand {' '.join(cards.hand) or '-'}; {stack}{passive}")
    field = ", ".join(f"{e.card} ({e.side}{' ' + e.source if e.source else ''} -> "
                      f"{' '.join(e.targets)})" for e in state.field)
    lines.append(f"field: {field or '-'}")
    token = space_name(state.token) if state.token else "removed"
    turn = f"turn {state.turn}: {state.to_move} to act, {state.actions_left} action(s) left" \
        if state.turn else f"starting: {state.steps[0] if state.steps else '-'}"
    lines.append(f"{turn}; HP token {token}")
    return "\n".join(lines)


def position(state: State) -> dict[str, Any]:
    """The position as JSON data for a screen or a log (``docs/401-infinite.md``).

    The state as :mod:`companion.games.codec` writes it, without the setup (the files'
    texts), and each unit as one row ``[name, side, HP, space]``: the space is
    ``[column, row]`` counted from 0, ``null`` once the unit is eliminated.
    """
    data: dict[str, Any] = codec.to_json(state)
    del data["setup"]
    data["units"] = [[u.name, u.side, u.hp, codec.to_json(u.space)] for u in state.units]
    return data
