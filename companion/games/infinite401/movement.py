"""Movement actions: how far a unit may go and which paths it may take.

A Movement action moves one unit up to 4 spaces (``401-infinite.md`` "TURNS / ACTIONS"),
counted as orthogonal steps (``docs/401-infinite.md`` "Counting movement"). Walls and
opposing units cannot be stepped through; own units can, but no unit may end on an occupied
space; the opposing base cannot be entered while an opposing unit stands on any of its spaces.

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> state = example_state()
    >>> allowance(state, state.unit("B1"))
    4
"""

from __future__ import annotations

from companion.games.infinite401 import rules
from companion.games.infinite401.board import Space, other_side, space_name
from companion.games.infinite401.geometry import is_step, reachable
from companion.games.infinite401.notation import Move
from companion.games.infinite401.state import State, Unit

BASE_STEPS = 4


def allowance(state: State, unit: Unit) -> int:
    """How many spaces ``unit`` may move in one Movement action.

    Four, plus the side's passive bonus; Slowed halves it (rounded down).
    """
    passive = state.side_cards(unit.side).passive
    steps = BASE_STEPS + (state.setup.cards.passive(passive).movement_bonus if passive else 0)
    return steps // 2 if "slowed" in state.statuses(unit.name) else steps


def forbidden_base(state: State, side: str) -> frozenset[Space]:
    """The opposing base spaces ``side``'s units may not enter right now (Runner's Rule).

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> len(forbidden_base(example_state(), "blue"))
        3
    """
    base = state.setup.board.bases[other_side(side)]
    if any(u.space in base for u in state.living(other_side(side))):
        return base
    return frozenset()


def blocked_for(state: State, side: str) -> set[Space]:
    """Spaces ``side``'s units cannot step through: walls, opposing units, a guarded base.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> sorted(blocked_for(example_state(), "blue"))[:3]
        [(1, 1), (1, 3), (1, 4)]
    """
    blocked = set(state.setup.board.walls)
    blocked.update(u.space for u in state.living(other_side(side)) if u.space is not None)
    blocked.update(forbidden_base(state, side))
    return blocked


def destinations(state: State, unit: Unit) -> dict[Space, tuple[Space, ...]]:
    """Where ``unit`` may end a Movement action, each with one shortest path.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> state = example_state()
        >>> (2, 1) in destinations(state, state.unit("B2"))
        True
    """
    if unit.space is None:
        return {}
    board = state.setup.board
    blocked = blocked_for(state, unit.side)
    paths = reachable(unit.space, allowance(state, unit), lambda s: s not in blocked,
                      board.width, board.height)
    occupied = {u.space for u in state.units if u.alive}
    return {space: path for space, path in paths.items() if space not in occupied}


def check_mover(state: State, unit: Unit) -> None:
    """Refuse a Movement action by a unit that cannot move (eliminated or Stunned).

    Raises:
        IllegalAction: ``unit_eliminated`` or ``stunned``.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> state = example_state()
        >>> check_mover(state, state.unit("B1")) is None
        True
    """
    if unit.space is None:
        raise rules.refuse("unit_eliminated", f"{unit.name} has been eliminated.",
                           rules.UNITS_AND_HP, unit=unit.name)
    if "stunned" in state.statuses(unit.name):
        raise rules.refuse("stunned", f"{unit.name} is Stunned and cannot move.",
                           rules.status_rule("stunned"), unit=unit.name)


def check_move(state: State, move: Move) -> tuple[Space, ...]:
    """The path a legal Movement action takes.

    Raises:
        IllegalAction: why the move is refused, citing its rule.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> check_move(example_state(), Move("blue", "B1", (0, 1)))
        ((0, 0), (0, 1))
    """
    unit = state.unit(move.unit)
    check_mover(state, unit)
    assert unit.space is not None
    dest = move.destination
    if dest == unit.space:
        raise rules.refuse("no_movement", f"{unit.name} is already on {space_name(dest)}.",
                           rules.MOVEMENT, unit=unit.name)
    _check_end(state, unit, dest)
    steps = allowance(state, unit)
    if not move.path:
        path = destinations(state, unit).get(dest)
        if path is None:
            raise rules.refuse("out_of_reach", f"{unit.name} cannot reach {space_name(dest)} "
                               f"in {steps} steps around walls and opposing units.",
                               rules.MOVEMENT, unit=unit.name, space=space_name(dest),
                               steps=steps)
        return path
    if len(move.path) > steps:
        raise rules.refuse("too_far", f"{unit.name} may move at most {steps} spaces, not "
                           f"{len(move.path)}.", rules.MOVEMENT, unit=unit.name, steps=steps,
                           given=len(move.path))
    here = unit.space
    for step in move.path:
        _check_step(state, unit, here, step)
        here = step
    return move.path


def _check_step(state: State, unit: Unit, here: Space, step: Space) -> None:
    board = state.setup.board
    name = space_name(step)
    if not is_step(here, step) or not board.on_board(step):
        raise rules.refuse("not_a_step", f"{name} is not next to {space_name(here)}; a unit "
                           "moves one orthogonal step at a time.", rules.MOVEMENT, space=name,
                           here=space_name(here))
    if step in board.walls:
        raise rules.refuse("wall_in_path", f"{name} is a wall.", rules.MOVE_PATH, space=name)
    occupant = state.occupant(step)
    if occupant is not None and occupant.side != unit.side:
        raise rules.refuse("opponent_in_path", f"{occupant.name} on {name} is an opposing "
                           "unit and blocks like a wall.", rules.COLLISION, space=name,
                           blocker=occupant.name)
    if step in forbidden_base(state, unit.side):
        raise rules.refuse("base_guarded", f"{name} is on the opposing base, which cannot be "
                           "entered while an opposing unit occupies any base space.",
                           rules.RUNNER, space=name)


def _check_end(state: State, unit: Unit, dest: Space) -> None:
    board = state.setup.board
    name = space_name(dest)
    if dest in board.walls:
        raise rules.refuse("space_is_wall", f"{name} is a wall.", rules.ONE_OBJECT, space=name)
    occupant = state.occupant(dest)
    if occupant is not None:
        raise rules.refuse("space_occupied", f"{name} is occupied by {occupant.name}.",
                           rules.ONE_OBJECT, space=name, occupant=occupant.name)
    if dest in forbidden_base(state, unit.side):
        raise rules.refuse("base_guarded", f"{name} is on the opposing base, which cannot be "
                           "entered while an opposing unit occupies any base space.",
                           rules.RUNNER, space=name)

