"""Tide, Power and Fortitude actions (rulebook 4, 2.4, 6 and 7)."""

from __future__ import annotations

from dataclasses import replace

from companion.games.defiance.state import Prepared, placement_at, seat, track_level, with_seat
from tests.games.defiance.helpers import (
    board,
    give,
    kinds,
    locked,
    play,
    play_state,
    refusal,
    started,
    units,
)


def _ann(faces: str, *hand: str, attribute: str = "tide"):
    state = started()
    state = with_seat(state, replace(seat(state, "Ann"), hand=tuple(sorted(hand))))
    return locked(state, faces, attribute)


# -- Tide -----------------------------------------------------------------------------------

def test_prepare_costs_one_tide_and_the_timeline_holds_one_plus_tide_level():
    """infinities-defiance-of-fate.md "7. Card Properties", The Timeline: timeline cards equal
    to 1 + your current Tide level (the glossary's reading; section 4 says Tide level); when
    full you may destroy one to replace it."""
    state = _ann("T T T T", "mending-light", "sunlance", "pilgrim")
    state = play_state(state, "prepare Ann mending-light", "prepare Ann sunlance")
    assert [p.card for p in seat(state, "Ann").timeline] == ["mending-light", "sunlance"]
    assert refusal(state, "prepare Ann pilgrim").code == "timeline_full"
    state = play_state(state, "prepare Ann pilgrim replace mending-light")
    assert [p.card for p in seat(state, "Ann").timeline] == ["sunlance", "pilgrim"]
    assert state.turn.spent == 3


def test_timeline_card_is_not_played_the_turn_it_was_prepared():
    """infinities-defiance-of-fate.md "7. Card Properties": cards cannot be played from the
    timeline in the same turn they were added; later it costs 1 Tide."""
    state = _ann("T T T T", "flame-warden")
    state = play_state(state, "prepare Ann flame-warden")
    assert refusal(state, "play Ann flame-warden timeline").code == "prepared_this_turn"
    state = play_state(state, "end Ann", "check Ben tide", "roll 0 0 0 0", "lock Ben", "end Ben")
    state = locked(state, "T F F F")
    state = play_state(state, "play Ann flame-warden timeline")
    assert [u.card for u in seat(state, "Ann").group] == ["flame-warden"]


def test_play_from_hand_costs_its_tide_and_units_raise_the_tracks():
    """infinities-defiance-of-fate.md "2.4 - Faction Decks", Unit Cards: when a unit joins,
    move the track counters one tick per icon; "4. Turn Actions": 1 Tide per cost."""
    state = _ann("T T F 0", "flame-warden", "acolyte-of-the-sun")
    assert refusal(state, "play Ann flame-warden").code == "no_die"
    state = play_state(state, "play Ann acolyte-of-the-sun")
    ann = seat(state, "Ann")
    assert track_level(state, ann, "tide") == 2
    assert state.turn.spent == 2


def test_ability_goes_to_the_centre_then_the_discard_pile():
    """infinities-defiance-of-fate.md "2.4 - Faction Decks", Ability Cards: placed toward the
    centre when played, then onto the discard pile once resolved."""
    state = _ann("T T F 0", "sunlance")
    state = play_state(state, "play Ann sunlance")
    assert state.center == (("Ann", "sunlance"),)
    state = play_state(state, "resolved Ann sunlance")
    assert state.center == ()
    wardens = next(d for d in state.decks if d.faction == "wardens")
    assert wardens.discard[-1] == "sunlance"


def test_a_full_group_destroys_a_unit_before_a_new_one_joins():
    """infinities-defiance-of-fate.md "2.4 - Faction Decks", Unit Cards: up to 4 units; when
    playing a unit into a full group, you must first destroy a unit."""
    state = units(started(), "Ann", "pilgrim", "pilgrim", "spine-guard", "acolyte-of-the-sun")
    state = give(state, "Ann", "pilgrim")
    state = locked(state, "T T T T")
    assert refusal(state, "play Ann pilgrim").code == "group_full"
    state = play_state(state, "play Ann pilgrim replace 4")
    assert [u.card for u in seat(state, "Ann").group] == ["pilgrim", "pilgrim", "spine-guard",
                                                          "pilgrim"]
    assert track_level(state, seat(state, "Ann"), "tide") == 1


def test_losing_a_unit_lowers_the_track_and_trims_the_timeline():
    """infinities-defiance-of-fate.md "2.4" (move the counter down when a unit is destroyed)
    and "7. Card Properties" (a timeline over its limit must be destroyed to compliance)."""
    state = units(started(), "Ann", "pilgrim", "acolyte-of-the-sun")
    ann = seat(state, "Ann")
    state = with_seat(state, replace(ann, timeline=(Prepared("sunlance", 0),
                                                    Prepared("mending-light", 0),
                                                    Prepared("ember-oath", 0))))
    state = play_state(state, "end Ann")
    state = units(state, "Ben", "drone-swarm")  # one Power icon: reach 2, Ann is 2 away
    state = locked(state, "P P 0 0", "power")
    state = play_state(state, "damage Ben Ann 2")
    state, events = play(state, "damage Ben Ann 2")
    ann = seat(state, "Ann")
    assert [u.card for u in ann.group] == ["pilgrim"]
    # Issue 17: the owner chooses which cards to destroy (no newest-first without a word).
    assert kinds(events) == ["health_changed", "unit_destroyed", "timeline_over_limit"]
    assert events[2]["destroy"] == 1 and "1 + Tide level" in events[2]["detail"]
    assert [p.card for p in ann.timeline] == ["sunlance", "mending-light", "ember-oath"]
    state, events = play(state, "trim Ann sunlance")
    assert [p.card for p in seat(state, "Ann").timeline] == ["mending-light", "ember-oath"]
    assert kinds(events) == ["timeline_card_destroyed"]


# -- Power ----------------------------------------------------------------------------------

def test_power_actions_need_the_target_within_reach():
    """infinities-defiance-of-fate.md "4. Turn Actions", Power Actions: target leaders within
    your reach, a clear path of tiles equal to your Power level. Ben is 2 tiles away."""
    state = _ann("P P P P", attribute="power")
    assert refusal(state, "damage Ann Ben").code == "out_of_reach"
    state = units(_ann("P P P P", attribute="power"), "Ann", "drone-swarm")  # Power 2
    state, events = play(state, "damage Ann Ben")
    assert kinds(events) == ["health_changed"]
    assert events[0].data == {"leader": "Ben", "old": 5, "new": 4}


def test_group_damage_goes_to_a_unit_before_the_leader():
    """infinities-defiance-of-fate.md "8.1 - Damage": group damage must be dealt to eligible
    units before the leader."""
    state = units(_ann("P P P P", attribute="power"), "Ann", "drone-swarm")
    state = units(state, "Ben", "runner", "aegis-mech")
    assert refusal(state, "damage Ann Ben").code == "units_first"
    state, events = play(state, "damage Ann Ben 2")
    assert events[0].data == {"unit": "aegis-mech", "leader": "Ben", "old": 4, "new": 3}
    state, events = play(state, "damage Ann Ben 1")
    assert [u.card for u in seat(state, "Ben").group] == ["aegis-mech"]
    empire = next(d for d in state.decks if d.faction == "empire")
    assert empire.discard == ("runner",)


def test_destroy_a_timeline_card_and_cycle():
    """infinities-defiance-of-fate.md "4. Turn Actions", Power Actions: 1 Power destroys 1
    timeline card; 1 Power cycles 1 card (discard 1 then draw 1)."""
    state = units(started(), "Ann", "drone-swarm")
    ben = seat(state, "Ben")
    state = with_seat(state, replace(ben, timeline=(Prepared("firewall", 0),)))
    state = give(state, "Ann", "sunlance")
    state = locked(state, "P P T 0", "power")
    state = play_state(state, "destroy Ann Ben firewall")
    assert seat(state, "Ben").timeline == ()
    before = seat(state, "Ann").hand
    state = play_state(state, "cycle Ann sunlance")
    after = seat(state, "Ann").hand
    assert "sunlance" in before and len(after) == len(before)
    assert next(d for d in state.decks if d.faction == "wardens").discard[-1] == "sunlance"


# -- Fortitude ------------------------------------------------------------------------------

def test_move_needs_a_clear_path_without_walls_or_pawns():
    """infinities-defiance-of-fate.md "6. Movement", Basic Rules: one pawn per space; your
    path must have no walls or pawns. The Worldspine (rotation 0) is walled north-east."""
    state = _ann("F F F F", attribute="fortitude")
    assert refusal(state, "move Ann 2,-1 discover ember-market 0").code == "wall"
    state = play_state(state, "move Ann 0,0")
    assert refusal(state, "move Ann -1,0").code == "occupied"
    assert refusal(state, "move Ann 2,0").code == "not_adjacent"


def test_discovery_draws_from_the_same_settings_stack_and_either_from_the_rift():
    """infinities-defiance-of-fate.md "6. Movement", Discover and Rift Tiles: connect a tile
    from the same setting's stack without a wall in your path; from the Rift either stack."""
    state = _ann("F F F F", attribute="fortitude")
    assert refusal(state, "move Ann 2,0 discover neon-district 0").code == "not_in_stack"
    assert refusal(state, "move Ann 2,0").code == "must_discover"
    # Spire Temple walls edge 5; rot 4 -> west
    assert refusal(state, "move Ann 2,0 discover spire-temple 4").code == "no_clear_path"
    state = play_state(state, "move Ann 2,0 discover spire-temple 0")
    assert placement_at(state, (2, 0)).tile == "spire-temple"
    state = play_state(state, "move Ann 1,0", "move Ann 0,0",
                       "move Ann 0,-1 discover neon-district 0")
    assert seat(state, "Ann").pos == (0, -1)


def test_regroup_draws_one_and_heals_one_on_discovery():
    """infinities-defiance-of-fate.md "4. Turn Actions", Fortitude Actions, and glossary
    "Regroup": draw 1 after moving; if discovering a new tile, also heal 1."""
    state = started()
    state = with_seat(state, replace(seat(state, "Ann"), health=3))
    state = locked(state, "F F F F", "fortitude")
    hand = len(seat(state, "Ann").hand)
    state, events = play(state, "move Ann 2,0 discover sun-road 0 regroup")
    assert len(seat(state, "Ann").hand) == hand + 1
    assert events[0].data == {"leader": "Ann", "old": 3, "new": 4}
    state, events = play(state, "move Ann 1,0 regroup")
    assert len(seat(state, "Ann").hand) == hand + 2 and seat(state, "Ann").health == 4


def test_flip_force_moves_the_leader_inside_and_the_space_becomes_empty():
    """infinities-defiance-of-fate.md "6. Movement", Flipping Tiles: force-move a leader in
    the tile to an adjacent space of your choice, ignoring walls; the space counts as empty
    until the flipped tile is rediscovered."""
    state = board(started(), ("sun-road", 0, -1, 0))
    state = with_seat(state, replace(seat(state, "Ann"), pos=(0, -1)))
    state = with_seat(state, replace(seat(state, "Ben"), pos=(0, 0)))
    state = locked(state, "F F F F", "fortitude")
    assert refusal(state, "flip Ann 0,0").code == "push_where"
    state = play_state(state, "flip Ann 0,0 push 1,0")
    assert seat(state, "Ben").pos == (1, 0)
    assert placement_at(state, (0, 0)).flipped
    assert refusal(state, "move Ann 0,0 discover moon-well 0").code == "rediscover"
    state = play_state(state, "move Ann 0,0 discover rift 3")
    assert not placement_at(state, (0, 0)).flipped and seat(state, "Ann").pos == (0, 0)


def test_no_flip_when_the_leader_inside_has_no_space_to_go():
    """infinities-defiance-of-fate.md "6. Movement", Flipping Tiles: you cannot flip a tile
    if there is no legal adjacent space for a player within to move to."""
    state = started()  # Ben alone at -1,0: its only face-up neighbour is the Rift
    state = with_seat(state, replace(seat(state, "Ann"), pos=(0, 0)))
    state = locked(state, "F F F F", "fortitude")
    assert refusal(state, "flip Ann -1,0 push 0,0").code == "no_space_to_push"


def test_preparing_in_an_allys_timeline_transfers_the_card():
    """infinities-defiance-of-fate.md "7. Card Properties", The Timeline: when you prepare a
    card in an ally's timeline, you transfer ownership to them; never an opponent's."""
    from tests.games.defiance.test_gambits_scoring import _teams_game

    state = give(_teams_game(), "Ann", "sunlance", "sunlance")
    state = locked(state, "T T T T")
    assert refusal(state, "prepare Ann sunlance to Ben").code == "not_an_ally"
    state = play_state(state, "prepare Ann sunlance to Cid")
    assert [p.card for p in seat(state, "Cid").timeline] == ["sunlance"]
    assert seat(state, "Ann").timeline == ()


def test_a_card_played_at_a_mechanics_direction_costs_nothing():
    """infinities-defiance-of-fate.md "4. Turn Actions", Tide Actions: if a mechanic directs
    you to play a card, you do so without paying its cost."""
    state = _ann("0 0 0 0", "flame-warden")
    assert refusal(state, "play Ann flame-warden").code == "no_die"
    state = play_state(state, "play Ann flame-warden free")
    assert [u.card for u in seat(state, "Ann").group] == ["flame-warden"]
    assert state.turn.spent == 0
