"""Runner's Rule: a unit that lands on the opposing base goes back and scores.

The runner "is immediately placed back at your own Base, and you can subtract 1 HP from any
opponent Unit" (``401-infinite.md`` "TECHNICALITIES", Runner's Rule). The player chooses the
free space of its base and the opposing unit with a ``score`` action; with one free space and
one opposing unit left there is nothing to choose, so the referee scores it at once.

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> score_without_choice(example_state(), [])[1]
    []
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.core import Event, refuse
from companion.games.infinite401 import rulebook
from companion.games.infinite401.actions import Action, Score
from companion.games.infinite401.board import other_side, space_name
from companion.games.infinite401.hp import deal_damage
from companion.games.infinite401.rulebook import Refusal
from companion.games.infinite401.state import State
from companion.games.infinite401.victory import outcome


def score_actions(state: State) -> list[Action]:
    """Every way the first waiting runner may score: a free space of its base x a target."""
    runner = state.unit(state.runners[0])
    board = state.setup.board
    occupied = {u.space for u in state.units if u.alive}
    free = sorted(s for s in board.bases[runner.side] if s not in occupied)
    targets = state.living(other_side(runner.side))
    return [Score(runner.side, runner.name, space, target.name)
            for space in free for target in targets]


def apply_score(state: State, action: Action) -> tuple[State, list[Event]]:
    """Score the first waiting runner with ``action`` (the only action a runner allows).

    Raises:
        IllegalAction: ``action`` is not this runner's score, or names a space or a target
            it cannot.
    """
    if not isinstance(action, Score):
        runner = state.unit(state.runners[0])
        refuse(Refusal.RUNNER_PENDING, f"{runner.name} landed on the opposing base: "
               f"{runner.side} first returns it to its base and scores (score SIDE UNIT SPACE "
               "TARGET).", rulebook.RUNNER, unit=runner.name)
    return score(state, action)


def score_without_choice(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Score every waiting runner whose score leaves no choice, at once.

    With one free space of its base and one opposing unit left there is nothing to choose,
    so the referee scores it without a ``score`` line; the ``runner_scored`` event says so
    (``automatic``). Otherwise the player writes ``score``.
    """
    while state.runners and outcome(state) is None:
        choices = score_actions(state)
        if len(choices) != 1:
            break
        choice = choices[0]
        assert isinstance(choice, Score)
        state, scored = score(state, choice, automatic=True)
        events = [*events, *scored]
    return state, events


def score(state: State, action: Score, automatic: bool = False) -> tuple[State, list[Event]]:
    """The runner goes back to ``action.space`` of its base; ``action.target`` loses 1 HP.

    Raises:
        IllegalAction: another runner must score first, the space is not a free space of
            the runner's base, or the target is not an opposing unit in the game.
    """
    runner = state.unit(state.runners[0])
    if action.unit != runner.name or action.side != runner.side:
        refuse(Refusal.RUNNER_PENDING, f"{runner.name} must score first.", rulebook.RUNNER,
               unit=runner.name)
    base = state.setup.board.bases[runner.side]
    occupant = state.occupant(action.space)
    if action.space not in base or occupant is not None:
        refuse(Refusal.NOT_A_FREE_BASE_SPACE, f"{space_name(action.space)} is not a free space "
               f"of {runner.side}'s base.", rulebook.RUNNER, space=space_name(action.space),
               side=runner.side)
    target = state.unit(action.target)
    if target.side == runner.side or not target.alive:
        refuse(Refusal.NOT_AN_OPPONENT, f"{target.name} is not an opposing unit in the game.",
               rulebook.RUNNER, unit=target.name)
    state = replace(state.with_unit(replace(runner, space=action.space)),
                    runners=state.runners[1:])
    events = [Event("runner_scored", {"unit": runner.name, "target": target.name,
                                      "space": space_name(action.space),
                                      "automatic": automatic})]
    state, hurt = deal_damage(state, target.name, 1, ignore_effects=True)
    return state, events + hurt
