"""Infinity's cases for the generic conformance test (tests/games/test_conformance.py).

legal_actions lists representative declarations (distances are continuous), so the illegal
samples are built to be refused in every state: moves far beyond any MOV value, shots out of
every weapon's range, objective points beyond the cap, dice when none are due, and a player
acting out of turn.
"""

from __future__ import annotations

from typing import Any

from companion.games.infinity import GAME
from companion.resources import shipped_sources
from tests.games.conformance_kit import ConformanceCase

SOURCES = shipped_sources("companion.games.infinity",
                          {"setup": "armies/example.toml", "profiles": "profiles/default.toml"})

SMALL = """
[game]
points = 40
rounds = 2
first = "Ben"

[[armies]]
player = "Ann"
troopers = [
    { id = "Fusilier", profile = "fusilier", cost = 10, lieutenant = true },
    { id = "Iguana", profile = "iguana", cost = 30 },
]

[[armies]]
player = "Ben"
troopers = [
    { id = "Grenzer", profile = "grenzer", cost = 16, lieutenant = true },
    { id = "Spektr", profile = "spektr", cost = 24, hidden = true },
]
"""


def always_illegal(state: Any, seen: list[Any]) -> list[Any]:
    """Actions that no state of these games may accept."""
    texts = ["roll 1", "arm 1", f"score {state.players[0]} 11", f"score {state.players[1]} 11"]
    actor = GAME.current_actor(state)
    other = next((p for p in state.players if p != actor), state.players[0])
    texts += [f"end {other}", f"pass {other}"]
    for sheet in state.sheets:
        texts.append(f"move {sheet.owner} {sheet.id} 99")
        enemy = next(s.id for s in state.sheets if s.owner != sheet.owner)
        texts.append(f"shoot {sheet.owner} {sheet.id} combi_rifle {enemy}@500*1")
    return [GAME.parse_action(state, text) for text in texts]


CASES = [
    ConformanceCase("example-armies", GAME, SOURCES, playouts=12,
                    illegal_samples=always_illegal),
    ConformanceCase("small-two-rounds", GAME,
                    {"setup": ("small.toml", SMALL), "profiles": SOURCES["profiles"]},
                    playouts=12, illegal_samples=always_illegal),
]
