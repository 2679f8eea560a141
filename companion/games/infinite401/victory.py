"""How a game of 401 Infinite ends: every opposing unit eliminated, or the turn limit.

A side wins when every opposing unit is eliminated (``401-infinite.md`` "STARTING THE
GAME", Victory Objective). The ``turn_limit`` option (a companion option, not a rule)
declares a draw once that many turns have been played.

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> outcome(example_state()) is None
    True
"""

from __future__ import annotations

from companion.games.core import Event, Outcome
from companion.games.infinite401.board import SIDES, other_side
from companion.games.infinite401.rulebook import Termination
from companion.games.infinite401.state import State


def outcome(state: State) -> Outcome | None:
    """``None`` while the game goes on (or has not started), else who won and why."""
    if state.steps:
        return None
    for side in SIDES:
        if not state.living(other_side(side)):
            return Outcome((side,), Termination.ALL_UNITS_ELIMINATED,
                           f"{side.capitalize()} eliminated all of "
                           f"{other_side(side).capitalize()}'s units.")
    limit = state.setup.turn_limit
    if limit is not None and state.turn > limit:
        return Outcome((), Termination.TURN_LIMIT, f"Draw: {limit} turns were played (a "
                       "companion option, not a rule of the game).")
    return None


def victory_events(before: State, after: State) -> tuple[Event, ...]:
    """The ``victory`` event when the action from ``before`` to ``after`` won the game."""
    result = outcome(after)
    if result is None or not result.winners or outcome(before) is not None:
        return ()
    return (Event("victory", {"winners": list(result.winners),
                              "termination": result.termination, "detail": result.detail}),)
