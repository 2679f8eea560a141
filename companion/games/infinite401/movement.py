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

from companion.games.core import refuse
from companion.games.infinite401 import rulebook
from companion.games.infinite401.actions import Move
from companion.games.infinite401.board import Space, other_side, space_name
from companion.games.infinite401.geometry import is_step, reachable
from companion.games.infinite401.rulebook import Refusal
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
        refuse(Refusal.UNIT_ELIMINATED, f"{unit.name} has been eliminated.",
               rulebook.UNITS_AND_HP, unit=unit.name)
    if "stunned" in state.statuses(unit.name):
        refuse(Refusal.STUNNED, f"{unit.name} is Stunned and cannot move.",
               rulebook.status_rule("stunned"), unit=unit.name)


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
        refuse(Refusal.NO_MOVEMENT, f"{unit.name} is already on {space_name(dest)}.",
               rulebook.MOVEMENT, unit=unit.name)
    _check_end(state, unit, dest)
    steps = allowance(state, unit)
    if not move.path:
        path = destinations(state, unit).get(dest)
        if path is None:
            refuse(Refusal.OUT_OF_REACH, f"{unit.name} cannot reach {space_name(dest)} "
                   f"in {steps} steps around walls and opposing units.",
                   rulebook.MOVEMENT, unit=unit.name, space=space_name(dest),
                   steps=steps)
        return path
    if len(move.path) > steps:
        refuse(Refusal.TOO_FAR, f"{unit.name} may move at most {steps} spaces, not "
               f"{len(move.path)}.", rulebook.MOVEMENT, unit=unit.name, steps=steps,
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
        refuse(Refusal.NOT_A_STEP, f"{name} is not next to {space_name(here)}; a unit "
               "moves one orthogonal step at a time.", rulebook.MOVEMENT, space=name,
               here=space_name(here))
    if step in board.walls:
        refuse(Refusal.WALL_IN_PATH, f"{name} is a wall.", rulebook.MOVE_PATH, space=name)
    occupant = state.occupant(step)
    if occupant is not None and occupant.side != unit.side:
        refuse(Refusal.OPPONENT_IN_PATH, f"{occupant.name} on {name} is an opposing "
               "unit and blocks like a wall.", rulebook.COLLISION, space=name,
               blocker=occupant.name)
    if step in forbidden_base(state, unit.side):
        refuse(Refusal.BASE_GUARDED, f"{name} is on the opposing base, which cannot be "
               "entered while an opposing unit occupies any base space.",
               rulebook.RUNNER, space=name)


def _check_end(state: State, unit: Unit, dest: Space) -> None:
    board = state.setup.board
    name = space_name(dest)
    if dest in board.walls:
        refuse(Refusal.SPACE_IS_WALL, f"{name} is a wall.", rulebook.ONE_OBJECT, space=name)
    occupant = state.occupant(dest)
    if occupant is not None:
        refuse(Refusal.SPACE_OCCUPIED, f"{name} is occupied by {occupant.name}.",
               rulebook.ONE_OBJECT, space=name, occupant=occupant.name)
    if dest in forbidden_base(state, unit.side):
        refuse(Refusal.BASE_GUARDED, f"{name} is on the opposing base, which cannot be "
               "entered while an opposing unit occupies any base space.",
               rulebook.RUNNER, space=name)

