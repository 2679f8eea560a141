"""The Infinidungeon referee: the engine contract of ``companion.games.core``, dispatch only.

Setup is read by :mod:`.setup`; each action's step is in :mod:`.turns` (which hands on to
:mod:`.movement`, :mod:`.combat` and :mod:`.rooms`); the state is written to JSON by the
default type-driven codec (``state_type``).

Example:
    >>> import random
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinidungeon",
    ...                           {"deck": "decks/default.toml"})
    >>> state = GAME.initial_state(GAME.load_setup(sources, {}))
    >>> state = GAME.apply(state, GAME.sample_chance(state, random.Random(1))).state
    >>> [str(action) for action in GAME.legal_actions(state)]
    ['go east', 'go north', 'go south', 'go west']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.games.core import CHANCE, Event, Game, Outcome, Transition
from companion.games.infinidungeon import rooms, setup, turns
from companion.games.infinidungeon.actions import (
    Action,
    Assign,
    Go,
    Reroll,
    Roll,
    Shuffle,
    Vault,
    parse_action,
)
from companion.games.infinidungeon.deck import BASIC, Deck
from companion.games.infinidungeon.info import INFO
from companion.games.infinidungeon.rulebook import RULEBOOK
from companion.games.infinidungeon.state import CHANCE_PHASES, DungeonState, Phase, Result

if TYPE_CHECKING:  # pragma: no cover
    import random

_STEPS: dict[type, Callable[[DungeonState, Any], rooms.Step]] = {
    Shuffle: turns.shuffle, Roll: turns.roll, Go: turns.go, Reroll: turns.reroll,
    Assign: turns.assign, Vault: turns.vault,
}
"""Each kind of action and the step that applies it."""

_EVENT_TEXTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "trap_sprung": lambda data: f"trap! roll every die, lose those below {data['face']}",
    "die_lost": lambda data: f"lost {data['count']} di{'e' if data['count'] == 1 else 'ce'}"
                             f" ({data['dice']} left)",
    "die_regained": lambda data: f"regained {data['count']} di"
                                 f"{'e' if data['count'] == 1 else 'ce'} ({data['dice']} now)",
    "room_flipped": lambda data: f"{data['card']} flips to its {data['side']} side",
    "crystal": lambda data: f"crystal {data['count']} of 4",
    "deck_reshuffled": lambda data: "deck reshuffled, Advanced sides down: "
                                    + " ".join(data["cards"]),
    "victory": lambda data: f"VICTORY: {data['detail']}",
    "defeat": lambda data: f"DEFEAT: {data['detail']}",
}
"""One short English line per event kind (``docs/events.md``)."""


class InfinidungeonGame(Game[Deck, DungeonState, Action]):
    """The solo dungeon of ``infinidungeon.md``, refereed rule by rule."""

    name = INFO.name
    title = INFO.title
    rulebook = RULEBOOK
    info = INFO
    state_type = DungeonState

    # -- setup -----------------------------------------------------------------------------
    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Deck:
        """Read the room deck from ``sources["deck"]`` (see :func:`.setup.load_setup`).

        Raises:
            SetupError: an option given, no deck given, or the deck file is malformed.
        """
        return setup.load_setup(sources, options)

    def initial_state(self, setup: Deck) -> DungeonState:
        """In the Entrance with five dice, the room deck waiting to be shuffled."""
        return DungeonState(setup, Phase.SHUFFLE, room=(setup.entrance.id, BASIC))

    # -- flow ------------------------------------------------------------------------------
    def current_actor(self, state: DungeonState) -> str | None:
        """``chance`` for rolls and shuffles, ``player`` otherwise, ``None`` once over."""
        if state.phase == Phase.OVER:
            return None
        return CHANCE if state.phase in CHANCE_PHASES else rooms.PLAYER

    def sample_chance(self, state: DungeonState, rng: random.Random) -> Action:
        """Shuffle the deck or roll the awaited dice with ``rng``."""
        action = turns.chance_action(state, rng)
        return action if action is not None else super().sample_chance(state, rng)

    def legal_actions(self, state: DungeonState) -> Sequence[Action]:
        """The player's choices, sorted by notation; empty at rolls and shuffles."""
        return turns.legal_actions(state)

    def apply(self, state: DungeonState, action: Action) -> Transition[DungeonState]:
        """Apply ``action``; every refusal names its rule (see ``rulebook.py``)."""
        turns.not_over(state)
        step = _STEPS.get(type(action))
        if step is None:
            raise TypeError(f"not an Infinidungeon action: {action!r}")
        next_state, events = step(state, action)
        return Transition(next_state, tuple(events))

    def outcome(self, state: DungeonState) -> Outcome | None:
        """Victory on defeating the boss; defeat on losing the last die (or a dead end)."""
        if state.result is None or state.termination is None:
            return None
        winners = (rooms.PLAYER,) if state.result == Result.VICTORY else ()
        return Outcome(winners, state.termination, state.detail)

    # -- notation --------------------------------------------------------------------------
    def parse_action(self, state: DungeonState, text: str) -> Action:
        """Read one action (see :mod:`companion.games.infinidungeon.actions`)."""
        return parse_action(state, text)

    def describe_event(self, event: Event) -> str:
        """One short English line for an event."""
        text = _EVENT_TEXTS.get(event.kind)
        return text(event.data) if text is not None else super().describe_event(event)


GAME = InfinidungeonGame()
"""The Infinidungeon engine."""

__all__ = ["GAME", "InfinidungeonGame"]
