"""The 401 Infinite referee: the engine contract, dispatching to the rules modules.

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> state = example_state()
    >>> GAME.current_actor(state)
    'blue'
    >>> GAME.apply(state, GAME.parse_action(state, "move blue B1 a2")).state.unit("B1").space
    (0, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.games.core import CHANCE, Event, Game, Outcome, Transition, refuse
from companion.games.infinite401 import rulebook
from companion.games.infinite401.actions import Action, Flip, Shuffle, parse_action
from companion.games.infinite401.board import SIDES
from companion.games.infinite401.info import INFO
from companion.games.infinite401.legal import legal_actions
from companion.games.infinite401.rulebook import Refusal
from companion.games.infinite401.runners import apply_score, score_without_choice
from companion.games.infinite401.setup import Setup401, load_setup
from companion.games.infinite401.starting import apply_step, steps_for
from companion.games.infinite401.state import CHANCE_PHASES, Phase, SideCards, State, initial_units
from companion.games.infinite401.turns import apply_turn
from companion.games.infinite401.victory import outcome, victory_events

if TYPE_CHECKING:  # pragma: no cover
    import random


class Infinite401Game(Game[Setup401, State, Action]):
    """401 Infinite, refereed from the rulebook ``shared/rules/401-infinite.md``."""

    name = INFO.name
    title = INFO.title
    rulebook = rulebook.RULEBOOK
    info = INFO
    state_type = State

    # -- setup -----------------------------------------------------------------------------
    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Setup401:
        """Read the ``board`` and ``cards`` files; options ``start`` and ``turn_limit``.

        Raises:
            SetupError: a file or option cannot be used.
        """
        return load_setup(sources, options)

    def initial_state(self, setup: Setup401) -> State:
        """Units on their base with 2 HP, the token on its spawner, the first step due."""
        cards = tuple(SideCards(deck=setup.cards.deck(side), stack=setup.cards.deck(side))
                      for side in SIDES)
        return State(setup, initial_units(setup.board), (cards[0], cards[1]),
                     token=setup.board.token_start, steps=steps_for(setup.start))

    # -- flow ------------------------------------------------------------------------------
    def current_actor(self, state: State) -> str | None:
        """``chance`` for shuffles and the coin, else the side to act (``None`` once over)."""
        if state.steps:
            step = state.steps[0]
            return CHANCE if step.phase in CHANCE_PHASES else step.side
        if outcome(state) is not None:
            return None
        if state.runners:
            return state.unit(state.runners[0]).side
        return state.to_move

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """Shuffle the due stack or flip the coin with ``rng``."""
        if not state.steps or state.phase not in CHANCE_PHASES:
            return super().sample_chance(state, rng)
        if state.phase is Phase.FLIP:
            return Flip(rng.choice(SIDES))
        side = state.steps[0].side
        stack = list(state.side_cards(side).stack)
        rng.shuffle(stack)
        return Shuffle(side, tuple(stack))

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action, sorted by notation text (moves by destination)."""
        if outcome(state) is not None:
            return []
        return legal_actions(state)

    def apply(self, state: State, action: Action) -> Transition[State]:
        """Apply ``action``; refusals cite the rulebook."""
        if outcome(state) is not None:
            refuse(Refusal.GAME_OVER, "The game is over.", rulebook.VICTORY)
        if state.steps:
            return Transition(apply_step(state, action))
        if state.phase is Phase.SCORE:
            next_state, events = apply_score(state, action)
        else:
            next_state, events = apply_turn(state, action)
        next_state, events = score_without_choice(next_state, events)
        return Transition(next_state, tuple(events) + victory_events(state, next_state))

    def outcome(self, state: State) -> Outcome | None:
        """A side wins when every opposing unit is eliminated; the turn limit draws."""
        return outcome(state)

    # -- notation --------------------------------------------------------------------------
    def parse_action(self, state: State, text: str) -> Action:
        """Read an action (see :mod:`companion.games.infinite401.actions`)."""
        return parse_action(state, text)

    def describe_event(self, event: Event) -> str:
        """One short line for an event."""
        data = event.data
        if event.kind == "hp_changed":
            way = "clockwise" if data["rotation"] > 0 else "counter-clockwise"
            return (f"{data['unit']} {data['old']}->{data['new']} HP (turn the indicator "
                    f"{abs(data['rotation'])}° {way})")
        if event.kind == "unit_eliminated":
            return f"{data['unit']} is eliminated"
        if event.kind == "hp_token_collected":
            return f"{data['unit']} collects the HP token on {data['spawner']}"
        if event.kind == "hp_token_removed":
            return "the HP token leaves the game (deadlock)"
        if event.kind == "runner_scored":
            how = (" (scored by the referee: no other space or target to choose)"
                   if data.get("automatic") else "")
            return (f"{data['unit']} scores a run against {data['target']} and goes back to "
                    f"{data.get('space', 'its base')}{how}")
        if event.kind == "victory":
            return f"victory: {', '.join(data['winners'])}"
        return super().describe_event(event)


GAME = Infinite401Game()
"""The 401 Infinite engine."""
