"""The Infinifield referee: the :class:`~companion.games.core.Game` contract over the modules.

Example:
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinifield",
    ...                           {"setup": "fields/quickstart.toml"})
    >>> setup = GAME.load_setup(sources, {"players": ["Ann", "Ben"]})
    >>> state = GAME.initial_state(setup)
    >>> GAME.current_actor(state)
    'Ben'
    >>> GAME.apply(state, GAME.parse_action(state, "start Ben W1")).state.to_act
    'Ann'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.games.core import Event, Game, Outcome, Transition
from companion.games.infinifield import flow
from companion.games.infinifield.actions import Action, parse_action
from companion.games.infinifield.describe import describe_event
from companion.games.infinifield.info import INFO
from companion.games.infinifield.rulebook import RULEBOOK
from companion.games.infinifield.scoring import match_outcome
from companion.games.infinifield.setup import load_setup
from companion.games.infinifield.state import InfinifieldSetup, State
from companion.games.info import GameInfo


class InfinifieldGame(Game[InfinifieldSetup, State, Action]):
    """Referee of Infinifield, every rule of ``infinifield.md``.

    Field checks, starting positions, chase-and-capture, block removal, rounds and scoring;
    this class only hands each call to the module of its concern. The state is saved by the
    default type-driven codec (:attr:`state_type`).
    """

    name = "infinifield"
    title = "Infinifield"
    rulebook = RULEBOOK
    info: ClassVar[GameInfo] = INFO
    state_type = State

    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> InfinifieldSetup:
        """Read the field file (role ``setup``) and the match options."""
        return load_setup(sources, options)

    def initial_state(self, setup: InfinifieldSetup) -> State:
        """Round 1, choosing starting positions, the counter on X."""
        return flow.initial_state(setup.field, setup.rules, setup.builder)

    def current_actor(self, state: State) -> str | None:
        """The player to act, or ``None`` once the match is over."""
        return state.to_act

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action, sorted by notation text."""
        return flow.legal_actions(state)

    def apply(self, state: State, action: Action) -> Transition[State]:
        """Apply an action or raise :class:`~companion.games.core.IllegalAction`."""
        return flow.apply_action(state, action)

    def outcome(self, state: State) -> Outcome | None:
        """``None`` while the match goes on."""
        return match_outcome(state)

    def parse_action(self, state: State, text: str) -> Action:
        """Read ``start``/``move``/``remove``/``rebuild`` notation."""
        return parse_action(state, text)

    def describe_event(self, event: Event) -> str:
        """One short English line for an event (see ``describe.py``)."""
        return describe_event(event) or super().describe_event(event)


GAME = InfinifieldGame()
"""The engine instance the registry loads."""
