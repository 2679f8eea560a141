"""Misspelt keys in the board and card files, and misspelt options: refused, naming the key.

Rulebook: 401-infinite.md "Board Space Types" and "Quick Start" (the board, the units, the
decks): a board whose ``nmae`` is silently ignored is not the board the players meant.
Issue 14: refuse unknown keys everywhere, naming the key and the closest valid one.
"""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinite401 import GAME
from companion.games.infinite401.board import load_board
from companion.games.infinite401.cardset import load_cards
from companion.resources import shipped_text

PACKAGE = "companion.games.infinite401"
BOARD = shipped_text(PACKAGE, "boards/default.toml")
CARDS = shipped_text(PACKAGE, "cards/default.toml")


@pytest.mark.parametrize(("text", "where", "guess"), [
    ('nmae = "Mine"\n' + BOARD, "nmae", "name"),
    ('tokn = "a5"\n' + BOARD, "tokn", "token"),
    (BOARD.replace("[field]\nblue", "[field]\nblu = \"south\"\nblue"), "field.blu", "blue"),
    (BOARD + '\n[units.rde]\nX1 = "a1"\n', "units.rde", "red"),
])
def test_a_misspelt_board_key_is_refused_naming_the_closest(text: str, where: str,
                                                            guess: str) -> None:
    """401-infinite.md "Board Space Types": the board file is read whole or not at all."""
    with pytest.raises(SetupError) as caught:
        load_board("board.toml", text)
    assert caught.value.where == where
    assert f"did you mean {guess!r}" in caught.value.problem


def test_a_board_name_must_be_text() -> None:
    """401-infinite.md "Board Space Types": the name shown on screen is text, not a number."""
    with pytest.raises(SetupError) as caught:
        load_board("board.toml", BOARD.replace('name = "Default board"', "name = nan"))
    assert caught.value.where == "name"


@pytest.mark.parametrize(("old", "new", "where", "guess"), [
    ('type = "attack"', 'type = "attack"\ntext_ = "x"', "abilities[0].text_", "text"),
    ("[[abilities]]", "abilites = []\n[[abilities]]", "abilites", "abilities"),
])
def test_a_misspelt_card_key_is_refused_naming_the_closest(old: str, new: str, where: str,
                                                           guess: str) -> None:
    """401-infinite.md "Ability": a card with a misspelt key is refused, not changed."""
    with pytest.raises(SetupError) as caught:
        load_cards("cards.toml", CARDS.replace(old, new, 1))
    assert caught.value.where == where
    assert f"did you mean {guess!r}" in caught.value.problem


def test_a_misspelt_effect_names_the_closest_effect() -> None:
    """401-infinite.md "Ability": ``{ damgae = 1 }`` is a typo for damage."""
    text = '[[abilities]]\nname = "Jab"\ntype = "attack"\nrange = "x\\nS"\n' \
           'effects = [{ damgae = 1 }]\n'
    with pytest.raises(SetupError) as caught:
        load_cards("cards.toml", text)
    assert caught.value.where == "abilities[0].effects[0].damgae"
    assert "did you mean 'damage'" in caught.value.problem


def test_a_misspelt_option_is_refused_naming_the_closest() -> None:
    """401-infinite.md "Quick Start" or "Competitor's Start": ``turn_limt`` is refused."""
    sources = {"board": ("board.toml", BOARD), "cards": ("cards.toml", CARDS)}
    with pytest.raises(SetupError) as caught:
        GAME.load_setup(sources, {"start": "quick", "turn_limt": 4})
    assert caught.value.where == "turn_limt"
    assert "unknown option; did you mean 'turn_limit'" in caught.value.problem


@pytest.mark.parametrize(("effect", "where"), [
    ('{ damage = 1, on = "source" }', "abilities[0].effects[0].on"),
    ('{ shield = 1, spaces = 2 }', "abilities[0].effects[0].spaces"),
])
def test_a_key_beside_an_hp_effect_is_refused_naming_it(effect: str, where: str) -> None:
    """401-infinite.md "Ability": ``{ damage = N }`` deals N to the target and takes no other
    key; ``on = "source"`` beside it is refused naming that key, not silently dropped or
    refused without saying which key is wrong (issue 16: one reader for every table)."""
    text = '[[abilities]]\nname = "Jab"\ntype = "attack"\nrange = "x\\nS"\n' \
           f'effects = [{effect}]\n'
    with pytest.raises(SetupError) as caught:
        load_cards("cards.toml", text)
    assert caught.value.where == where
    assert "unknown key" in caught.value.problem


@pytest.mark.parametrize(("text", "where", "guess"), [
    (BOARD.replace("[units.red]", "[unit.red]", 1), "unit", "units"),
    (BOARD.replace('red = "north"', 'red = "north"\nrd = "north"'), "field.rd", "red"),
])
def test_every_table_of_the_board_refuses_an_unknown_key(text: str, where: str,
                                                          guess: str) -> None:
    """401-infinite.md "Board Space Types": a misspelt table or side is named with the
    closest valid key, whichever table of the board it is in."""
    with pytest.raises(SetupError) as caught:
        load_board("board.toml", text)
    assert caught.value.where == where
    assert f"did you mean {guess!r}" in caught.value.problem
