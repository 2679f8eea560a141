"""Defiance setups for the generic conformance test (tests/games/test_conformance.py)."""

from __future__ import annotations

from companion.games.defiance import GAME
from tests.games.conformance_kit import ConformanceCase
from tests.games.defiance.helpers import sources

CASES = [
    ConformanceCase("quickplay", GAME, sources("data/games/quickplay.toml"), playouts=8,
                    check_every_legal=False),
    ConformanceCase("skirmish-teams", GAME, sources("data/games/skirmish-teams.toml"),
                    playouts=4, check_every_legal=False),
    ConformanceCase("adventure", GAME, sources("data/games/adventure.toml"), playouts=4,
                    check_every_legal=False),
]
