"""Small games for the Infinity tests: build a state from armies text and play notation."""

from __future__ import annotations

from companion.games.core import Event
from companion.games.infinity import GAME
from companion.games.infinity.state import State
from companion.resources import shipped_sources

PROFILES = shipped_sources("companion.games.infinity",
                           {"profiles": "profiles/default.toml"})["profiles"]

DUEL = """
[game]
points = 100
rounds = 2
first = "Ann"

[[armies]]
player = "Ann"
troopers = [
    { id = "Fusilier", profile = "fusilier", cost = 10, lieutenant = true },
    { id = "Iguana", profile = "iguana", cost = 40 },
]

[[armies]]
player = "Ben"
troopers = [
    { id = "Grenzer", profile = "grenzer", cost = 16, lieutenant = true },
    { id = "Daturazi", profile = "daturazi", cost = 14 },
    { id = "Spektr", profile = "spektr", cost = 28, hidden = true },
]
"""


def new_state(armies: str = DUEL) -> State:
    """The initial state of a game between the armies described in ``armies``."""
    setup = GAME.load_setup({"setup": ("armies.toml", armies), "profiles": PROFILES}, {})
    return GAME.initial_state(setup)


def play(state: State, *texts: str) -> tuple[State, list[Event]]:
    """Apply actions in notation; return the final state and every event they caused."""
    transition = GAME.play(state, *texts)
    return transition.state, list(transition.events)


def kinds(events: list[Event]) -> list[str]:
    """The kinds of ``events`` in order."""
    return [event.kind for event in events]
