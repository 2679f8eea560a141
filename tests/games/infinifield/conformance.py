"""Infinifield setups for the generic conformance test (tests/games/test_conformance.py)."""

from __future__ import annotations

from companion.games.infinifield import GAME
from companion.resources import shipped_sources
from tests.games.conformance_kit import ConformanceCase

PACKAGE = "companion.games.infinifield"


def _field(name: str) -> dict[str, tuple[str, str]]:
    return shipped_sources(PACKAGE, {"setup": f"fields/{name}.toml"})


CASES = [
    ConformanceCase("quickstart-2p", GAME, _field("quickstart"),
                    {"players": ["Ann", "Ben"], "rounds": 2}, playouts=12),
    ConformanceCase("quickstart-4p", GAME, _field("quickstart"),
                    {"players": ["Ann", "Ben", "Cat", "Dan"], "rounds": 1}, playouts=8),
    ConformanceCase("official-3p-points", GAME, _field("official"),
                    {"players": ["Ann", "Ben", "Cat"], "mode": "official", "rounds": 2},
                    playouts=8),
    ConformanceCase("castle3d-2p-rounds", GAME, _field("castle3d"),
                    {"players": ["Ann", "Ben"], "scoring": "rounds", "rounds": 2},
                    playouts=6),
]
