"""Starting positions, moves, captures and the 5-turn counter.

Rulebook: infinifield.md "Select starting positions" (steps 2-4) and "Chase-and-capture"
(steps 5-7).
"""

from __future__ import annotations

import pytest

from companion.games.core import IllegalAction
from companion.games.infinifield import GAME
from companion.games.infinifield.actions import Start
from companion.games.infinifield.field import Field
from companion.games.infinifield.removal import removal_refusals
from tests.games.infinifield.helpers import explicit_field, kinds, new_state, play
from tests.games.infinifield.helpers import refusal as refusal_of

RING = {"W1": "white", "Y1": "yellow", "W2": "white", "Y2": "yellow", "W3": "white",
        "R1": "red"}
RING_TOUCHING = [("W1", "Y1"), ("Y1", "W2"), ("W2", "Y2"), ("Y2", "W3"), ("W3", "R1"),
                 ("R1", "W1")]


def ring() -> Field:
    """Six blocks in a ring: W1 Y1 W2 Y2 W3 R1 (and back to W1)."""
    return explicit_field(RING, RING_TOUCHING)


def test_starting_positions_go_clockwise_from_the_left_of_the_builder() -> None:
    """infinifield.md "Select starting positions" steps 2-3: from the player on the builder's
    left, clockwise, the builder choosing last."""
    state = new_state(ring(), players=("Ann", "Ben", "Cat"), builder="Ben")
    assert GAME.current_actor(state) == "Cat"
    refusal = refusal_of(state, "start Ann W1")
    assert refusal.code == "not_your_turn"
    assert str(refusal.rule) == 'infinifield: "Select starting positions", steps 2-3'
    state, events = play(state, "start Cat W1", "start Ann W2")
    assert events == []
    assert GAME.current_actor(state) == "Ben"
    assert [str(a) for a in GAME.legal_actions(state)] == ["start Ben W3"]
    state, _ = play(state, "start Ben W3")
    assert state.pawns == (("Cat", "W1"), ("Ann", "W2"), ("Ben", "W3"))
    assert state.phase == "move" and GAME.current_actor(state) == "Cat"


def test_pawns_start_only_on_free_white_blocks() -> None:
    """infinifield.md "Select starting positions" step 2: a pawn is placed on top of one of
    the white blocks (one not already taken)."""
    state = new_state(ring())
    not_white = refusal_of(state, "start Ben Y1")
    assert (not_white.code, not_white.params["block"]) == ("not_white", "Y1")
    assert "Y1 is yellow" in not_white.reason
    state, _ = play(state, "start Ben W1")
    taken = refusal_of(state, "start Ann W1")
    assert taken.code == "start_taken"
    assert str(taken.rule) == 'infinifield: "Select starting positions", step 2'
    assert [str(a) for a in GAME.legal_actions(state)] == ["start Ann W2", "start Ann W3"]


def test_the_counter_starts_on_x_and_no_move_before_everyone_has_started() -> None:
    """infinifield.md "Select starting positions" step 4: the turn counter is placed on X;
    "Chase-and-capture" step 5 starts only after the starting positions."""
    state = new_state(ring())
    assert state.counter == 0
    refusal = refusal_of(state, "move Ben W1 Y1")
    assert refusal.code == "choose_start_first"


def test_a_pawn_moves_only_to_a_block_touching_its_own() -> None:
    """infinifield.md "Chase-and-capture" step 6: move the pawn from its block to any
    adjoining one (a block that touches it)."""
    state, _ = play(new_state(ring()), "start Ben W1", "start Ann W2")
    assert [str(a) for a in GAME.legal_actions(state)] == ["move Ben W1 R1", "move Ben W1 Y1"]
    far = refusal_of(state, "move Ben W1 W3")
    assert far.code == "not_adjacent"
    assert str(far.rule) == 'infinifield: "Chase-and-capture", step 6'
    assert refusal_of(state, "move Ben W2 Y1").code == "pawn_not_there"
    assert refusal_of(state, "move Ben W1 W1").code == "must_move"
    assert refusal_of(state, "move Ann W2 Y1").code == "not_your_turn"


def test_a_stacked_block_is_reached_from_the_block_it_rests_on() -> None:
    """infinifield.md "Chase-and-capture" step 6: stacked blocks touch the block they rest on."""
    field = explicit_field({"W1": "white", "Y1": "yellow", "W2": "white"}, [("W1", "Y1")],
                           rests_on={"W2": ("Y1",)})
    state, _ = play(new_state(field), "start Ben W1", "start Ann W2")
    state, _ = play(state, "move Ben W1 Y1")
    assert [str(a) for a in GAME.legal_actions(state)] == ["move Ann W2 Y1"]


def test_every_move_advances_the_counter_and_the_fifth_calls_for_a_removal() -> None:
    """infinifield.md "Chase-and-capture" step 7: each mover advances the counter; whoever
    puts it on X must remove one block before play goes on."""
    state, _ = play(new_state(ring()), "start Ben W1", "start Ann W2")
    positions = []
    for text in ("move Ben W1 R1", "move Ann W2 Y2", "move Ben R1 W1", "move Ann Y2 W2"):
        state, events = play(state, text)
        positions.append(events[-1]["position"])
    assert positions == [1, 2, 3, 4]
    state, events = play(state, "move Ben W1 R1")
    assert [e.to_json() for e in events] == [
        {"kind": "counter_advanced", "position": "X", "player": "Ben"},
        {"kind": "removal_due", "player": "Ben"}]
    assert (state.phase, GAME.current_actor(state)) == ("remove", "Ben")
    blocked = refusal_of(state, "move Ann W2 Y1")
    assert blocked.code == "removal_due"
    assert str(blocked.rule) == 'infinifield: "Chase-and-capture", step 7'
    assert [str(a) for a in GAME.legal_actions(state)] == [
        "remove Ben W1", "remove Ben W3", "remove Ben Y1", "remove Ben Y2"]
    assert refusal_of(state, "remove Ann W1").code == "not_your_turn"
    state, events = play(state, "remove Ben W3")
    assert [e.to_json() for e in events] == [{"kind": "block_removed", "player": "Ben",
                                              "block": "W3"}]
    assert (state.phase, GAME.current_actor(state), state.removed) == ("move", "Ann", ("W3",))
    assert refusal_of(state, "remove Ben Y1").code == "move_due"


def test_a_removed_block_cannot_be_moved_to_or_removed_again() -> None:
    """infinifield.md "Chase-and-capture" step 7: a removed block has left the field."""
    state, _ = play(new_state(ring()), "start Ben W1", "start Ann W2", "move Ben W1 R1",
                    "move Ann W2 Y2", "move Ben R1 W1", "move Ann Y2 W2", "move Ben W1 Y1",
                    "remove Ben W3")
    assert refusal_of(state, "move Ann W2 W3").code == "block_removed"
    state, _ = play(state, "move Ann W2 Y2", "move Ben Y1 W1")
    assert [str(a) for a in GAME.legal_actions(state)] == ["move Ann Y2 W2"]


def test_moving_onto_a_pawn_captures_it_and_eliminates_that_player() -> None:
    """infinifield.md "Chase-and-capture" step 6: moving onto another pawn captures it; the
    captured player is eliminated until the end of the round."""
    state, _ = play(new_state(ring(), players=("Ann", "Ben", "Cat")),
                    "start Ben W1", "start Cat W2", "start Ann W3", "move Ben W1 Y1")
    state, events = play(state, "move Cat W2 Y1")
    assert [e.to_json() for e in events] == [
        {"kind": "capture", "by": "Cat", "captured": "Ben", "block": "Y1"},
        {"kind": "eliminated", "player": "Ben", "why": "captured"},
        {"kind": "counter_advanced", "position": 2, "player": "Cat"}]
    assert state.pawns == (("Cat", "Y1"), ("Ann", "W3"))
    assert state.out == (("Ben", "captured"),)
    assert state.points == (0, 0, 10)
    assert GAME.current_actor(state) == "Ann"
    state, _ = play(state, "move Ann W3 Y2")
    assert GAME.current_actor(state) == "Cat", "the eliminated player's turn is skipped"
    gone = refusal_of(state, "move Ben Y1 W1")
    assert gone.code == "eliminated"


def test_a_player_with_no_legal_removal_is_eliminated_and_leaves_the_field() -> None:
    """infinifield.md "Chase-and-capture" step 7: a player who must remove a block but cannot
    satisfy the rules is eliminated and the pawn is removed from the field."""
    # W1 - Y1 - R1 - Y2 in a line, W2 bridging R1 and Y2 (resting on both).
    field = explicit_field({"W1": "white", "Y1": "yellow", "R1": "red", "Y2": "yellow",
                            "W2": "white"}, [("W1", "Y1"), ("Y1", "R1"), ("R1", "Y2")],
                           rests_on={"W2": ("R1", "Y2")})
    state, _ = play(new_state(field, rounds=2), "start Ben W2", "start Ann W1",
                    "move Ben W2 Y2", "move Ann W1 Y1", "move Ben Y2 R1", "move Ann Y1 W1")
    assert removal_refusals(field, removed=(), occupied=("W1", "W2")) == {
        "W1": ("pawn_on_block",), "Y1": ("would_split",),
        "R1": ("block_on_top", "would_split"), "Y2": ("block_on_top",),
        "W2": ("pawn_on_block",)}
    state, events = play(state, "move Ben R1 W2")
    assert kinds(events) == ["counter_advanced", "removal_due", "eliminated", "round_over"]
    assert events[2].to_json() == {"kind": "eliminated", "player": "Ben",
                                   "why": "no_legal_removal"}
    assert state.pawns == (("Ann", "W1"),)
    assert events[3]["winner"] == "Ann"


def test_actions_naming_unknown_players_or_blocks_are_refused() -> None:
    """infinifield.md "Select starting positions" step 2 and "Build the field" step 1: only
    the match's players and the field's blocks take part (a camera or touch proposal built
    from stale data is refused, not applied)."""
    state = new_state(ring())
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, Start("Zed", "W1"))
    assert refusal.value.code == "unknown_player"
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, Start("Ben", "W9"))
    assert refusal.value.code == "unknown_block"


def test_nothing_but_the_rebuild_happens_between_rounds() -> None:
    """infinifield.md "Chase-and-capture" step 8: when a round is won the field builder role
    passes on, and the next round begins (with the new builder's field)."""
    field = explicit_field({"W1": "white", "Y1": "yellow", "W2": "white"},
                           [("W1", "Y1"), ("Y1", "W2")])
    state, _ = play(new_state(field, rounds=2), "start Ben W1", "start Ann W2",
                    "move Ben W1 Y1", "move Ann W2 Y1")
    refusal = refusal_of(state, "start Ann W1")
    assert refusal.code == "rebuild_due"
    assert "Ben, the new field builder, must rebuild the field first" in refusal.reason
