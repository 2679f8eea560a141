"""Infinifield's GameInfo: the shipped fields, the options, and one check for both.

Rulebook: infinifield.md "Build the field" step 1 and pictures 1-4 (the example fields),
"Contents" (four pawns: 2-4 players) and "Scoring" (points or rounds, the match length).
"""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinifield import GAME
from companion.games.infinifield.rulebook import Termination
from companion.games.infinifield.state import Phase
from companion.games.info import ShippedSetup
from companion.resources import shipped_sources
from tests.games.infinifield.helpers import play

FIELD = ('[[blocks]]\nid = "W1"\ncolour = "white"\nat = [0, 0]\n'
         '[[blocks]]\nid = "Y1"\ncolour = "yellow"\nat = [40, 0]\n'
         '[[blocks]]\nid = "W2"\ncolour = "white"\nat = [80, 0]\n')


@pytest.mark.parametrize("setup", GAME.info.shipped, ids=lambda setup: setup.name)
def test_every_shipped_field_starts_a_match_for_two_to_four_players(setup: ShippedSetup) -> None:
    """infinifield.md "Build the field" step 1 and "Contents": each field the new-game screen
    offers is valid under its own rules and has a white block for up to four pawns."""
    sources = shipped_sources(GAME.info.package, setup.files)
    for count in range(GAME.info.players.minimum, GAME.info.players.maximum + 1):
        players = ["Ann", "Ben", "Cat", "Dan"][:count]
        state = GAME.initial_state(GAME.load_setup(sources, {**setup.options,
                                                             "players": players}))
        assert state.phase is Phase.START
        assert state.rules.players == tuple(players)


def test_the_field_files_match_table_is_checked_like_the_options() -> None:
    """infinifield.md "Scoring": a field file's ``[match] scoring = "goals"`` is refused,
    naming the file's match table and the choices, as the same option given is."""
    text = '[match]\nplayers = ["Ann", "Ben"]\nscoring = "goals"\n' + FIELD
    with pytest.raises(SetupError) as in_file:
        GAME.load_setup({"setup": ("f.toml", text)}, {})
    assert (in_file.value.source, in_file.value.where) == ("f.toml: match", "scoring")
    assert "'goals' is not one of: points, rounds" in in_file.value.problem
    with pytest.raises(SetupError) as given:
        GAME.load_setup({"setup": ("f.toml", FIELD)}, {"players": ["Ann", "Ben"],
                                                       "scoring": "goals"})
    assert (given.value.source, given.value.where) == ("options", "scoring")
    assert given.value.problem == in_file.value.problem


def test_every_option_the_command_line_passes_is_declared() -> None:
    """infinifield.md "Build the field" step 1 and "Scoring": who plays, who builds first,
    which field rules, which scoring and how long the match lasts."""
    info = GAME.info
    assert info.option_names() == ["builder", "mode", "players", "rounds", "scoring", "target"]
    assert info.parameter("mode").choices == ("quickstart", "official")
    assert info.parameter("scoring").choices == ("points", "rounds")
    assert (info.players.minimum, info.players.maximum, info.players.named) == (2, 4, "option")


def test_a_saved_state_comes_back_with_its_phase_and_termination_typed() -> None:
    """infinifield.md "Scoring": a match saved after its last round reloads as over, with
    why it ended (the default codec rebuilds the enums, not bare text)."""
    setup = GAME.load_setup({"setup": ("f.toml", FIELD)}, {"players": ["Ann", "Ben"],
                                                           "rounds": 1})
    state, _ = play(GAME.initial_state(setup), "start Ben W1", "start Ann W2", "move Ben W1 Y1",
                    "move Ann W2 Y1")
    again = GAME.state_from_json(GAME.state_to_json(state))
    assert again == state
    assert again.phase is Phase.OVER
    assert again.termination is Termination.ROUNDS_PLAYED
    assert GAME.outcome(again) == GAME.outcome(state)
