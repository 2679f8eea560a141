"""Movement actions: up to 4 orthogonal steps, walls, unit collision, One Object One Space."""

from __future__ import annotations

from dataclasses import replace

from tests.games.infinite401.helpers import place, play, refusal, started, with_status


def test_a_unit_moves_up_to_four_spaces() -> None:
    """401-infinite.md "TURNS / ACTIONS" Movement: one unit up to four (4) spaces."""
    state, _ = play(started(), "move blue B2 d5")
    assert state.unit("B2").space == (3, 4)
    error = refusal(started(), "move blue B2 d6")
    assert error.code == "out_of_reach" and "TURNS / ACTIONS" in str(error.rule)


def test_an_explicit_path_is_checked_step_by_step() -> None:
    """401-infinite.md "TURNS / ACTIONS" Movement; docs/401-infinite.md "Counting movement":
    each listed space is one orthogonal step."""
    state, _ = play(started(), "move blue B2 d2 d3")
    assert state.unit("B2").space == (3, 2)
    assert refusal(started(), "move blue B2 d2 d3 d4 d5 d6").code == "too_far"
    assert refusal(started(), "move blue B2 e2 e3").code == "not_a_step"


def test_the_unit_s_own_space_may_open_the_path() -> None:
    """docs/401-infinite.md "Notation": `move red R1 c3 c4 c5` may start with the unit's space."""
    state, _ = play(started(), "move blue B2 d1 d2 d3")
    assert state.unit("B2").space == (3, 2)


def test_walls_block_movement() -> None:
    """401-infinite.md "GLOSSARY" Move: a path affected by Walls."""
    error = refusal(started(), "move blue B1 c2 c3 c4 c5")
    assert error.code == "wall_in_path" and "GLOSSARY" in str(error.rule)
    assert refusal(started(), "move blue B1 c5").code == "out_of_reach"  # around c4: 6 steps


def test_own_units_are_open_spaces_and_opposing_units_are_walls() -> None:
    """401-infinite.md "TECHNICALITIES" Unit Collision."""
    state, _ = play(started(), "move blue B1 d1 e1 f1")
    assert state.unit("B1").space == (5, 0)
    blocked = place(started(), R1="d2")
    error = refusal(blocked, "move blue B2 d2 d3")
    assert error.code == "opponent_in_path" and "Unit Collision" in str(error.rule)
    assert refusal(blocked, "move blue B2 d5").code == "out_of_reach"


def test_a_unit_never_ends_on_an_occupied_space() -> None:
    """401-infinite.md "TECHNICALITIES" One Object One Space."""
    error = refusal(started(), "move blue B1 d1")
    assert error.code == "space_occupied" and "One Object One Space" in str(error.rule)
    assert refusal(started(), "move blue B1 c4").code == "space_is_wall"


def test_slowed_halves_and_stunned_stops_movement() -> None:
    """docs/401-infinite.md "Status effects": Slowed moves at most 2, Stunned cannot move."""
    slowed = with_status(started(), "B2", "slowed")
    assert refusal(slowed, "move blue B2 d4").code == "out_of_reach"
    assert play(slowed, "move blue B2 d3")[0].unit("B2").space == (3, 2)
    stunned = with_status(started(), "B2", "stunned")
    error = refusal(stunned, "move blue B2 d2")
    assert error.code == "stunned" and "Stunned" in str(error.rule)


def test_a_movement_passive_adds_a_space() -> None:
    """401-infinite.md "PASSIVES": Fleetfoot (no Effect Text) lets units move 5 spaces."""
    state = started()
    state = state.with_side_cards("blue", replace(state.side_cards("blue"),
                                                  passive="Fleetfoot"))
    assert play(state, "move blue B2 d6")[0].unit("B2").space == (3, 5)


def test_two_actions_per_turn_then_the_turn_must_end() -> None:
    """401-infinite.md "TURNS / ACTIONS": up to 2 Actions per turn, in any order."""
    state, _ = play(started(), "move blue B1 c2", "move blue B1 c3")
    error = refusal(state, "move blue B2 d2")
    assert error.code == "no_actions_left" and "up to 2 Actions" in str(error.rule)
    state, _ = play(state, "end blue")
    assert state.to_move == "red" and state.actions_left == 2
    assert refusal(state, "move blue B2 d2").code == "not_your_turn"


def test_a_player_moves_only_their_own_units() -> None:
    """401-infinite.md "TURNS / ACTIONS" Movement: moving any one of YOUR units."""
    assert refusal(started(), "move blue R1 c6").code == "not_your_unit"
