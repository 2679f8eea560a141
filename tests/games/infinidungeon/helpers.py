"""Shared helpers: the shipped deck, states placed at a chosen point, and text actions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.core import Event
from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.deck import Deck
from companion.games.infinidungeon.deck_toml import deck_from_toml
from companion.games.infinidungeon.state import MOVE, DungeonState
from companion.resources import shipped_sources, shipped_text

PACKAGE = "companion.games.infinidungeon"
DEFAULT_TEXT = shipped_text(PACKAGE, "decks/default.toml")
SOURCES = shipped_sources(PACKAGE, {"deck": "decks/default.toml"})
DECK: Deck = deck_from_toml("default.toml", DEFAULT_TEXT)


def at(card: str, side: str = "basic", phase: str = MOVE, pile: tuple[str, ...] = (),
       **fields: Any) -> DungeonState:
    """A state in room ``card`` (``side`` up); ``pile`` as ``"id"`` or ``"id/advanced"``."""
    placed = tuple((entry.split("/")[0], entry.split("/")[1] if "/" in entry else "basic")
                   for entry in pile)
    return replace(DungeonState(DECK, phase), room=(card, side), pile=placed, **fields)


def play(state: DungeonState, *texts: str) -> tuple[DungeonState, list[Event]]:
    """Apply the actions written in ``texts``; return the state and every event."""
    transition = GAME.play(state, *texts)
    return transition.state, list(transition.events)


def kinds(events: list[Event]) -> list[str]:
    """The kinds of ``events`` in order."""
    return [event.kind for event in events]


def legal_texts(state: DungeonState) -> list[str]:
    """The legal actions of ``state`` in notation."""
    return [str(action) for action in GAME.legal_actions(state)]
