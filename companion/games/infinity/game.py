"""The Infinity (third edition, introductory rules) referee: the engine-contract class.

Dispatch only: the setup is read by :mod:`.setup`, an action is applied by :mod:`.orders`
(declaration, AROs, dice, what follows) and :mod:`.resolution` (rolls, ARM, Wounds, turns
and the end), the representative legal declarations come from :mod:`.choices`, and events
are worded by :mod:`.describe`. After the last Game Round the winner is decided by objective
points, then Victory Points.

Example:
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinity",
    ...     {"setup": "armies/example.toml", "profiles": "profiles/default.toml"})
    >>> state = GAME.initial_state(GAME.load_setup(sources, {}))
    >>> GAME.current_actor(state), state.orders
    ('Ann', 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from companion.games.core import Event, Game, IllegalAction, Outcome, Transition
from companion.games.info import GameInfo

from . import actions, describe, orders, setup
from . import state as states
from .actions import Action, Roll
from .army import ArmySetup
from .choices import choices
from .info import INFO
from .resolution import dice_due, winners
from .rolls import DIE_FACES
from .rulebook import RULEBOOK
from .state import Phase, State

if TYPE_CHECKING:  # pragma: no cover
    import random


class InfinityGame(Game[ArmySetup, State, Action]):
    """Infinity N3 introductory rules: rolls, Face to Face, ARM, Wounds, Orders and AROs."""

    name = INFO.name
    title = INFO.title
    rulebook = RULEBOOK
    info: ClassVar[GameInfo] = INFO
    state_type = State

    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> ArmySetup:
        """Read ``sources["profiles"]`` (profile data) and ``sources["setup"]`` (armies)."""
        return setup.load_setup(sources, options)

    def initial_state(self, setup: ArmySetup) -> State:
        """Round 1, the first player's Active Turn with one Order per trooper."""
        return states.initial_state(setup)

    def current_actor(self, state: State) -> str | None:
        """The active player, the reactive player (AROs), chance, or None when over."""
        return orders.acting_player(state)

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """Roll the d20s due with ``rng`` (the contract's refusal when none are due)."""
        if state.phase not in orders.DICE_PHASES:
            return super().sample_chance(state, rng)
        return Roll(orders.dice_word(state), tuple(rng.randint(1, DIE_FACES)
                                                   for _ in range(dice_due(state))))

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Representative declarations (see :mod:`.choices`); empty while dice are due."""
        listed = []
        for action in choices(state):
            try:
                self.apply(state, action)
            except IllegalAction:
                continue
            listed.append(action)
        return listed

    def outcome(self, state: State) -> Outcome | None:
        """Objective points, then Victory Points, once the game is over."""
        if state.phase != Phase.OVER:
            return None
        won, termination, detail = winners(state)
        return Outcome(won, termination, detail,
                       dict(zip(state.players, state.objectives, strict=True)))

    def apply(self, state: State, action: Action) -> Transition[State]:
        """Apply one action or refuse it with the rule it breaks."""
        new, events = orders.apply_action(state, action)
        return Transition(new, tuple(events))

    def parse_action(self, state: State, text: str) -> Action:
        """Read one action (docs/infinity.md)."""
        return actions.parse_action(state, text)

    def describe_event(self, event: Event) -> str:
        """One short line per event."""
        return describe.describe_event(event) or super().describe_event(event)


GAME = InfinityGame()
