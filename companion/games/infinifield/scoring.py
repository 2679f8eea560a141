"""Round end, scoring and the end of the match (``infinifield.md`` "Scoring", step 8).

- The round ends when one pawn is left; its player wins the round.
- Points: 10 per captured pawn (counted at the capture) and, for the round winner, the number
  of blocks still on the field when the last opponent leaves it.
- Rounds: each round won counts one.
- The match lasts an agreed number of rounds, or (points) until a player reaches the target
  total, checked when a round ends. The highest score wins; equal best scores share the win.
- Otherwise the field builder passes clockwise and the new builder rebuilds the field.

Example:
    >>> match_winners({"Ann": 30, "Ben": 30, "Cat": 12})
    ('Ann', 'Ben')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.core import Event, Outcome, Transition
from companion.games.infinifield.rulebook import Termination
from companion.games.infinifield.state import Phase, State


def match_winners(scores: Mapping[str, int]) -> tuple[str, ...]:
    """The players with the best score, in seating order."""
    best = max(scores.values())
    return tuple(player for player, score in scores.items() if score == best)


def finish_round(state: State, events: Sequence[Event]) -> Transition[State]:
    """Close the round won by the last pawn standing; end the match or pass the building.

    Args:
        state: the state with exactly one pawn left on the field.
        events: the events so far of the action that ended the round.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> from companion.games.infinifield.state import MatchRules
        >>> field = build_field([Block("W1", "white"), Block("W2", "white")], [("W1", "W2")])
        >>> state = State(MatchRules(("Ann", "Ben"), "quickstart", "points", 2), field, 1,
        ...               "Ann", Phase.MOVE, "Ben", pawns=(("Ben", "W2"),), points=(0, 10),
        ...               wins=(0, 0))
        >>> after = finish_round(state, [])
        >>> str(after.state.phase), after.state.builder, after.events[-1].data["scores"]
        ('rebuild', 'Ben', {'Ann': 0, 'Ben': 12})
    """
    winner = state.pawns[0][0]
    index = state.rules.players.index(winner)
    points = list(state.points)
    points[index] += state.blocks_left()
    wins = list(state.wins)
    wins[index] += 1
    state = state.evolve(points=tuple(points), wins=tuple(wins))
    scores = state.scores()
    found = [*events, Event("round_over", {"round": state.round, "winner": winner,
                                           "scores": scores})]
    rules = state.rules
    termination: Termination | None = None
    if rules.rounds is not None and state.round >= rules.rounds:
        termination = Termination.ROUNDS_PLAYED
    elif rules.target is not None and max(points) >= rules.target:
        termination = Termination.TARGET_REACHED
    if termination is None:
        builder = rules.seat_after(state.builder)
        return Transition(state.evolve(phase=Phase.REBUILD, builder=builder, to_act=builder,
                                       round=state.round + 1), tuple(found))
    winners = match_winners(scores)
    state = state.evolve(phase=Phase.OVER, to_act=None, winners=winners, termination=termination)
    outcome = match_outcome(state)
    assert outcome is not None
    found += [Event("match_over", {"winners": list(winners), "scores": scores}),
              Event("victory", {"winners": list(winners), "termination": termination,
                                "detail": outcome.detail})]
    return Transition(state, tuple(found))


def match_outcome(state: State) -> Outcome | None:
    """``None`` while the match goes on, else the winners, why it ended, and the scores.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> from companion.games.infinifield.state import MatchRules
        >>> field = build_field([Block("W1", "white")], [])
        >>> state = State(MatchRules(("Ann", "Ben"), "quickstart", "rounds", 1), field, 1,
        ...               "Ann", Phase.OVER, None, points=(0, 12), wins=(0, 1),
        ...               winners=("Ben",), termination=Termination.ROUNDS_PLAYED)
        >>> match_outcome(state).detail
        'Ben wins after 1 round(s) (rounds won: Ann 0, Ben 1).'
    """
    if state.phase != Phase.OVER or state.termination is None:
        return None
    scores = state.scores()
    unit = "points" if state.rules.scoring == "points" else "rounds won"
    table = ", ".join(f"{player} {score}" for player, score in scores.items())
    if state.termination == Termination.ROUNDS_PLAYED:
        why = f"after {state.round} round(s)"
    else:
        why = f"once a player reached {state.rules.target} points"
    names = " and ".join(state.winners)
    verb = "wins" if len(state.winners) == 1 else "share the win"
    return Outcome(state.winners, state.termination,
                   f"{names} {verb} {why} ({unit}: {table}).", scores)
