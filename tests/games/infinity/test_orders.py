"""Orders: Move, BS Attack, CC Attack, AROs, the Order pool, turns, rounds and the winner."""

from __future__ import annotations

import random

import pytest

from companion.games.core import CHANCE, NotationError
from companion.games.infinity import GAME
from tests.games.infinity.helpers import kinds, new_state, play, refusal


def test_move_uses_the_first_mov_value_then_the_second() -> None:
    """infinity-n3-intro.md "MOVE": up to the first MOV value, the second value for a second Move in
    the same Order."""
    state = new_state()
    play(state, "move Ann Iguana 6 4")
    error = refusal(state, "move Ann Iguana 6.5")
    assert (error.code, str(error.rule)) == ("too_far", 'infinity-n3-intro: "MOVE"')
    assert refusal(state, "move Ann Iguana 6 5").code == "too_far"
    with pytest.raises(NotationError):
        GAME.parse_action(state, "move Ann Iguana 1 1 1")


def test_a_move_ending_in_base_contact_enables_cc_and_forbids_bs() -> None:
    """infinity-n3-intro.md "CC ATTACK": only in base to base contact; "BS ATTACK": not in base to
    base contact with an enemy."""
    state = new_state()
    assert refusal(state, "cc Ann Fusilier knife Grenzer").code == "no_base_contact"
    state, _ = play(state, "move Ann Fusilier 4 contact:Grenzer", "pass Ben")
    assert state.contacts == (("Fusilier", "Grenzer"),)
    assert refusal(state, "shoot Ann Fusilier combi_rifle Daturazi@10").code == "engaged"
    state, events = play(state, "cc Ann Fusilier knife Grenzer", "pass Ben", "roll 5", "arm 7")
    roll, arm = [e for e in events if e.kind == "roll"]
    assert (roll["attribute"], roll["target"]) == ("CC", 13)
    assert (arm["attribute"], arm["target"], arm["results"]) == ("ARM", 9, ["failed"])
    assert kinds(events)[-3:] == ["wound", "trooper_removed", "turn_changed"]  # PH 10 - 1


def test_range_picks_the_modifier_and_out_of_range_is_refused() -> None:
    """infinity-n3-intro.md "BS ATTACK": measure the distance and apply the MOD ("COMBI RIFLE"
    bands)."""
    state = new_state()
    _, events = play(state, "shoot Ann Fusilier combi_rifle Grenzer@20", "pass Ben",
                     "roll 20 20 20")
    assert events[0]["target"] == 12 - 3
    error = refusal(state, "shoot Ann Fusilier combi_rifle Grenzer@49")
    assert error.code == "out_of_range" and "48" in error.reason


def test_partial_cover_takes_3_from_bs_and_adds_3_to_arm() -> None:
    """infinity-n3-intro.md "Cover": Partial Cover imposes -3 on the attacker's BS and +3 on the
    target's ARM."""
    state = new_state()
    state, events = play(state, "shoot Ann Fusilier combi_rifle Grenzer@12+cover", "pass Ben",
                         "roll 1 20 20")
    assert events[0]["target"] == 12 + 3 - 3
    _, passed = play(state, "arm 9")   # 9 + ARM 2 + 3 = 14 > Damage 13
    assert passed[0]["results"] == ["passed"] and "wound" not in kinds(passed)
    _, failed = play(state, "arm 8")   # 8 + 5 = 13, equal: loses a Wound
    assert failed[0]["results"] == ["failed"] and "trooper_removed" in kinds(failed)


def test_a_critical_wounds_without_an_arm_roll_and_w_counts_down() -> None:
    """infinity-n3-intro.md "ARMOR AND DAMAGE": a Critical takes a Wound with no ARM Roll; the
    trooper is removed on losing its last Wound (the Iguana has W 3)."""
    state = new_state()
    state, events = play(state, "end Ann", "shoot Ben Grenzer combi_rifle Iguana@12",
                         "pass Ann", "roll 15 20 20")
    assert kinds(events)[-4:] == ["roll", "hit", "critical", "wound"]
    assert events[-1].data == {"trooper": "Iguana", "wounds_left": 2}
    assert state.phase == "order"  # no ARM Roll was due


def test_split_burst_resolves_one_face_to_face_per_target_in_declared_order() -> None:
    """infinity-n3-intro.md "BS Attack Roll and Burst": the Burst is split during the declaration;
    each Face to Face Roll is rolled separately in the order the Active Player wishes; the
    Reactive Player's Burst is always 1; "DODGE": a PH Roll against the attack."""
    state = new_state()
    state, _ = play(state, "shoot Ann Fusilier combi_rifle Daturazi@12*1 Grenzer@12*2",
                    "aro Ben Grenzer dodge", "aro Ben Daturazi shoot combi_rifle Fusilier@12")
    assert GAME.current_actor(play(state, "pass Ben")[0]) == CHANCE
    assert refusal(state, "aro Ben Spektr shoot combi_rifle Fusilier@12*2").code == \
        "reactive_burst"
    state, events = play(state, "pass Ben", "roll 4 9 2 14 10")
    rolls = [(e["trooper"], e["attribute"], e["dice"]) for e in events if e.kind == "roll"]
    assert rolls == [("Fusilier", "BS", [4]), ("Daturazi", "BS", [9]),
                     ("Fusilier", "BS", [2, 14]), ("Grenzer", "PH", [10])]
    hits = [(e["attacker"], e["target"]) for e in events if e.kind == "hit"]
    assert hits == [("Daturazi", "Fusilier"), ("Fusilier", "Grenzer")]  # 14 beats PH 10


def test_declaring_more_dice_than_the_burst_is_refused() -> None:
    """infinity-n3-intro.md "BS Attack Roll and Burst": as many shots as the Burst value."""
    error = refusal(new_state(), "shoot Ann Fusilier combi_rifle Daturazi@12*2 Grenzer@12*2")
    assert error.code == "burst_exceeded"


def test_a_successful_dodge_allows_2_inches_not_into_base_contact() -> None:
    """infinity-n3-intro.md "DODGE": a trooper in its Reactive Turn that Dodges successfully may
    move up to 2 inches, not into base to base contact with an enemy; only an attacked trooper
    Dodges."""
    state = new_state()
    state, _ = play(state, "shoot Ann Fusilier combi_rifle Grenzer@12")
    assert refusal(state, "aro Ben Daturazi dodge").code == "nothing_to_dodge"
    state, _ = play(state, "aro Ben Grenzer dodge", "pass Ben", "roll 16 17 18 5")
    assert state.phase == "after" and GAME.current_actor(state) == "Ben"
    assert refusal(state, "move Ben Grenzer 2.5").code == "dodge_too_far"
    assert refusal(state, "move Ben Grenzer 1 contact:Fusilier").code == "dodge_contact"
    state, _ = play(state, "move Ben Grenzer 2")
    assert (state.phase, state.orders) == ("order", 1)


def test_surviving_an_attack_from_behind_lets_the_target_turn() -> None:
    """infinity-n3-intro.md "ARMOR AND DAMAGE": a trooper surviving an Attack from outside its 180
    degree arc can turn to face the attacker at the end of the Order."""
    state = new_state()
    state, _ = play(state, "shoot Ann Fusilier combi_rifle Grenzer@12+behind", "pass Ben",
                    "roll 20 20 20")
    assert [str(a) for a in GAME.legal_actions(state)] == ["pass Ben", "turn Ben Grenzer"]
    state, _ = play(state, "turn Ben Grenzer")
    assert state.phase == "order"


def test_aros_react_to_the_active_trooper_once_each() -> None:
    """infinity-n3-intro.md "INFINITY: GAME SUMMARY": the opponent reacts to the actions of the
    active trooper (Automatic Reaction Orders)."""
    state, _ = play(new_state(), "move Ann Fusilier 4")
    assert refusal(state, "aro Ben Grenzer shoot combi_rifle Iguana@12").code == "aro_target"
    state, _ = play(state, "aro Ben Grenzer shoot combi_rifle Fusilier@12")
    assert refusal(state, "aro Ben Grenzer shoot combi_rifle Fusilier@12").code == "aro_twice"
    assert refusal(state, "end Ann").code == "not_your_turn"


def test_an_aro_uses_the_distance_measured_for_the_order() -> None:
    """infinity-n3-intro.md "BS ATTACK": the distance between the two troopers is measured once; the
    ARO of a target shoots back over the same distance."""
    state, _ = play(new_state(), "shoot Ann Fusilier combi_rifle Grenzer@12")
    error = refusal(state, "aro Ben Grenzer shoot combi_rifle Fusilier@20")
    assert error.code == "distance_mismatch" and "12 inches" in error.reason
    play(state, "aro Ben Grenzer shoot combi_rifle Fusilier@12")


def test_hidden_troopers_cannot_be_targeted() -> None:
    """infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION": a Hidden Deployment trooper is not on
    the table."""
    error = refusal(new_state(), "shoot Ann Fusilier combi_rifle Spektr@12")
    assert error.code == "not_on_table"


def test_dice_are_due_before_anything_else_and_must_match() -> None:
    """infinity-n3-intro.md "Rolls": the dice of the declared rolls come next, one d20 per die
    declared."""
    state, _ = play(new_state(), "shoot Ann Fusilier combi_rifle Grenzer@12", "pass Ben")
    assert refusal(state, "move Ann Iguana 2").code == "dice_due"
    assert refusal(state, "roll 1 2").code == "wrong_dice"
    assert refusal(state, "roll 1 2 21").code == "wrong_dice"
    assert refusal(state, "arm 1 2 3").code == "wrong_roll"
    assert refusal(new_state(), "roll 3").code == "no_roll_due"


def test_the_order_pool_turns_rounds_and_objective_points_decide_the_winner() -> None:
    """infinity-n3-intro.md "INFINITY: GAME SUMMARY": rounds, each player's Active Turn with Orders,
    and the winner by Objective Points and then Victory Points at the end of the game."""
    state = new_state()
    assert state.orders == 2
    state, events = play(state, "move Ann Fusilier 4", "pass Ben")
    assert state.orders == 1 and events == []
    state, events = play(state, "move Ann Iguana 6", "pass Ben")
    assert [e.data for e in events] == [{"player": "Ben", "round": 1}]
    assert state.orders == 3  # the hidden Spektr gives its Order too
    state, events = play(state, "end Ben")
    assert [(e.kind, e.data) for e in events] == [("round_changed", {"round": 2}),
                                                 ("turn_changed", {"player": "Ann", "round": 2})]
    ended, events = play(state, "score Ann 1", "end Ann", "end Ben")
    assert events[-1].data["winners"] == ["Ann"]
    outcome = GAME.outcome(ended)
    assert outcome is not None and outcome.termination == "objective_points"
    ended, _ = play(state, "end Ann", "end Ben")
    outcome = GAME.outcome(ended)
    assert outcome is not None
    assert (outcome.winners, outcome.termination) == (("Ben",), "victory_points")  # 58 > 50
    assert refusal(ended, "end Ann").code == "game_over"
    assert refusal(state, "score Ann 11").code == "objective_points"


def test_seeded_rolls_replay_and_typed_dice_are_the_same_action() -> None:
    """Issue 5 "CLI": rolls are actions in the record, typed or from the seeded roller."""
    state, _ = play(new_state(), "shoot Ann Fusilier combi_rifle Grenzer@12", "pass Ben")
    drawn = GAME.sample_chance(state, random.Random(7))
    assert drawn == GAME.sample_chance(state, random.Random(7))
    assert GAME.parse_action(state, str(drawn)) == drawn
    assert GAME.legal_actions(state) == []
