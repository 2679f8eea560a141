"""The deck file: reading TOML with precise errors, and the deck checker (infinidungeon.md)."""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinidungeon.deck_check import check_deck
from companion.games.infinidungeon.setup import deck_from_toml
from tests.games.infinidungeon.helpers import DECK, DEFAULT_TEXT


def _error(text: str) -> SetupError:
    with pytest.raises(SetupError) as raised:
        deck_from_toml("my-deck.toml", text)
    return raised.value


def test_the_shipped_deck_agrees_with_the_rulebook() -> None:
    """infinidungeon.md "Introduction" and "Flipping Rooms": 9 cards, 4 crystal rooms, a
    boss reachable only by flipping, a healing pool and a treasure vault."""
    assert len(DECK.cards) == 9 and DECK.entrance.id == "entrance"
    assert check_deck(DECK) == []
    assert sum(card.basic.crystal for card in DECK.rooms) == 4
    bosses = [(card.id, side) for card in DECK.cards for side in ("basic", "advanced")
              if card.advanced is not None and card.side(side).kind == "boss"]
    assert bosses == [("throne", "advanced")]


def test_toml_syntax_errors_name_the_file_and_line() -> None:
    """docs/infinidungeon.md deck format: a broken file names where it broke."""
    error = _error('[deck]\nname = "x"\n[[card]]\nid = \n')
    assert error.source == "my-deck.toml" and error.where == "line 4"
    assert "not valid TOML" in error.problem


@pytest.mark.parametrize(("old", "new", "where", "words"), [
    ('doorways.north = { symbols = ["sun", "moon"] }\ndoorways.east = { symbols = ["star", '
     '"skull"], trap = 3 }', 'doorways.north = { symbols = ["sun"] }\ndoorways.east = '
     '{ symbols = ["star", "skull"], trap = 3 }', "card[1].basic.doorways.north.symbols",
     "exactly two"),
    ('{ name = "skeleton", faces = [1, 2] }', '{ name = "skeleton", faces = [1, 7] }',
     "card[1].basic.monsters[0].faces", "1 to 6"),
    ('room = "healing_pool"\ndoorways.north = { symbols = ["star", "sun"] }',
     'room = "sauna"\ndoorways.north = { symbols = ["star", "sun"] }', "card[6].basic.room",
     "'sauna'"),
    ('id = "den"', 'id = "crypt"', "card[7].id", "already the id of card[1]"),
    ('{ name = "rat", faces = [1, 2, 3, 4] }', '{ name = "rat", face = [1, 2, 3, 4] }',
     "card[7].basic.monsters[0].face", "unknown key"),
    ('doorways.west = { symbols = ["star", "sun"], trap = 3 }',
     'doorways.west = { symbols = ["star", "sun"], trap = 9 }',
     "card[7].basic.doorways.west.trap", "1-6"),
])
def test_malformed_entries_name_the_key_path_and_the_problem(old: str, new: str, where: str,
                                                             words: str) -> None:
    """docs/infinidungeon.md deck format: each bad key is named with what is wrong."""
    assert old in DEFAULT_TEXT
    error = _error(DEFAULT_TEXT.replace(old, new, 1))
    assert error.where == where
    assert words in error.problem
    assert str(error).startswith(f"my-deck.toml: {where}: ")


def test_the_checker_reports_every_inconsistency_with_card_and_side() -> None:
    """infinidungeon.md "Moving Room", "Facing the Room" and "Flipping Rooms": a doorway
    symbol no room carries, no boss, and not exactly four crystal rooms, all at once."""
    broken = (DEFAULT_TEXT
              .replace('doorways.north = { symbols = ["sun", "moon"] }\ndoorways.east = '
                       '{ symbols = ["star", "skull"], trap = 3 }',
                       'doorways.north = { symbols = ["sun", "comet"] }\ndoorways.east = '
                       '{ symbols = ["star", "skull"], trap = 3 }', 1)
              .replace('room = "boss"', 'room = "monsters"')
              .replace('{ name = "dragon", boss = true }', '{ name = "dragon", pair = true }')
              .replace('id = "hall"\nname = "Great Hall"\n\n[card.basic]\nsymbol = "star"\n'
                       'room = "monsters"\n',
                       'id = "hall"\nname = "Great Hall"\n\n[card.basic]\nsymbol = "star"\n'
                       'room = "monsters"\ncrystal = true\n'))
    problems = check_deck(deck_from_toml("broken.toml", broken))
    described = [str(problem) for problem in problems]
    assert ('crypt (basic): the north doorway shows \'comet\', a symbol no room carries '
            '[infinidungeon: "Moving Room"]') in described
    assert any(p.card == "" and "exactly four crystal rooms (found 5)" in p.problem
               for p in problems)
    assert any(p.card == "" and p.problem == "the deck has no boss room" for p in problems)
    assert len(problems) == 3


def test_the_checker_catches_a_boss_on_a_basic_side_and_a_crystal_that_cannot_flip() -> None:
    """infinidungeon.md "Flipping Rooms": flipping is the only way to reach the boss, and
    only a Basic side flips."""
    broken = DEFAULT_TEXT.replace(
        'room = "monsters"\ndoorways.north = { symbols = ["sun", "skull"] }',
        'room = "boss"\ndoorways.north = { symbols = ["sun", "skull"] }', 1).replace(
        '{ name = "knight", faces = [4, 5, 6] },\n  { name = "squire", faces = [1, 2] },',
        '{ name = "king", boss = true },').replace(
        'symbol = "star"\nroom = "monsters"\ndoorways.north = { symbols = ["moon", "skull"] }',
        'symbol = "star"\nroom = "monsters"\ncrystal = true\n'
        'doorways.north = { symbols = ["moon", "skull"] }')
    described = {(p.card, p.side, p.rule) for p in check_deck(deck_from_toml("b", broken))}
    assert ("throne", "basic", "Flipping Rooms") in described
    assert ("hall", "advanced", "Flipping Rooms") in described


def test_the_checker_counts_the_cards() -> None:
    """infinidungeon.md "Introduction": 9 cards, the Entrance and 8 rooms."""
    start = DEFAULT_TEXT.index('[[card]]\nid = "hall"')
    problems = check_deck(deck_from_toml("short.toml", DEFAULT_TEXT[:start]))
    assert problems[0].problem == \
        "the game has 9 cards: the Entrance and 8 rooms (this deck has 8)"
