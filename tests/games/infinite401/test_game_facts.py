"""401 Infinite's facts (GameInfo), its phases, its codes and its state's JSON (issue 16).

The new-game screen and the command line are built from ``GAME.info``; a view reads
``state.phase`` instead of comparing step texts; refusal and end codes are StrEnum members
whose values are the strings the JSON and the translations have always used.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.games.core import SetupError
from companion.games.infinite401 import GAME
from companion.games.infinite401.rulebook import RULEBOOK, Refusal, Termination
from companion.games.infinite401.state import Phase
from companion.resources import shipped_sources
from tests.games.infinite401.helpers import (
    DEFAULT_SOURCES,
    new_game,
    place,
    play,
    refusal,
    started,
)


def test_the_facts_say_two_sides_two_files_and_two_options() -> None:
    """401-infinite.md: a game for 2 players, Red and Blue; "STARTING THE GAME" offers Quick
    Start and Competitor's Start (``start``); the turn limit is a companion option."""
    info = GAME.info
    assert (info.name, info.rulebook) == (GAME.name, GAME.rulebook) == ("401", RULEBOOK)
    assert (info.players.minimum, info.players.maximum) == (2, 2)
    assert (info.players.named, info.players.seats) == ("seats", ("red", "blue"))
    assert [source.role for source in info.sources] == ["board", "cards"]
    assert info.parameter("start").choices == ("quick", "competitor")
    assert info.parameter("turn_limit").kind == "whole"
    assert [setup.name for setup in info.shipped] == ["quick start", "short game (4 turns)"]


@pytest.mark.parametrize("name", ["quick start", "short game (4 turns)"])
def test_every_shipped_setup_starts_a_game(name: str) -> None:
    """401-infinite.md "STARTING THE GAME": each setup the new-game screen offers is a board
    and a card set that a Quick Start can be played from; the short game ends after 4 turns."""
    shipped = GAME.info.shipped_setup(name)
    setup = GAME.load_setup(shipped_sources(GAME.info.package, shipped.files), shipped.options)
    assert setup.turn_limit == shipped.options.get("turn_limit")
    state = GAME.initial_state(setup)
    assert state.phase is Phase.SHUFFLE and len(state.units) == 6


@pytest.mark.parametrize(("options", "where", "words"), [
    ({"turn_limit": 0}, "turn_limit", "below the smallest value, 1"),
    ({"turn_limit": "four"}, "turn_limit", "whole number"),
    ({"start": "fast"}, "start", "not quick or competitor"),
    ({"strat": "quick"}, "strat", "did you mean 'start'"),
])
def test_options_are_checked_by_the_games_facts(options: dict[str, object], where: str,
                                                  words: str) -> None:
    """401-infinite.md "STARTING THE GAME": a start that is neither Quick nor Competitor's, a
    turn limit that is not a positive whole number, and a misspelt option are refused."""
    with pytest.raises(SetupError) as caught:
        GAME.load_setup(DEFAULT_SOURCES, options)
    assert caught.value.where == where and words in caught.value.problem


def test_the_phase_follows_the_starting_steps_the_turns_and_a_runner() -> None:
    """401-infinite.md "STARTING THE GAME" (Quick Start: shuffle both stacks, flip a coin),
    "TURNS / ACTIONS", and "TECHNICALITIES" Runner's Rule (the runner scores first)."""
    state = new_game()
    phases = []
    while state.steps:
        phases.append(state.phase)
        state = GAME.apply(state, GAME.sample_chance(state, random.Random(3))).state
    assert phases == [Phase.SHUFFLE, Phase.SHUFFLE, Phase.FLIP]
    assert state.phase is Phase.TURN
    state = place(started(), R1="a6", R2="b6", R3="f6", B1="c5")
    state, _ = play(state, "move blue B1 c7")
    assert state.phase is Phase.SCORE and state.phase == "score"
    competitor = new_game(start="competitor")
    assert [step.phase for step in competitor.steps] == [
        Phase.DECK, Phase.DECK, Phase.HAND, Phase.HAND, Phase.SHUFFLE, Phase.SHUFFLE]


def test_codes_are_the_strings_they_always_were() -> None:
    """401-infinite.md "TURNS / ACTIONS": only the side to move acts; the refusal's code is a
    Refusal member equal to the translations' key, and a game won ends with its Termination."""
    error = refusal(started(), "end red")
    assert error.code == Refusal.NOT_YOUR_TURN == "not_your_turn"
    assert json.dumps(error.to_json()["code"]) == '"not_your_turn"'
    state = place(started(), R1=None, R2=None, R3="c2")
    state, events = play(state, "play blue Strike B1 -> R3")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("blue",)
    assert outcome.termination is Termination.ALL_UNITS_ELIMINATED
    assert events[-1].to_json()["termination"] == "all_units_eliminated"


def test_the_state_round_trips_through_json_with_its_setup() -> None:
    """The engine contract (DESIGN.md): state is data, serialisable to JSON; the setup travels
    as its options and file texts (401-infinite.md "STARTING THE GAME": the start chosen)."""
    state = place(started(), R1="a6", R2="b6", R3="f6", B1="c5")
    state, _ = play(state, "move blue B1 c7")
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert data["setup"]["start"] == "quick" and data["steps"] == []
    assert GAME.state_from_json(data) == state
    limited = new_game(turn_limit=4.0)
    assert limited.setup.turn_limit == 4
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(limited)))) == limited
