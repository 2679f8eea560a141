"""Action checks (rulebook 2.6.1 and 4): dice faces, rerolls, conversions, the added die,
locking, and the Health limit on dice spent."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.games.core import CHANCE
from companion.games.defiance.data import die_faces
from companion.games.defiance.state import seat, with_seat
from tests.games.defiance.helpers import GAME, kinds, play, play_state, refusal, started, units


def test_action_die_has_three_own_faces_one_of_each_other_and_a_blank():
    """infinities-defiance-of-fate.md "2.6.1 - Action Checks": 3 sides of one attribute,
    1 side of each other attribute, and a side of 0."""
    assert sorted(die_faces("tide")) == ["0", "F", "P", "T", "T", "T"]
    assert sorted(die_faces("fortitude")) == ["0", "F", "F", "F", "P", "T"]


def test_check_rolls_four_dice_of_one_attribute_sampled_with_the_given_rng():
    """infinities-defiance-of-fate.md "2.6.1 - Action Checks": four dice of one attribute;
    the roll is a chance action drawn with the caller's generator."""
    state = play_state(started(), "check Ann power")
    assert GAME.current_actor(state) == CHANCE
    first = GAME.sample_chance(state, random.Random(5))
    assert first == GAME.sample_chance(state, random.Random(5))
    assert len(first.faces) == 4 and all(f in "PTF0" for f in first.faces)
    assert refusal(state, "roll P P P").code == "bad_roll"


def test_lock_announces_the_faces_and_freezes_the_result():
    """infinities-defiance-of-fate.md "4. Turn Actions": lock in your final result for the
    turn."""
    state = play_state(started(), "check Ann tide", "roll T T F 0")
    state, events = play(state, "lock Ann")
    assert kinds(events) == ["dice_locked"]
    assert events[0].data == {"leader": "Ann", "attribute": "tide", "faces": ["T", "T", "F", "0"]}
    assert refusal(state, "convert Ann 1 P").code == "locked"


def test_reroll_needs_level_two_of_the_dice_track_and_is_one_die_per_colour():
    """infinities-defiance-of-fate.md "2.6.1 - Action Checks", Reroll: at level 2 of a track,
    reroll 1 die of that type before locking."""
    state = play_state(started(), "check Ann tide", "roll T 0 F 0")
    assert refusal(state, "reroll Ann 2").code == "no_reroll"
    state = units(started(), "Ann", "acolyte-of-the-sun")  # one Tide icon: Tide level 2
    state = play_state(state, "check Ann tide", "roll T 0 F 0", "reroll Ann 2")
    assert GAME.current_actor(state) == CHANCE
    state = play_state(state, "roll T")
    assert [d.face for d in state.turn.dice] == ["T", "T", "F", "0"]
    assert refusal(state, "reroll Ann 4").code == "reroll_used"


def test_conversion_follows_the_track_level_and_is_once_per_die_after_rerolls():
    """infinities-defiance-of-fate.md "2.6.1 - Action Checks", Convert: a track box X -> Y
    converts that colour's X results; only once per die, after rerolls. Kael's Tide track
    converts 0 -> Tide from level 2."""
    state = started()
    state = play_state(state, "check Ann tide", "roll 0 0 0 0", "lock Ann", "end Ann")
    assert GAME.current_actor(state) == "Ben"
    state = play_state(state, "check Ben tide", "roll 0 P 0 F")
    assert refusal(state, "convert Ben 1 T").code == "no_conversion"
    state = units(state, "Ben", "runner")  # Tide icon: level 2
    state = play_state(state, "convert Ben 1 T")
    assert state.turn.dice[0].face == "T"
    assert refusal(state, "convert Ben 1 T").code == "converted"
    assert refusal(state, "reroll Ben 3").code == "reroll_after_convert"


def test_level_three_of_the_strongest_track_adds_a_set_die_to_every_check():
    """infinities-defiance-of-fate.md "2.6.1 - Action Checks", Add 1 Die: level 3 of the
    strongest track adds a die of that type set to that result, whatever attribute is rolled.
    Aster is Power strong; a Flame Warden (two Power icons) brings Power to level 3."""
    state = units(started(), "Ann", "flame-warden")
    state = play_state(state, "check Ann tide", "roll T T T T")
    assert [(d.kind, d.face, d.added) for d in state.turn.dice][-1] == ("power", "P", True)
    assert len(state.turn.dice) == 5
    assert refusal(state, "reroll Ann 5").code == "added_die"


def test_dice_spent_never_exceed_current_health_recomputed_as_health_changes():
    """infinities-defiance-of-fate.md "4. Turn Actions": you may only spend as many dice as
    your leader's current Health; this amount can change during your turn."""
    state = started()
    state = with_seat(state, replace(seat(state, "Ann"), health=1,
                                     hand=("pilgrim", "pilgrim", "pilgrim")))
    state = play_state(state, "check Ann tide", "roll T T T T", "lock Ann",
                       "prepare Ann pilgrim")
    assert refusal(state, "prepare Ann pilgrim").code == "health_limit"
    state = play_state(state, "adjust Ann mending-light health +1")
    state = play_state(state, "prepare Ann pilgrim")
    assert state.turn.spent == 2


def test_spending_needs_an_unspent_result_of_that_attribute():
    """infinities-defiance-of-fate.md "4. Turn Actions": spend action die results to perform
    the standard actions."""
    state = play_state(started(), "check Ann tide", "roll T 0 0 0", "lock Ann")
    assert refusal(state, "cycle Ann acolyte-of-the-sun").code == "no_die"
    assert refusal(state, "move Ann 1,-1 discover ember-market 0").code == "no_die"


def test_one_action_check_per_turn():
    """infinities-defiance-of-fate.md "4. Turn Actions": roll a set of action dice as an
    action check, then lock the result for the turn."""
    state = play_state(started(), "check Ann tide", "roll T T T T", "lock Ann")
    assert refusal(state, "check Ann power").code == "already_rolled"
