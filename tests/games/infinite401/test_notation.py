"""The notation: every verb round-trips, input is case-insensitive, bad text is named."""

from __future__ import annotations

import pytest

from companion.games.core import NotationError
from companion.games.infinite401 import GAME
from companion.games.infinite401.actions import Move, Play
from companion.games.infinite401.render import render
from tests.games.infinite401.helpers import new_game, play, started


@pytest.mark.parametrize("text", [
    "move blue B1 c3", "move blue B1 c2 c3", "play blue Strike B2 -> R1",
    "play blue Smokescreen -> B1 B3", "cycle blue Hex", "end red", "score red R1 d7 B2",
    "flip blue", "hand red Serration Chainbind Strike Guard",
    "deck red Serration Chainbind Strike Shockwave Lunge Guard Escort Hex passive Bulwark",
])
def test_every_verb_prints_what_it_reads(text: str) -> None:
    """docs/401-infinite.md "Notation": `str(action)` prints exactly what `parse` reads back."""
    action = GAME.parse_action(started(), text)
    assert str(action) == text
    assert GAME.parse_action(started(), str(action)) == action


def test_input_is_case_insensitive_and_printed_as_the_setup_spells_it() -> None:
    """DESIGN.md "Notation": names are case-insensitive on input, printed as written."""
    action = GAME.parse_action(started(), "PLAY Blue strike b2 -> r1")
    assert action == Play("blue", "Strike", "B2", ("R1",))
    assert str(action) == "play blue Strike B2 -> R1"
    targets = GAME.parse_action(started(), "play blue smokescreen -> b3 b1")
    assert str(targets) == "play blue Smokescreen -> B1 B3"


def test_a_move_may_name_the_unit_s_own_space_first() -> None:
    """docs/401-infinite.md "Notation": `move red R1 c3 c4 c5` where c3 is R1's space."""
    state = started()
    assert GAME.parse_action(state, "move blue B1 c1 c2 c3") == Move(
        "blue", "B1", (2, 2), ((2, 1), (2, 2)))


@pytest.mark.parametrize(("text", "words"), [
    ("jump blue B1 c3", "unknown verb"), ("move green B1 c3", "not a side"),
    ("move blue X9 c3", "not a unit"), ("move blue B1 z3", "not a space"),
    ("move blue B1", "destination"), ("play blue Strike B2 R1", "->"),
    ("play blue Nope B2 -> R1", "not an ability card"), ("end blue now", "only the side"),
    ("deck blue Strike Guard", "passive"), ("play blue Smokescreen -> B1 B1", "twice"),
    ("end", "a verb and a side"),
])
def test_text_that_is_not_an_action_is_refused_with_the_problem(text: str, words: str) -> None:
    """docs/engine-contract.md: NotationError for text that is not an action (invalid)."""
    with pytest.raises(NotationError) as error:
        GAME.parse_action(started(), text)
    assert words in error.value.problem


def test_the_picture_shows_units_walls_token_and_competitor_stack_order() -> None:
    """401-infinite.md "STARTING THE GAME" Competitor's Start: players may view the order of
    their own Stack at any time (the companion prints it)."""
    text = render(started())
    assert "4  HP .  ## .  ## .  S" in text and "1  .  .  B1 B2 B3" in text
    assert "top first" not in text
    state = new_game(start="competitor")
    eight = "Serration Chainbind Strike Shockwave Lunge Guard Escort Hex"
    state, _ = play(state, f"deck blue {eight} passive Bulwark", f"deck red {eight} passive "
                    "Fleetfoot", "hand blue Strike Guard Hex Lunge")
    assert "stack 4 (top first: Serration Chainbind Shockwave Escort)" in render(state)
