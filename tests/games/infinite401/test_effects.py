"""Effects: damage and shields, positionals and placement, status effects, their duration."""

from __future__ import annotations

from tests.games.infinite401.helpers import DEFAULT_CARDS, kinds, place, play, refusal, started

RED_STRIKE = ("Strike", "Chainbind", "Shockwave", "Snare")


def test_a_shield_absorbs_damage_while_its_card_is_on_the_field() -> None:
    """docs/401-infinite.md "HP effects": Shield N absorbs the next N Damage to its target
    while the card is on the Field."""
    state = place(started(red=RED_STRIKE), R1="d2")
    state, _ = play(state, "play blue Guard B2 -> B2", "end blue")
    state, events = play(state, "play red Strike R1 -> B2")
    assert state.unit("B2").hp == 2 and state.shield("B2") == 0
    assert "hp_changed" not in kinds(events)


def test_effects_end_when_the_card_returns_at_the_start_of_the_next_turn() -> None:
    """401-infinite.md "CARD FLOW": at the beginning of your turn the cards you played last
    Rotation return to the bottom of your Stack; their Effects (except HP) end."""
    state, _ = play(started(), "play blue Guard B2 -> B2", "end blue")
    assert state.shield("B2") == 2  # lasts through Red's turn
    state, _ = play(state, "end red")
    assert state.shield("B2") == 0
    assert state.side_cards("blue").stack[-1] == "Guard"


def test_positionals_push_away_and_placement_onto_an_unavailable_space_is_unplayable() -> None:
    """401-infinite.md "TECHNICALITIES" One Object One Space: if an ability were to place a unit
    onto an unavailable Space, the ability is unplayable (Shockwave pushes 2 away)."""
    hand = ("Shockwave", "Guard", "Hex", "Escort")
    state, _ = play(place(started(blue=hand), B2="d2", R1="d3"), "play blue Shockwave B2 -> R1")
    assert state.unit("R1").space == (3, 4) and state.unit("R1").hp == 1
    walled = place(started(blue=hand), B1="c2", R1="c3")
    error = refusal(walled, "play blue Shockwave B1 -> R1")
    assert error.code == "placement_unavailable" and "One Object One Space" in str(error.rule)
    assert walled.unit("R1").hp == 2


def test_chainbind_pulls_the_target_adjacent_and_grounds_it() -> None:
    """docs/401-infinite.md "Positionals": adjacent - the space next to the reference unit on
    the moved unit's side; the pull is refused if that space is taken."""
    hand = ("Chainbind", "Guard", "Hex", "Escort")
    state, _ = play(place(started(blue=hand), R1="g1"), "play blue Chainbind B3 -> R1")
    assert state.unit("R1").space == (5, 0) and state.statuses("R1") == {"grounded"}
    taken = place(started(blue=hand), R1="d4", B1="d2")
    assert refusal(taken, "play blue Chainbind B2 -> R1").code == "placement_unavailable"


def test_escort_places_in_front_and_fallback_behind() -> None:
    """docs/401-infinite.md "Positionals": in-front / behind follow the reference unit's side
    (Blue's front is up the board)."""
    state, _ = play(place(started(), B2="d3"), "play blue Escort B2 -> B1")
    assert state.unit("B1").space == (3, 3) and state.shield("B1") == 1
    hand = ("Fallback", "Guard", "Hex", "Escort")
    state, _ = play(place(started(blue=hand), B2="d3"), "play blue Fallback B2 -> B2")
    assert state.unit("B2").space == (3, 1) and state.statuses("B2") == {"untargetable"}


def test_a_stunned_unit_cannot_move_on_its_next_turn() -> None:
    """docs/401-infinite.md "Status effects": Stunned - no Movement and no abilities while the
    card is on the Field."""
    state, _ = play(started(blue=("Snare", "Guard", "Hex", "Escort")),
                    "play blue Snare -> R1", "end blue")
    assert refusal(state, "move red R1 c6").code == "stunned"
    assert play(state, "move red R2 d6")[0].unit("R2").space == (3, 5)


def test_a_slowed_unit_moves_two_spaces() -> None:
    """docs/401-infinite.md "Status effects": Slowed - Movement allowance halved (4 -> 2)."""
    state = place(started(first="red"), R1="d5", B1="d3")
    state, _ = play(state, "play red Serration R1 -> B1", "end red")
    assert refusal(state, "move blue B1 a3").code == "out_of_reach"
    assert play(state, "move blue B1 b3")[0].unit("B1").space == (1, 2)


def test_a_passive_with_effect_text_is_placed_at_the_start_of_each_turn() -> None:
    """401-infinite.md "PASSIVES": passives with Effect Text are placed onto the Field like
    abilities, without costing an action (Bulwark: weakest unit gains Shield 1)."""
    from dataclasses import replace

    state = started()
    state = state.with_side_cards("blue", replace(state.side_cards("blue"), passive="Bulwark"))
    state = replace(state, units=tuple(replace(u, hp=1) if u.name == "B3" else u
                                       for u in state.units))
    state, _ = play(state, "end blue", "end red")
    assert state.shield("B3") == 1 and state.actions_left == 2
    assert [e.card for e in state.field if e.passive] == ["Bulwark"]


SWING = DEFAULT_CARDS + """
[[abilities]]
name = "Swing"
type = "attack"
text = "Push the target 1 space away, then pull it 1 space back."
range = '''
x x x
x S x
x x x
'''
effects = [{ move = "target", to = "away", of = "source", spaces = 1 },
           { move = "target", to = "toward", of = "source", spaces = 1 }]
"""


def test_a_unit_moved_back_to_where_it_started_does_not_land() -> None:
    """401-infinite.md "GLOSSARY" Land: to occupy a Space at the end of an Action that the Unit
    was not occupying before (so it does not collect the HP token it already stood on)."""
    state = started(blue=("Swing", "Guard", "Hex", "Escort"), cards=SWING)
    state = place(state, R1="a4", B1="a3")
    after, events = play(state, "play blue Swing B1 -> R1")
    assert after.unit("R1").space == (0, 3) and events == [] and after.token == (0, 3)
