"""Points, the end of the game and the tie-breaker chain (rulebook 1.1.1, 1.1.2, 1.2.2).

Example:
    >>> TIEBREAKERS[0]
    'partial_role_tokens'
"""

from __future__ import annotations

from collections.abc import Callable

from companion.games.core import Event
from companion.games.defiance.rulebook import Termination
from companion.games.defiance.state import Phase, Result, Seat, State, Status, evolve, placement_at

TIEBREAKERS = ("partial_role_tokens", "cards_in_play", "gambit_level", "tile_influence")
"""Rulebook 1.1.1 "Tiebreaker", compared in this order."""


def points(s: Seat) -> int:
    """A leader's Points: one per completed Role (defeated leaders' points count)."""
    return len(s.roles)


def team_points(state: State, team: str) -> int:
    """The Points of a team (a free-for-all leader is a team of one)."""
    return sum(points(s) for s in state.seats if state.rules.team_of(s.name) == team)


def teams(state: State) -> tuple[str, ...]:
    """Every side, in seating order of their first member."""
    seen: list[str] = []
    for _, team in state.rules.teams:
        if team not in seen:
            seen.append(team)
    return tuple(seen)


def _partial(state: State, s: Seat) -> int:
    return sum(count for _, count in s.progress)


def _in_play(state: State, s: Seat) -> int:
    """Base cost of cards in play (units in the group) + 1 per prepared (timeline) card."""
    return sum(state.rules.card(u.card).cost for u in s.group) + len(s.timeline)


def _gambit(state: State, s: Seat) -> int:
    return s.gambit


def _influence(state: State, s: Seat) -> int:
    if s.pos is None:
        return 0
    placement = placement_at(state, s.pos)
    return state.rules.tile(placement.tile).influence if placement else 0


MEASURES: dict[str, Callable[[State, Seat], int]] = {
    "partial_role_tokens": _partial, "cards_in_play": _in_play,
    "gambit_level": _gambit, "tile_influence": _influence,
}


def measure(state: State, team: str, key: str) -> int:
    """A team's total for one tie-breaker step (summed over its leaders)."""
    return sum(MEASURES[key](state, s) for s in state.seats
               if state.rules.team_of(s.name) == team)


def decide(state: State, sides: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """The winning sides by Points then the tie-breaker chain (rulebook 1.1.1).

    Returns the sides and the step that decided it (``points``, a :data:`TIEBREAKERS`
    name, or ``shared``).
    """
    best = max(team_points(state, t) for t in sides)
    leaders = tuple(t for t in sides if team_points(state, t) == best)
    if len(leaders) == 1:
        return leaders, "points"
    for key in TIEBREAKERS:
        top = max(measure(state, t, key) for t in leaders)
        leaders = tuple(t for t in leaders if measure(state, t, key) == top)
        if len(leaders) == 1:
            return leaders, key
    return leaders, "shared"


def winners_of(state: State, sides: tuple[str, ...]) -> tuple[str, ...]:
    """The players of the winning sides, in seating order."""
    return tuple(s.name for s in state.seats if state.rules.team_of(s.name) in sides)


def finish(state: State, winners: tuple[str, ...], termination: str, tiebreaker: str,
           detail: str, events: list[Event]) -> State:
    """End the game: ``game_over`` (with the deciding tie-breaker) then ``victory``."""
    scores = tuple((s.name, points(s)) for s in state.seats)
    events.append(Event("game_over", {"winners": list(winners), "tiebreaker": tiebreaker,
                                      "termination": termination}))
    events.append(Event("victory", {"winners": list(winners), "termination": termination,
                                    "detail": detail}))
    return evolve(state, phase=Phase.OVER,
                   result=Result(winners, termination, tiebreaker, detail, scores))


def end_of_round(state: State, events: list[Event]) -> State:
    """Check the end of the game at the end of a round.

    The game ends when a side reached its target or the round limit is reached (rulebook 1.1.1
    conditions 1 and 2; 1.1.2); Adventure ends only by its chapter's round limit here (a claim ends
    it at once).
    """
    rules = state.rules
    sides = teams(state)
    if rules.mode == "adventure":
        if rules.round_limit and state.round >= rules.round_limit:
            return finish(state, (), Termination.ROUND_LIMIT, "none",
                          f"Round {state.round} ended with no win condition met.", events)
        return state
    reached = [t for t in sides if team_points(state, t) >= rules.target_for(t)]
    if not reached and state.round < rules.round_limit:
        return state
    won, step = decide(state, sides)
    names = winners_of(state, won)
    why = Termination.POINTS_TARGET if reached else Termination.ROUND_LIMIT
    detail = (f"{', '.join(names)} win{'s' if len(names) == 1 else ''} at the end of round "
              f"{state.round} with {team_points(state, won[0])} Points"
              + ("" if step == "points" else f", decided by {step.replace('_', ' ')}") + ".")
    return finish(state, names, why, step, detail, events)


def last_side_standing(state: State, events: list[Event]) -> State:
    """If one side remains when all opponents are defeated, it wins (rulebook 8.6)."""
    if state.phase != Phase.TURNS:
        return state
    standing = {state.rules.team_of(s.name) for s in state.seats if s.status == Status.ACTIVE}
    if len(standing) != 1:
        return state
    side = standing.pop()
    names = winners_of(state, (side,))
    return finish(state, names, Termination.LAST_STANDING, "none",
                  f"{', '.join(names)} remain{'s' if len(names) == 1 else ''} "
                  "when every opponent is defeated.", events)
