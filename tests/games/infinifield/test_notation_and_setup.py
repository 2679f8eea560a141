"""Notation (start/move/remove/rebuild) and match setup (players, builder, mode, scoring).

Rulebook: infinifield.md "Build the field" step 1 (a builder; quick-start or official rules),
"Select starting positions" steps 2-3 (seating order) and "Scoring" (method, match length).
Notation and formats: docs/infinifield.md.
"""

from __future__ import annotations

import pytest

from companion.games.core import NotationError, SetupError
from companion.games.infinifield import GAME
from companion.games.infinifield.actions import Move, Rebuild, Remove, Start
from companion.games.infinifield.state import State
from companion.session import Session
from tests.games.infinifield.helpers import shipped

FIELD_WITH_ONE_WHITE = """
blocks = [{ id = "W1", colour = "white", at = [0, 0] },
          { id = "Y1", colour = "yellow", at = [40, 0] }]
"""


def _state() -> State:
    setup = GAME.load_setup(shipped("quickstart"), {"players": ["Ann", "Ben"]})
    return GAME.initial_state(setup)


@pytest.mark.parametrize(("text", "action", "printed"), [
    ("start Ben W1", Start("Ben", "W1"), "start Ben W1"),
    ("MOVE ben w1   y1", Move("Ben", "W1", "Y1"), "move Ben W1 Y1"),
    ("remove ANN r2", Remove("Ann", "R2"), "remove Ann R2"),
    ("Rebuild ben", Rebuild("Ben"), "rebuild Ben"),
])
def test_notation_is_case_insensitive_and_prints_names_as_written(text: str, action: object,
                                                                  printed: str) -> None:
    """infinifield.md "Chase-and-capture" steps 6-8: the actions a player announces, read in
    any case and printed with the setup's spelling (docs/infinifield.md, notation)."""
    state = _state()
    parsed = GAME.parse_action(state, text)
    assert parsed == action
    assert str(parsed) == printed
    assert GAME.parse_action(state, printed) == parsed


@pytest.mark.parametrize(("text", "problem"), [
    ("jump Ben W1", "unknown verb 'jump'"),
    ("move Ben W1", "expected move PLAYER FROM-BLOCK TO-BLOCK"),
    ("start Zed W1", "'Zed' is not a player; the players are Ann, Ben"),
    ("start Ben W9", "'W9' is not a block of this field"),
    ("   ", "the line is empty"),
])
def test_text_that_is_not_an_action_is_a_notation_error(text: str, problem: str) -> None:
    """infinifield.md "Chase-and-capture" step 6: only real players and blocks can be named."""
    with pytest.raises(NotationError) as error:
        GAME.parse_action(_state(), text)
    assert problem in error.value.problem


def test_the_session_example_holds_with_the_shipped_quickstart_field() -> None:
    """infinifield.md "Select starting positions" step 2: with Ann building, Ben (on her left)
    places the first pawn on a white block."""
    session = Session.new(GAME, shipped("quickstart"), {"players": ["Ann", "Ben"]}, seed=1)
    assert session.propose("start Ben W1").legal
    assert not session.propose("start Ben W2").legal


def test_options_override_the_field_files_match_table() -> None:
    """infinifield.md "Build the field" step 1 and "Scoring": who plays, who builds first,
    which field rules and which scoring were agreed before the match."""
    setup = GAME.load_setup(shipped("official"), {})
    assert setup.rules.players == ("Ann", "Ben", "Cat", "Dan")
    assert (setup.rules.mode, setup.rules.scoring, setup.rules.rounds) == ("official", "points",
                                                                           4)
    setup = GAME.load_setup(shipped("official"), {"players": "Eve, Fay", "builder": "fay",
                                                  "scoring": "rounds", "rounds": 3})
    assert setup.rules.players == ("Eve", "Fay")
    assert setup.builder == "Fay"
    assert (setup.rules.scoring, setup.rules.rounds, setup.rules.target) == ("rounds", 3, None)
    setup = GAME.load_setup(shipped("quickstart"), {"players": ["A", "B"], "target": 500})
    assert (setup.rules.rounds, setup.rules.target) == (None, 500)


@pytest.mark.parametrize(("options", "where", "problem"), [
    ({"players": ["Ann"]}, "players", "for 2-4 players, got 1"),
    ({"players": ["A", "B", "C", "D", "E"]}, "players", "for 2-4 players, got 5"),
    ({"players": ["Ann", "ann"]}, "players", "'ann' is named twice"),
    ({"players": ["Ann", "Ben Bo"]}, "players", "is not one word"),
    ({"players": ["Ann", "Ben"], "builder": "Cat"}, "builder", "'Cat' is not one of the players"),
    ({"players": ["Ann", "Ben"], "mode": "casual"}, "mode", "'casual' is not one of"),
    ({"players": ["Ann", "Ben"], "scoring": "rounds", "target": 5}, "target",
     "a target score needs points scoring"),
    ({"players": ["Ann", "Ben"], "rounds": 2, "target": 5}, "target", "not both"),
    ({"players": ["Ann", "Ben"], "rounds": 0}, "rounds", "positive whole number"),
    ({"players": ["Ann", "Ben"], "colour": "red"}, "colour", "unknown option"),
])
def test_bad_options_are_refused_naming_the_option(options: dict[str, object], where: str,
                                                   problem: str) -> None:
    """infinifield.md "Contents" (four pawns for players) and "Scoring": 2-4 players, a builder
    among them, one of the two field rules and scoring methods."""
    with pytest.raises(SetupError) as error:
        GAME.load_setup(shipped("quickstart"), options)
    assert error.value.where == where
    assert problem in error.value.problem


def test_the_referee_refuses_a_field_that_breaks_the_chosen_rules_listing_every_problem() -> None:
    """infinifield.md "Build the field" step 1 and picture 5: play starts only on a valid field;
    the refusal lists all the violations."""
    with pytest.raises(SetupError) as error:
        GAME.load_setup(shipped("islands"), {"mode": "official"})
    problem = error.value.problem
    assert error.value.source.endswith("fields/islands.toml")
    assert problem.count("islands;") == 3
    assert "White block W2 touches 1 coloured block(s)" in problem


def test_every_player_needs_a_white_block_to_start_on() -> None:
    """infinifield.md "Select starting positions" step 2: each pawn starts on a white block."""
    with pytest.raises(SetupError, match="2 players need 2 white blocks"):
        GAME.load_setup({"setup": ("one.toml", FIELD_WITH_ONE_WHITE)},
                        {"players": ["Ann", "Ben"]})


def test_a_missing_field_file_is_named() -> None:
    """infinifield.md "Build the field": there is no game without a field."""
    with pytest.raises(SetupError, match="no field file"):
        GAME.load_setup({}, {"players": ["Ann", "Ben"]})
