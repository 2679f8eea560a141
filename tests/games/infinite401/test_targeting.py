"""Playing abilities: sides, ranges, straight lines, sources, status effects on targeting."""

from __future__ import annotations

from companion.games.infinite401 import GAME
from tests.games.infinite401.helpers import place, play, refusal, started, with_status

LUNGE_HAND = ("Lunge", "Guard", "Hex", "Escort")


def test_attack_targets_opponents_and_defense_own_units() -> None:
    """401-infinite.md "PLAYING ABILITIES": Attack abilities target opponent Units, Defense
    abilities target your own Units."""
    state = place(started(), R1="d2")
    after, events = play(state, "play blue Strike B2 -> R1")
    assert after.unit("R1").hp == 0 and "unit_eliminated" in [e.kind for e in events]
    error = refusal(state, "play blue Strike B2 -> B1")
    assert error.code == "wrong_side" and "Attack abilities target" in str(error.rule)
    assert refusal(state, "play blue Guard B2 -> R1").code == "wrong_side"
    assert play(state, "play blue Guard B2 -> B1")[0].shield("B1") == 2


def test_the_target_must_be_in_range_of_the_source() -> None:
    """401-infinite.md "PLAYING ABILITIES": a Target that is in-range, relative to the Source."""
    error = refusal(started(), "play blue Strike B2 -> R2")
    assert error.code == "out_of_range" and "in-range" in str(error.rule)


def test_range_is_turned_to_face_the_opponent_for_red() -> None:
    """docs/401-infinite.md "Card files": a range is drawn as its owner sees the board; Red's
    Serration reaches down the board, not up."""
    state = place(started(first="red"), R1="d5", B1="d3")
    assert play(state, "play red Serration R1 -> B1")[0].unit("B1").hp == 1
    behind = place(started(first="red"), R1="d3", B1="d5")
    assert refusal(behind, "play red Serration R1 -> B1").code == "out_of_range"


def test_a_straight_line_that_hits_a_wall_makes_the_target_invalid() -> None:
    """401-infinite.md "TECHNICALITIES" Straight Line To Target (Chainbind c2 -> c5 crosses the
    wall on c4)."""
    error = refusal(place(started(blue=("Chainbind", "Guard", "Hex", "Escort")), B1="c2",
                          R1="c5"), "play blue Chainbind B1 -> R1")
    assert error.code == "line_hits_wall" and "Straight Line To Target" in str(error.rule)


def test_opposing_units_block_lines_and_own_units_do_not() -> None:
    """401-infinite.md "TECHNICALITIES" Unit Collision: units target through their own units
    but not through opponent units."""
    hand = ("Chainbind", "Guard", "Hex", "Escort")
    blocked = place(started(blue=hand), R1="d4", R2="d3")
    error = refusal(blocked, "play blue Chainbind B2 -> R1")
    assert error.code == "line_hits_opponent" and "Unit Collision" in str(error.rule)
    through_own = place(started(blue=hand), R1="d4", B1="d3")
    after, _ = play(through_own, "play blue Chainbind B2 -> R1")
    assert after.unit("R1").space == (3, 1)  # pulled next to B2 on d1


def test_self_targeting_only_when_the_card_is_self_targetable() -> None:
    """401-infinite.md "GLOSSARY": Self-Targetable - the ability can be Self-Targeted."""
    assert play(started(), "play blue Guard B2 -> B2")[0].shield("B2") == 2
    error = refusal(started(), "play blue Escort B2 -> B2")
    assert error.code == "not_self_targetable"


def test_each_unit_is_the_source_of_one_ability_per_turn() -> None:
    """401-infinite.md "PLAYING ABILITIES": each Unit can only be the Source Unit of 1 ability
    per turn."""
    state = place(started(), R1="d2")
    state, _ = play(state, "play blue Guard B2 -> B2")
    error = refusal(state, "play blue Strike B2 -> R1")
    assert error.code == "source_used" and "Source Unit of 1 ability" in str(error.rule)
    assert play(place(state, B1="c2"), "play blue Strike B1 -> R1")[0].unit("R1").hp == 0


def test_utility_cards_have_targets_of_their_colour_and_no_source() -> None:
    """401-infinite.md "PLAYING ABILITIES" (continued): Utility abilities have only Target(s),
    chosen by the Side color on the card."""
    state, _ = play(started(), "play blue Hex -> R3")
    assert state.statuses("R3") == {"silenced"}
    error = refusal(started(), "play blue Hex -> B1")
    assert error.code == "wrong_side" and "Utility" in str(error.rule)
    assert refusal(started(), "play blue Hex B1 -> R1").code == "utility_has_no_source"
    assert refusal(started(), "play blue Hex -> R1 R2").code == "target_count"
    smoke = started(blue=("Smokescreen", "Guard", "Hex", "Escort"))
    after, _ = play(smoke, "play blue Smokescreen -> B3 B1")
    assert after.statuses("B1") == after.statuses("B3") == {"untargetable"}


def test_silenced_and_stunned_units_cannot_be_sources() -> None:
    """docs/401-infinite.md "Status effects": Silenced and Stunned units are no Source Units."""
    state = place(started(), R1="d2")
    for status in ("silenced", "stunned"):
        error = refusal(with_status(state, "B2", status), "play blue Strike B2 -> R1")
        assert error.code == status and status.capitalize() in str(error.rule)


def test_untargetable_units_cannot_be_targeted_by_the_opponent() -> None:
    """docs/401-infinite.md "Status effects": Untargetable - no opposing ability targets it;
    its own side's abilities still may."""
    state = place(started(), R1="d2")
    error = refusal(with_status(state, "R1", "untargetable"), "play blue Strike B2 -> R1")
    assert error.code == "untargetable"
    mine = with_status(state, "B1", "untargetable", side="blue")
    assert play(mine, "play blue Guard B2 -> B1")[0].shield("B1") == 2


def test_grounded_units_cannot_use_abilities_that_move_themselves() -> None:
    """docs/401-infinite.md "Status effects": Grounded - the unit cannot be the source of an
    ability that moves the source (Lunge); other abilities are fine."""
    state = place(started(blue=LUNGE_HAND), R1="d4")
    after, _ = play(state, "play blue Lunge B2 -> R1")
    assert after.unit("B2").space == (3, 1) and after.unit("R1").hp == 1
    grounded = with_status(state, "B2", "grounded")
    assert refusal(grounded, "play blue Lunge B2 -> R1").code == "grounded"
    assert play(grounded, "play blue Guard B2 -> B2")[0].shield("B2") == 2


def test_only_cards_in_hand_can_be_played_or_cycled() -> None:
    """401-infinite.md "GLOSSARY": Hand - the Ability Cards the player is able to play."""
    state = place(started(), R1="d2")
    error = refusal(state, "play blue Serration B2 -> R1")
    assert error.code == "not_in_hand" and "Hand" in str(error.rule)
    assert refusal(state, "cycle blue Serration").code == "not_in_hand"


def test_listed_targets_match_what_apply_accepts() -> None:
    """401-infinite.md "PLAYING ABILITIES": the referee's list of plays holds exactly the valid
    sources and targets (here Strike only reaches R1 next to B2)."""
    state = place(started(), R1="d2")
    strikes = [str(a) for a in GAME.legal_actions(state) if str(a).startswith("play blue Strike")]
    assert strikes == ["play blue Strike B2 -> R1"]
