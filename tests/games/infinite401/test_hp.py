"""Units' HP: the indicators, elimination, victory, the HP token, Runner's Rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.infinite401 import GAME
from companion.games.infinite401.hp import indicator_rotation, read_indicator
from tests.games.infinite401.helpers import (
    kinds,
    new_game,
    place,
    play,
    refusal,
    set_hp,
    started,
    with_status,
)


def test_every_unit_starts_with_two_hp() -> None:
    """401-infinite.md "UNITS AND HP": all Units start at 2 HP; both sides control 3 Units."""
    state = new_game()
    assert [u.hp for u in state.units] == [2] * 6
    assert [u.side for u in state.units] == ["blue"] * 3 + ["red"] * 3


@pytest.mark.parametrize("hp", [0, 1, 2, 3])
def test_owner_reads_top_white_and_opponent_reads_top_black(hp: int) -> None:
    """401-infinite.md "UNITS AND HP": from your perspective read the TOP WHITE number for your
    own Units and the TOP BLACK number for your opponent's; all other numbers do not matter."""
    rotation = indicator_rotation(hp)
    assert read_indicator(rotation, "owner").white == hp
    assert read_indicator(rotation, "opponent").black == hp
    assert read_indicator(rotation, "owner").black != hp  # the wrong colour misleads


def test_adding_hp_turns_clockwise_and_subtracting_counter_clockwise() -> None:
    """401-infinite.md "UNITS AND HP": adding HP rotates the indicator 90° clockwise,
    subtracting 90° counter-clockwise; the event says how to turn it."""
    state = place(started(), R1="d2")
    _, events = play(state, "play blue Strike B2 -> R1")
    change = next(e for e in events if e.kind == "hp_changed")
    assert (change["unit"], change["old"], change["new"], change["rotation"]) == ("R1", 2, 0,
                                                                                 -180)
    state, events = play(place(started(), B1="a3"), "move blue B1 a4")
    change = next(e for e in events if e.kind == "hp_changed")
    assert (change["old"], change["new"], change["rotation"]) == (2, 3, 90)
    assert change["owner_reads_white"] == change["opponent_reads_black"] == 3


def test_a_unit_at_zero_hp_is_eliminated_and_the_last_one_loses_the_game() -> None:
    """401-infinite.md "UNITS AND HP" (Eliminated at 0 HP) and "STARTING THE GAME" Victory
    Objective: eliminate all of your opponent's Units."""
    state = place(started(), R1="d2", R2=None, R3=None)
    state, events = play(state, "play blue Strike B2 -> R1")
    assert kinds(events) == ["hp_changed", "unit_eliminated", "victory"]
    assert events[-1]["winners"] == ["blue"]
    assert state.unit("R1").space is None
    assert GAME.outcome(state).winners == ("blue",)
    assert GAME.legal_actions(state) == []
    assert refusal(state, "end red").code == "game_over"


def test_the_hp_token_gives_one_hp_and_moves_to_the_other_spawner() -> None:
    """401-infinite.md "THE HP TOKEN": landing on it gives 1 HP and moves it to the other
    Spawner."""
    state, events = play(place(started(), B1="a3"), "move blue B1 a4")
    assert kinds(events) == ["hp_token_collected", "hp_changed"]
    assert events[0]["spawner"] == "a4"
    assert state.unit("B1").hp == 3 and state.token == (6, 3)


def test_the_hp_token_never_raises_hp_above_three() -> None:
    """401-infinite.md "THE HP TOKEN": 1 HP (Max 3)."""
    state, events = play(set_hp(place(started(), B1="a3"), B1=3), "move blue B1 a4")
    assert kinds(events) == ["hp_token_collected"]
    assert state.unit("B1").hp == 3 and state.token == (6, 3)


def test_passing_over_the_token_does_not_collect_it() -> None:
    """401-infinite.md "THE HP TOKEN": the unit must occupy the Space at the END of an Action."""
    state, events = play(place(started(), B1="a3"), "move blue B1 a4 a5")
    assert events == [] and state.token == (0, 3)


def test_the_token_is_collected_once_per_turn_whoever_lands() -> None:
    """401-infinite.md "THE HP TOKEN": it can NOT be collected more than once in 1 Turn,
    regardless of Unit."""
    state = place(started(), B1="a3", B3="g3")
    state, _ = play(state, "move blue B1 a4")
    state, events = play(state, "move blue B3 g4")
    assert events == [] and state.unit("B3").hp == 2 and state.token == (6, 3)
    state, _ = play(state, "end blue", "end red", "move blue B1 a3", "move blue B3 g3",
                    "end blue", "end red")
    state, events = play(state, "move blue B3 g4")
    assert kinds(events) == ["hp_token_collected", "hp_changed"]  # a new turn


def test_deadlock_removes_the_token_when_the_other_spawner_is_occupied() -> None:
    """401-infinite.md "THE HP TOKEN" Deadlock: both Spawners occupied when it is collected ->
    the token is removed for the rest of the game."""
    state, events = play(place(started(), B1="a3", R1="g4"), "move blue B1 a4")
    assert kinds(events) == ["hp_token_collected", "hp_changed", "hp_token_removed"]
    assert state.token is None


def test_a_token_passive_adds_hp() -> None:
    """401-infinite.md "THE HP TOKEN" (excluding Passives): Vitality gives 2 HP (max 3)."""
    state = set_hp(place(started(), B1="a3"), B1=1)
    state = state.with_side_cards("blue", replace(state.side_cards("blue"), passive="Vitality"))
    assert play(state, "move blue B1 a4")[0].unit("B1").hp == 3


def test_runner_returns_to_its_base_and_takes_one_hp_ignoring_effects() -> None:
    """401-infinite.md "TECHNICALITIES" Runner's Rule: a unit landing on the opponent's Base is
    placed back at your own Base and you subtract 1 HP from any opponent Unit, ignoring all
    Effects."""
    state = place(started(), R1="a6", R2="b6", R3="f6", B1="c5")
    state = with_status(state, "R3", "untargetable")
    state, _ = play(state, "play blue Guard B2 -> B2")
    state, events = play(state, "move blue B1 c7")
    assert events == [] and GAME.current_actor(state) == "blue" and state.runners == ("B1",)
    assert all(str(a).startswith("score blue B1") for a in GAME.legal_actions(state))
    error = refusal(state, "end blue")
    assert error.code == "runner_pending" and "Runner's Rule" in str(error.rule)
    state, events = play(state, "score blue B1 c1 R3")
    assert kinds(events) == ["runner_scored", "hp_changed"]
    assert state.unit("B1").space == (2, 0) and state.unit("R3").hp == 1
    assert state.actions_left == 0 and state.runners == ()


def test_a_runner_must_return_to_a_free_space_of_its_own_base() -> None:
    """401-infinite.md "TECHNICALITIES" Runner's Rule: placed back at your own Base."""
    state = place(started(), R1="a6", R2="b6", R3="f6", B1="c5")
    state, _ = play(state, "move blue B1 c7")
    assert refusal(state, "score blue B1 d1 R1").code == "not_a_free_base_space"
    assert refusal(state, "score blue B1 c3 R1").code == "not_a_free_base_space"
    assert refusal(state, "score blue B1 c1 B2").code == "not_an_opponent"
    assert refusal(started(), "score blue B1 c1 R1").code == "no_runner"


def test_no_unit_enters_the_opposing_base_while_an_opponent_is_on_it() -> None:
    """401-infinite.md "TECHNICALITIES" Runner's Rule: units cannot enter (by any means) the
    opponent Base if an opponent Unit occupies ANY one of the Base Spaces."""
    state = place(started(), R1="a6", R2="b6", B1="c5")  # R3 still on e7
    error = refusal(state, "move blue B1 c7")
    assert error.code == "base_guarded" and "Runner's Rule" in str(error.rule)
    assert refusal(state, "move blue B1 c6 c7 d7").code == "base_guarded"
    assert "move blue B1 c7" not in [str(a) for a in GAME.legal_actions(state)]


def test_a_unit_pushed_onto_the_opposing_base_scores_for_its_own_player() -> None:
    """401-infinite.md "TECHNICALITIES" Runner's Rule: IF one of your Units lands on the
    opponent's Base (by any means) - here Blue's Shockwave pushes R1 onto Blue's empty base,
    and Red scores at once, during Blue's turn."""
    hand = ("Shockwave", "Guard", "Hex", "Escort")
    state = place(started(blue=hand), B1="a1", B2="b3", B3="g6", R1="b1", R2="a6")
    state, events = play(state, "play blue Shockwave B1 -> R1")
    assert state.unit("R1").space == (3, 0) and state.runners == ("R1",)
    assert GAME.current_actor(state) == "red" and state.to_move == "blue"
    state, events = play(state, "score red R1 c7 B3")
    assert kinds(events) == ["runner_scored", "hp_changed"] and state.unit("B3").hp == 1
    assert GAME.current_actor(state) == "blue" and state.actions_left == 1


def test_an_ability_cannot_put_a_unit_on_a_guarded_opposing_base() -> None:
    """401-infinite.md "TECHNICALITIES" Runner's Rule: units cannot enter the opponent Base
    BY ANY MEANS while an opponent unit occupies one of its spaces (B3 still stands on e1)."""
    hand = ("Shockwave", "Guard", "Hex", "Escort")
    state = place(started(blue=hand), B1="a1", B2="b3", R1="b1")
    error = refusal(state, "play blue Shockwave B1 -> R1")
    assert error.code == "base_guarded" and "Runner's Rule" in str(error.rule)
