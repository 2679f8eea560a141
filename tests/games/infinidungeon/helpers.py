"""Shared helpers: the shipped deck, states placed at a chosen point, and the shared kit.

``play``, ``kinds``, ``refusal`` and ``notation_error`` are :mod:`tests.games.kit`'s, bound
to Infinidungeon's ``GAME``; only the builders this game needs are written here.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.deck import Deck
from companion.games.infinidungeon.setup import deck_from_toml
from companion.games.infinidungeon.state import DungeonState, Phase
from companion.resources import shipped_sources, shipped_text
from tests.games import kit

PACKAGE = "companion.games.infinidungeon"
DEFAULT_TEXT = shipped_text(PACKAGE, "decks/default.toml")
SOURCES = shipped_sources(PACKAGE, {"deck": "decks/default.toml"})
DECK: Deck = deck_from_toml("default.toml", DEFAULT_TEXT)

play = partial(kit.play, GAME)
"""Apply the actions written in ``texts``; return the state and every event."""
refusal = partial(kit.refusal, GAME)
"""The refusal of one action (fails the test when it is accepted)."""
notation_error = partial(kit.notation_error, GAME)
"""The NotationError of text that is not an action."""
kinds = kit.kinds


def at(card: str, side: str = "basic", phase: Phase = Phase.MOVE, pile: tuple[str, ...] = (),
       **fields: Any) -> DungeonState:
    """A state in room ``card`` (``side`` up); ``pile`` as ``"id"`` or ``"id/advanced"``."""
    placed = tuple((entry.split("/")[0], entry.split("/")[1] if "/" in entry else "basic")
                   for entry in pile)
    return replace(DungeonState(DECK, phase), room=(card, side), pile=placed, **fields)


def legal_texts(state: DungeonState) -> list[str]:
    """The legal actions of ``state`` in notation."""
    return [str(action) for action in GAME.legal_actions(state)]
