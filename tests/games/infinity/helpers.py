"""Small games for the Infinity tests: build a state from armies text and play notation.

``play``, ``kinds``, ``refusal`` and ``notation_error`` are the shared kit
(:mod:`tests.games.kit`) bound to Infinity's ``GAME``; only the builders are Infinity's own.
"""

from __future__ import annotations

from functools import partial

from companion.games.infinity import GAME
from companion.games.infinity.state import State
from companion.resources import shipped_sources
from tests.games import kit
from tests.games.kit import kinds

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

play = partial(kit.play, GAME)
"""Apply actions in notation: ``play(state, *texts) -> (state, events)``."""

refusal = partial(kit.refusal, GAME)
"""The refusal of one action: ``refusal(state, text) -> IllegalAction``."""

notation_error = partial(kit.notation_error, GAME)
"""The NotationError of text that is not an action: ``notation_error(state, text)``."""

__all__ = ["DUEL", "PROFILES", "kinds", "new_state", "notation_error", "play", "refusal"]


def new_state(armies: str = DUEL) -> State:
    """The initial state of a game between the armies described in ``armies``."""
    setup = GAME.load_setup({"setup": ("armies.toml", armies), "profiles": PROFILES}, {})
    return GAME.initial_state(setup)
