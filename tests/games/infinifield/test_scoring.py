"""Round end, both scoring methods, match length and the field builder passing clockwise.

Rulebook: infinifield.md "Chase-and-capture" steps 6 and 8, and "Scoring".
"""

from __future__ import annotations

import pytest

from companion.games.core import IllegalAction
from companion.games.infinifield import GAME
from companion.games.infinifield.field import Field
from tests.games.infinifield.helpers import explicit_field, kinds, new_state, play

LINE = {"W1": "white", "Y1": "yellow", "W2": "white"}


def line() -> Field:
    """W1 - Y1 - W2: the second mover can always capture at once."""
    return explicit_field(LINE, [("W1", "Y1"), ("Y1", "W2")])


def test_the_round_ends_when_one_pawn_is_left_and_scores_points() -> None:
    """infinifield.md "Chase-and-capture" step 6 (round ends with one pawn left) and "Scoring"
    method 2: 10 points per captured pawn, plus the blocks left on the field for the winner."""
    state, _ = play(new_state(line(), rounds=2), "start Ben W1", "start Ann W2",
                    "move Ben W1 Y1")
    state, events = play(state, "move Ann W2 Y1")
    assert kinds(events) == ["capture", "eliminated", "counter_advanced", "round_over"]
    assert events[-1].to_json() == {"kind": "round_over", "round": 1, "winner": "Ann",
                                    "scores": {"Ann": 13, "Ben": 0}}
    assert GAME.outcome(state) is None


def test_points_for_the_winner_count_the_blocks_left_after_removals() -> None:
    """infinifield.md "Scoring" method 2: the winner receives the number of blocks remaining
    on the field when the last opponent is captured."""
    ring = explicit_field({"W1": "white", "Y1": "yellow", "W2": "white", "Y2": "yellow",
                           "W3": "white", "R1": "red"},
                          [("W1", "Y1"), ("Y1", "W2"), ("W2", "Y2"), ("Y2", "W3"),
                           ("W3", "R1"), ("R1", "W1")])
    state, _ = play(new_state(ring, rounds=2), "start Ben W1", "start Ann W2",
                    "move Ben W1 R1", "move Ann W2 Y2", "move Ben R1 W1", "move Ann Y2 W2",
                    "move Ben W1 Y1", "remove Ben W3")
    state, events = play(state, "move Ann W2 Y1")
    assert events[-1]["scores"] == {"Ann": 10 + 5, "Ben": 0}


def test_rounds_scoring_counts_rounds_won_and_the_builder_passes_clockwise() -> None:
    """infinifield.md "Scoring" method 1 (rounds won) and "Chase-and-capture" step 8: the next
    round's field builder is the following player clockwise, who rebuilds the field."""
    path = explicit_field({**LINE, "Y2": "yellow", "W3": "white"},
                          [("W1", "Y1"), ("Y1", "W2"), ("W2", "Y2"), ("Y2", "W3")])
    state, _ = play(new_state(path, players=("Ann", "Ben", "Cat"), scoring="rounds",
                              rounds=3),
                    "start Ben W1", "start Cat W2", "start Ann W3", "move Ben W1 Y1",
                    "move Cat W2 Y1", "move Ann W3 Y2", "move Cat Y1 W2")
    state, events = play(state, "move Ann Y2 W2")
    assert events[-1]["winner"] == "Ann"
    assert state.phase == "rebuild" and state.builder == "Ben"
    assert GAME.current_actor(state) == "Ben"
    assert [str(a) for a in GAME.legal_actions(state)] == ["rebuild Ben"]
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, GAME.parse_action(state, "rebuild Cat"))
    assert refusal.value.code == "not_builder"
    assert str(refusal.value.rule) == 'infinifield: "Chase-and-capture", step 8'
    state, events = play(state, "rebuild Ben")
    assert [e.to_json() for e in events] == [{"kind": "field_rebuilt", "player": "Ben",
                                               "name": "", "blocks": 5, "new": False}]
    assert (state.round, state.phase, GAME.current_actor(state)) == (2, "start", "Cat")
    assert state.scores() == {"Ann": 1, "Ben": 0, "Cat": 0}


def test_a_new_round_starts_on_the_whole_field_again() -> None:
    """infinifield.md "Chase-and-capture" step 8 and "Build the field" step 1: each round
    begins with the builder arranging all blocks, removed ones included."""
    ring = explicit_field({"W1": "white", "Y1": "yellow", "W2": "white", "Y2": "yellow",
                           "W3": "white", "R1": "red"},
                          [("W1", "Y1"), ("Y1", "W2"), ("W2", "Y2"), ("Y2", "W3"),
                           ("W3", "R1"), ("R1", "W1")])
    state, _ = play(new_state(ring, rounds=2), "start Ben W1", "start Ann W2",
                    "move Ben W1 R1", "move Ann W2 Y2", "move Ben R1 W1", "move Ann Y2 W2",
                    "move Ben W1 Y1", "remove Ben W3", "move Ann W2 Y1", "rebuild Ben")
    assert state.removed == () and state.pawns == () and state.counter == 0
    assert "start Ann W3" in [str(a) for a in GAME.legal_actions(state)]


def test_a_match_of_n_rounds_ends_with_match_over_and_victory() -> None:
    """infinifield.md "Scoring": the players may agree on a number of rounds; the best total
    wins."""
    state, _ = play(new_state(line(), rounds=2), "start Ben W1", "start Ann W2",
                    "move Ben W1 Y1", "move Ann W2 Y1", "rebuild Ben", "start Ann W1",
                    "start Ben W2", "move Ann W1 Y1", "move Ben W2 Y1")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == ("Ann", "Ben")
    assert outcome.termination == "rounds_played"
    assert dict(outcome.scores) == {"Ann": 13, "Ben": 13}
    assert GAME.current_actor(state) is None
    assert GAME.legal_actions(state) == []
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, GAME.parse_action(state, "rebuild Ann"))
    assert refusal.value.code == "match_over"


def test_the_match_over_and_victory_events_name_the_winners() -> None:
    """infinifield.md "Scoring": the player with most points wins the match."""
    _, events = play(new_state(line(), rounds=1), "start Ben W1", "start Ann W2",
                     "move Ben W1 Y1", "move Ann W2 Y1")
    assert kinds(events)[-3:] == ["round_over", "match_over", "victory"]
    assert events[-2].to_json() == {"kind": "match_over", "winners": ["Ann"],
                                    "scores": {"Ann": 13, "Ben": 0}}
    assert events[-1]["termination"] == "rounds_played"
    assert events[-1]["detail"] == "Ann wins after 1 round(s) (points: Ann 13, Ben 0)."


def test_playing_to_a_target_score_ends_after_the_round_that_reaches_it() -> None:
    """infinifield.md "Scoring": or until any player reaches a total score (500 at the table;
    20 here so one round reaches it)."""
    state, _ = play(new_state(line(), rounds=None, target=20), "start Ben W1", "start Ann W2",
                    "move Ben W1 Y1", "move Ann W2 Y1")
    assert GAME.outcome(state) is None, "13 points: below the target, the match goes on"
    state, _ = play(state, "rebuild Ben", "start Ann W1", "start Ben W2", "move Ann W1 Y1",
                    "move Ben W2 Y1", "rebuild Ann", "start Ben W1", "start Ann W2",
                    "move Ben W1 Y1", "move Ann W2 Y1")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.termination) == (("Ann",), "target_reached")
    assert dict(outcome.scores) == {"Ann": 26, "Ben": 13}
