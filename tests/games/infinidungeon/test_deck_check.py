"""The deck checker agrees with the rulebook's crystal flip and does not invent rules.

Rulebook: infinidungeon.md "Flipping Rooms" ("immediately flip the room to its yellow
'Advanced' side and continue, fighting the new monsters who have appeared") and "Moving Room"
(a trap removes dice "with a value lower than the dice face below the trap"; nothing forbids
face 1).
"""

from __future__ import annotations

import pytest

from companion.games.core import IllegalAction, NotationError
from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.deck_check import check_deck
from companion.games.infinidungeon.setup import deck_from_toml
from companion.games.infinidungeon.state import Phase
from tests.games.infinidungeon.helpers import DECK, DEFAULT_TEXT, at, play


def test_every_crystal_room_of_the_shipped_deck_flips_to_new_monsters() -> None:
    """infinidungeon.md "Flipping Rooms": the flip means fighting new monsters."""
    crystal = [card for card in DECK.rooms if card.basic.crystal]
    assert len(crystal) == 4
    for card in crystal:
        assert card.advanced is not None and card.advanced.monsters, card.id
    shrine = at("shrine", phase=Phase.FIGHT_ROLL, pile=("hall",))  # cultist 2 4 6
    flipped, events = play(shrine, "roll 2 1 1 1 1", "reroll none", "assign 2:cultist")
    assert [e.kind for e in events] == ["room_flipped", "crystal"]
    assert flipped.room == ("shrine", "advanced") and flipped.phase == Phase.FIGHT_ROLL


def test_a_crystal_room_flipping_to_a_monsterless_side_is_reported() -> None:
    """infinidungeon.md "Flipping Rooms": a crystal flip with no new monsters disagrees."""
    text = DEFAULT_TEXT.replace(
        'room = "monsters"\ndoorways.north = { symbols = ["moon", "skull"] }',
        'room = "healing_pool"\ndoorways.north = { symbols = ["moon", "skull"] }', 1)
    text = text.replace('monsters = [\n  { name = "priest", faces = [1, 3, 5] },\n'
                        '  { name = "acolyte", faces = [2, 4] },\n]\n', "", 1)
    assert text.count("priest") == 0
    problems = check_deck(deck_from_toml("deck.toml", text))
    assert [(p.card, p.side, p.rule) for p in problems] == [("shrine", "basic",
                                                             "Flipping Rooms")]
    assert "fighting the new monsters who have appeared" in problems[0].problem


def test_a_trap_at_face_1_is_not_an_inconsistency() -> None:
    """infinidungeon.md "Moving Room": a face-1 trap removes nothing, which the rulebook
    does not forbid."""
    text = DEFAULT_TEXT.replace("trap = 2 }", "trap = 1 }", 1)
    assert text != DEFAULT_TEXT
    assert check_deck(deck_from_toml("deck.toml", text)) == []


def test_one_die_is_never_called_1_dice() -> None:
    """infinidungeon.md "Facing the Room" (reroll as many of those dice as you like): the
    texts say "1 die" ("1 dice" in issue 17)."""
    hall = at("hall", phase=Phase.FIGHT_ROLL, pile=("spring",))
    rolled, _ = play(hall, "roll 5 1 2 2 2", "reroll 3")
    with pytest.raises(IllegalAction) as refused:
        play(rolled, "roll 4 4")
    assert refused.value.reason.startswith("1 die is being rerolled, not 2")
    with pytest.raises(NotationError) as unread:
        GAME.parse_action(play(hall, "roll 5 1 2 2 2")[0], "reroll 1 -> 4 5")
    assert "1 die rerolled but 2 values given" in unread.value.problem
