"""Infinidungeon's cases for the generic conformance test (tests/games/test_conformance.py)."""

from __future__ import annotations

from companion.games.infinidungeon import GAME
from companion.resources import shipped_sources
from tests.games.conformance_kit import ConformanceCase

CASES = [
    ConformanceCase(
        name="default-deck",
        game=GAME,
        sources=shipped_sources("companion.games.infinidungeon", {"deck": "decks/default.toml"}),
        playouts=20,
        max_actions=1500,
    ),
]
