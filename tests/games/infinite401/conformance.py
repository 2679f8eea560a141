"""401 Infinite setups for the generic conformance test (``tests/games/test_conformance.py``).

Random play rarely finishes a game of 401 Infinite (the HP token heals, random units wander),
so these cases set the companion's ``turn_limit`` option: after that many turns the game is a
draw (documented in ``docs/401-infinite.md`` "Turn limit"; it is not a rule of the game).
"""

from __future__ import annotations

from companion.games.infinite401 import GAME
from companion.resources import shipped_sources
from tests.games.conformance_kit import ConformanceCase

SOURCES = shipped_sources("companion.games.infinite401",
                          {"board": "boards/default.toml", "cards": "cards/default.toml"})

CASES = [
    ConformanceCase("quick-start", GAME, SOURCES, {"start": "quick", "turn_limit": 150},
                    playouts=4, max_actions=1500),
    ConformanceCase("competitors-start", GAME, SOURCES,
                    {"start": "competitor", "turn_limit": 150}, playouts=3, max_actions=1500),
]
