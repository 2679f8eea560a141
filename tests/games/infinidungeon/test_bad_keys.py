"""Misspelt keys in a room deck and options: refused, naming the closest valid key.

Rulebook: infinidungeon.md "Introduction" (the 9 cards: the blue Entrance and the room deck):
a deck whose misspelt key is silently ignored is not the deck on
the table. Issue 14: name the key and the closest one.
"""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.setup import deck_from_toml
from companion.resources import shipped_text

DECK = shipped_text("companion.games.infinidungeon", "decks/default.toml")


@pytest.mark.parametrize(("old", "new", "where", "guess"), [
    ("[deck]\n", "[deck]\nnmae = 'x'\n", "deck.nmae", "name"),
    ("entrance = true", "entrence = true", "card[0].entrence", "entrance"),
])
def test_a_misspelt_deck_key_is_refused_naming_the_closest(old: str, new: str, where: str,
                                                           guess: str) -> None:
    """infinidungeon.md "Introduction": the deck is read whole or not at all."""
    assert old in DECK
    with pytest.raises(SetupError) as caught:
        deck_from_toml("deck.toml", DECK.replace(old, new, 1))
    assert caught.value.where == where
    assert f"did you mean {guess!r}" in caught.value.problem


def test_an_option_is_refused_since_the_game_takes_none() -> None:
    """infinidungeon.md "Introduction": the deck decides the game; a stray option is a mistake."""
    with pytest.raises(SetupError) as caught:
        GAME.load_setup({"deck": ("deck.toml", DECK)}, {"dice": 6})
    assert caught.value.where == "dice"
    assert "unknown option" in caught.value.problem
