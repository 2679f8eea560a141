"""Infinidungeon's cases for the generic conformance test (tests/games/test_conformance.py).

Random play loses the shipped deck's fights early, so a second, easy deck (each side's
monsters replaced by one any-face monster, the boss unchanged) lets random playouts reach
crystals, the vault, the fourth-crystal reshuffle and the boss.
"""

from __future__ import annotations

import re

from companion.games.infinidungeon import GAME
from companion.resources import shipped_sources
from tests.games.conformance_kit import ConformanceCase

DEFAULT = shipped_sources("companion.games.infinidungeon", {"deck": "decks/default.toml"})


def easy_deck_text(text: str) -> str:
    """The deck with every non-boss side's monsters replaced by one imp accepting any face."""
    def simplify(match: re.Match[str]) -> str:
        return match.group(0) if "boss = true" in match.group(0) else \
            'monsters = [{ name = "imp" }]'
    return re.sub(r"monsters = \[\n.*?\n\]", simplify, text, flags=re.DOTALL)


EASY = {"deck": ("easy.toml", easy_deck_text(DEFAULT["deck"][1]))}

CASES = [
    ConformanceCase(name="default-deck", game=GAME, sources=DEFAULT, playouts=20,
                    max_actions=1500),
    ConformanceCase(name="easy-deck", game=GAME, sources=EASY, playouts=12, max_actions=3000),
]
