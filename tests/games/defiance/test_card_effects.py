"""What card texts do to the tracked table, entered in the notation (issue 17, Defiance):
healing any asset, discarding, destroying and stealing units, force-moving a leader,
cancelling and attaching, the owner's choice when the timeline limit falls, and the events
that make every consequence visible. Each test cites infinities-defiance-of-fate.md."""

from __future__ import annotations

from dataclasses import replace

from companion.games.defiance import GAME
from companion.games.defiance.state import Prepared, Unit, seat, track_level, with_seat
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


def _damaged(state, name: str, card: str, damage: int):
    player = seat(state, name)
    group = tuple(replace(u, damage=damage) if u.card == card else u for u in player.group)
    return with_seat(state, replace(player, group=group))


# -- 8.1: heal any asset ---------------------------------------------------------------------

def test_a_unit_is_healed_by_a_card_and_the_next_damage_no_longer_destroys_it():
    """infinities-defiance-of-fate.md "8.1 - Damage": "You can heal damage by detaching damage
    token(s) from any asset." Issue 17: the Acolyte damaged 2 -> 1 is healed back to 2."""
    state = units(started(), "Ann", "acolyte-of-the-sun", "flame-warden")
    state = _damaged(state, "Ann", "acolyte-of-the-sun", 1)
    state = play_state(state, "effect Ann flame-warden heal 1 Ann acolyte-of-the-sun")
    state, events = play(state, "step Ann")
    assert [(e.kind, e["unit"], e["old"], e["new"]) for e in events] == [
        ("health_changed", "acolyte-of-the-sun", 1, 2)]
    assert seat(state, "Ann").group[0].damage == 0
    state = play_state(state, "end Ann")
    state = units(state, "Ben", "runner")
    state, events = play(state, "effect Ben runner damage 1 Ann acolyte-of-the-sun")
    state, events = play(state, "step Ben")
    assert [(e["old"], e["new"]) for e in events] == [(2, 1)]
    assert [u.label for u in seat(state, "Ann").group] == ["acolyte-of-the-sun", "flame-warden"]


def test_adjust_heals_or_damages_a_unit_by_name_and_says_when_it_is_destroyed():
    """infinities-defiance-of-fate.md "8.1 - Damage" (heal any asset) and "2.4 - Faction
    Decks" (a unit is destroyed when its Health is gone; the track counter moves down)."""
    state = units(started(), "Ann", "acolyte-of-the-sun", "spine-guard")
    state = _damaged(state, "Ann", "spine-guard", 2)
    state, events = play(state, "adjust Ann mending-light health +1 spine-guard")
    assert (events[0]["unit"], events[0]["old"], events[0]["new"]) == ("spine-guard", 2, 3)
    assert track_level(state, seat(state, "Ann"), "tide") == 2
    state, events = play(state, "adjust Ann sunlance health -2 acolyte-of-the-sun")
    assert kinds(events) == ["health_changed", "health_changed", "unit_destroyed"]
    assert events[2]["unit"] == "acolyte-of-the-sun" and events[2]["why"] == "damage"
    assert track_level(state, seat(state, "Ann"), "tide") == 1
    assert GAME.describe_event(events[2]) == "Ann's acolyte-of-the-sun is destroyed"


def test_a_heal_that_does_nothing_gets_an_event_and_a_line():
    """infinities-defiance-of-fate.md "8.1 - Damage": healing detaches damage tokens; with no
    token there is nothing to detach (issue 17: heals that do nothing are said)."""
    state = units(started(), "Ann", "spine-guard")
    state, events = play(state, "adjust Ann mending-light health +1")
    assert kinds(events) == ["nothing_healed"] and events[0]["asset"] == "Ann"
    state, events = play(state, "adjust Ann mending-light health +1 spine-guard")
    assert kinds(events) == ["nothing_healed"]
    assert GAME.describe_event(events[0]) == "spine-guard has no damage to heal: nothing healed"


# -- damage in one action; self-targeted damage ------------------------------------------

def test_step_all_resolves_a_whole_mechanic_in_one_action():
    """infinities-defiance-of-fate.md "8.3 - The Queue": a multi-step mechanic ("deal 3
    damage") resolves step by step; `step P all` enters all of its steps at once."""
    state = units(started(), "Ann", "flame-warden")
    state = play_state(state, "effect Ann flame-warden damage 3 Ben")
    state, events = play(state, "step Ann all")
    assert [e["new"] for e in events] == [4, 3, 2] and state.queue == ()
    state = play_state(units(started(), "Ann", "flame-warden"),
                       "effect Ann flame-warden damage 3 Ben")
    state, events = play(state, "step Ann 2")
    assert [e["new"] for e in events] == [4, 3] and state.queue[0].steps == 1
    assert refusal(units(started(), "Ann", "flame-warden"), "step Ann 2").code == "queue_empty"


def test_step_count_cannot_exceed_what_is_left():
    """infinities-defiance-of-fate.md "8.3 - The Queue": a mechanic has as many steps as its
    value."""
    state = units(started(), "Ann", "flame-warden")
    state = play_state(state, "effect Ann flame-warden damage 2 Ben")
    assert refusal(state, "step Ann 3").code == "step_count"


def test_self_targeted_damage_is_exempt_from_units_first():
    """infinities-defiance-of-fate.md "8.1 - Damage": "Group damage must be dealt to eligible
    units before the leader, except when the damage is self-targeted." The owner names the
    asset; damage to another group still goes to units first."""
    state = units(started(), "Ann", "spine-guard")
    refused = refusal(state, "effect Ann spine-guard damage 1 Ann")
    assert refused.code == "self_damage_asset" and "8.1" in str(refused.rule)
    state = play_state(state, "effect Ann spine-guard damage 2 Ann Ann")
    state = play_state(state, "step Ann all")
    assert seat(state, "Ann").health == 3 and seat(state, "Ann").group[0].damage == 0
    state = units(state, "Ben", "runner")
    assert refusal(state, "effect Ann spine-guard damage 1 Ben Ben").code == "units_first"
    state = play_state(state, "effect Ann spine-guard damage 1 Ann spine-guard", "step Ann")
    assert seat(state, "Ann").group[0].damage == 1


# -- every kind of change a card makes -----------------------------------------------------

def test_a_card_makes_a_player_discard_a_card_they_name():
    """infinities-defiance-of-fate.md "9. Glossary", Discard: "Place a card from your hand
    onto the discard pile"; "8.3": one card per step."""
    state = give(units(started(), "Ben", "deva-adept"), "Ann", "sunlance", "ember-oath")
    state = play_state(state, "effect Ben deva-adept discard 1 Ann")
    assert refusal(state, "step Ben").code == "step_needs_choice"
    assert refusal(state, "step Ben railgun").code == "not_in_hand"
    state, events = play(state, "step Ann sunlance")
    assert kinds(events) == ["card_discarded"] and "sunlance" not in seat(state, "Ann").hand
    deck = next(d for d in state.decks if d.faction == "wardens")
    assert deck.discard[-1] == "sunlance" and state.queue == ()


def test_a_card_destroys_a_unit_by_its_stable_name():
    """infinities-defiance-of-fate.md "9. Glossary", Destroy: "Move a card out of a play space
    and into its discard pile"; "2.4": the track counter moves down."""
    state = units(units(started(), "Ben", "deva-adept"), "Ann", "pilgrim", "spine-guard")
    state = play_state(state, "effect Ben deva-adept destroy 1 Ann")
    state, events = play(state, "step Ben spine-guard")
    assert kinds(events) == ["unit_destroyed"] and events[0]["why"] == "destroyed"
    assert [u.label for u in seat(state, "Ann").group] == ["pilgrim"]
    assert track_level(state, seat(state, "Ann"), "fortitude") == 2
    assert refusal(play_state(state, "effect Ben deva-adept destroy 1 Ann"),
                    "step Ben railgun").code == "not_an_asset"


def test_the_power_destroy_action_points_a_unit_to_the_card_effect():
    """infinities-defiance-of-fate.md "4. Turn Actions", Power Actions: 1 Power destroys 1
    timeline card; a unit is destroyed by a card's text (issue 17: `destroy Ben Ann a-brute`
    was refused without saying how to enter it)."""
    state = units(started(), "Ben", "runner")
    state = with_seat(state, replace(seat(state, "Ann"), pos=(0, 0)))
    refused = refusal(locked(state, "P P 0 0", "power"), "destroy Ann Ben runner")
    assert refused.code == "not_in_timeline"
    assert "`effect Ann SOURCE destroy 1 Ben` then `step Ann runner`" in refused.reason


def test_a_card_steals_a_unit_with_what_is_attached_and_a_timeline_card():
    """infinities-defiance-of-fate.md "9. Glossary", Steal: "Take a card and anything attached
    to it from another player and move it to your group or timeline. You now own all moved
    items." """
    state = give(units(started(), "Ann", "pilgrim"), "Ann", "ember-oath")
    state = with_seat(state, replace(seat(state, "Ann"), timeline=(Prepared("sunlance", 0),)))
    state = locked(state, "T T 0 0")
    state = play_state(state, "play Ann ember-oath")
    state, events = play(state, "attach Ann ember-oath Ann pilgrim")
    assert kinds(events) == ["card_attached"] and state.center == ()
    state = play_state(state, "end Ann")
    state = units(state, "Ben", "runner")
    state = play_state(state, "effect Ben runner steal 2 Ann")
    state, events = play(state, "step Ben pilgrim sunlance")
    assert kinds(events) == ["card_stolen", "card_stolen"]
    assert [u.label for u in seat(state, "Ben").group] == ["runner", "pilgrim"]
    assert [p.card for p in seat(state, "Ben").timeline] == ["sunlance"]
    assert seat(state, "Ann").group == () and seat(state, "Ann").timeline == ()
    assert [(a.owner, a.holder, a.asset) for a in state.attached] == [("Ben", "Ben", "pilgrim")]


def test_an_attached_card_is_destroyed_with_its_asset():
    """infinities-defiance-of-fate.md "9. Glossary", Attach: "If the asset leaves play,
    destroy the attached asset." """
    state = give(units(started(), "Ann", "pilgrim"), "Ann", "ember-oath")
    state = play_state(locked(state, "T T 0 0"), "play Ann ember-oath",
                       "attach Ann ember-oath Ann pilgrim", "adjust Ann sunlance health -1 pilgrim")
    assert state.attached == ()
    deck = next(d for d in state.decks if d.faction == "wardens")
    assert deck.discard[-2:] == ("pilgrim", "ember-oath")
    assert refusal(state, "attach Ann ember-oath Ann").code == "not_resolving"


def test_a_card_force_moves_a_leader_along_a_clear_path():
    """infinities-defiance-of-fate.md "6. Movement", Forced Movement: "Most normal movement
    rules apply in forced movement" (one space, no wall, no pawn), "but not regroup"."""
    state = units(started(), "Ben", "runner")
    state = board(state, ("ember-market", 2, -1, 0))  # north-east of Ann, through her wall
    state = play_state(state, "effect Ben runner move 1 Ann")
    assert refusal(state, "step Ben -1,0").code == "not_adjacent"
    assert refusal(state, "step Ben 2,0").code == "forced_onto_tile"
    assert refusal(state, "step Ben 2,-1").code == "wall"
    hand = seat(state, "Ann").hand
    state, events = play(state, "step Ben 0,0")
    assert kinds(events) == ["forced_move"] and seat(state, "Ann").pos == (0, 0)
    assert seat(state, "Ann").hand == hand


def test_cancel_negates_a_mechanic_or_an_ability_being_played_but_never_a_fated_one():
    """infinities-defiance-of-fate.md "5. Protection": cancel negates a mechanic "as though
    it never existed"; Fated mechanics cannot be canceled; "8.2": not once resolving;
    "9. Glossary", Cancel: the card goes to the discard pile as it is played."""
    state = give(units(started(), "Ben", "aegis-mech"), "Ann", "sunlance", "fated-flame")
    state = locked(state, "T T T 0")
    state = play_state(state, "play Ann sunlance", "effect Ann sunlance damage 2 Ben")
    state, events = play(state, "cancel Ben aegis-mech")
    assert kinds(events) == ["canceled"] and state.queue == ()
    assert seat(state, "Ben").group[0].damage == 0
    state = play_state(state, "effect Ann sunlance damage 2 Ben", "step Ann")
    assert refusal(state, "cancel Ben aegis-mech").code == "already_resolving"
    state = play_state(state, "step Ann")
    state, events = play(state, "cancel Ben aegis-mech sunlance")
    assert state.center == () and events[0]["effect"] == "play"
    assert refusal(state, "cancel Ben railgun").code == "source_not_in_play"


def test_cancel_refuses_a_fated_ability():
    """infinities-defiance-of-fate.md "5. Protection": "Fated mechanics cannot be blocked or
    canceled"."""
    state = give(units(started(), "Ben", "deva-adept"), "Ann", "fated-flame")
    state = play_state(locked(state, "T T T 0"), "play Ann fated-flame")
    assert refusal(state, "cancel Ben deva-adept fated-flame").code == "fated"
    state = play_state(state, "effect Ann fated-flame damage 1 Ben")
    assert refusal(state, "cancel Ben deva-adept").code == "fated"


# -- 7: the owner chooses when the timeline limit falls -----------------------------------

def _over_limit():
    state = units(started(), "Ann", "acolyte-of-the-sun")  # Tide 2: limit 1 + 2 = 3
    ann = seat(state, "Ann")
    state = with_seat(state, replace(ann, timeline=(Prepared("sunlance", 0),
                                                    Prepared("mending-light", 0),
                                                    Prepared("ember-oath", 0))))
    return play_state(state, "adjust Ann sunlance tide -1")


def test_when_the_limit_falls_the_owner_chooses_which_timeline_cards_to_destroy():
    """infinities-defiance-of-fate.md "7. Card Properties", The Timeline: "If your timeline
    limit falls below the number of timeline cards you have on the table, you must destroy
    them until you are compliant." Nothing else happens until the owner has chosen; the
    limit is 1 + Tide level (section 7 and the glossary; section 4 says Tide level)."""
    state = units(started(), "Ann", "acolyte-of-the-sun")
    ann = seat(state, "Ann")
    state = with_seat(state, replace(ann, timeline=(Prepared("sunlance", 0),
                                                    Prepared("mending-light", 0),
                                                    Prepared("ember-oath", 0))))
    state, events = play(state, "adjust Ann sunlance tide -1")
    assert kinds(events) == ["timeline_over_limit"]
    assert (events[0]["limit"], events[0]["cards"], events[0]["destroy"]) == (2, 3, 1)
    assert "1 + Tide level" in GAME.describe_event(events[0])
    assert [str(a) for a in GAME.legal_actions(state)] == [
        "trim Ann ember-oath", "trim Ann mending-light", "trim Ann sunlance"]
    refused = refusal(state, "check Ann tide")
    assert refused.code == "trim_first" and "1 + Tide level" in refused.reason
    state, events = play(state, "trim Ann mending-light")
    assert [p.card for p in seat(state, "Ann").timeline] == ["sunlance", "ember-oath"]
    assert kinds(events) == ["timeline_card_destroyed"] and events[0]["why"] == "limit"
    assert refusal(state, "trim Ann sunlance").code == "timeline_compliant"
    assert GAME.current_actor(state) == "Ann" and play(state, "check Ann tide")


def test_the_choice_belongs_to_the_owner_even_on_another_leaders_turn():
    """infinities-defiance-of-fate.md "7. Card Properties", The Timeline ("you must destroy
    them"): Ben's timeline over its limit on Ann's turn waits for Ben's choice."""
    state = units(started(), "Ben", "deva-adept")
    ben = seat(state, "Ben")
    state = with_seat(state, replace(ben, timeline=(Prepared("railgun", 0),
                                                    Prepared("firewall", 0),
                                                    Prepared("nanite-repair", 0))))
    state = play_state(state, "adjust Ben railgun tide -1")
    assert GAME.current_actor(state) == "Ben"
    assert refusal(state, "trim Ann railgun").code == "trim_first"
    state = play_state(state, "trim Ben firewall")
    assert GAME.current_actor(state) == "Ann"


# -- silent consequences ----------------------------------------------------------------

def test_the_lost_turn_of_a_defeated_leader_is_an_event_with_a_line():
    """infinities-defiance-of-fate.md "8.6 - Defeat and Respawn": "Lose your next turn." """
    from tests.games.defiance.test_damage import _three_player_game

    state = play_state(_three_player_game(), "adjust Ben railgun health -5", "end Ann")
    state, events = play(state, "end Cid")
    found = [e for e in events if e.kind == "turn_lost"]
    assert [e["leader"] for e in found] == ["Ben"]
    assert GAME.describe_event(found[0]) == "Ben loses this turn (defeated, 8.6)"


def test_a_unit_destroyed_by_damage_is_an_event_not_only_health_zero():
    """infinities-defiance-of-fate.md "2.4 - Faction Decks": "if the unit is destroyed";
    "4. Turn Actions", Power Actions: 1 damage to a target group."""
    state = units(started(), "Ben", "runner", "aegis-mech")
    state = with_seat(state, replace(seat(state, "Ann"), pos=(0, 0)))
    state = locked(state, "P P 0 0", "power")
    state, events = play(state, "damage Ann Ben runner")
    assert kinds(events) == ["health_changed", "unit_destroyed"]
    assert events[1]["unit"] == "runner"


# -- stable unit names --------------------------------------------------------------------

def test_units_keep_their_names_when_a_unit_beside_them_is_destroyed():
    """infinities-defiance-of-fate.md "2.4 - Faction Decks": units stand left to right in the
    order played; issue 17: a second copy is `card.2`, and its name never shifts."""
    state = give(started(), "Ann", "pilgrim", "pilgrim")
    state = play_state(locked(state, "T T 0 0"), "play Ann pilgrim", "play Ann pilgrim")
    assert [u.label for u in seat(state, "Ann").group] == ["pilgrim", "pilgrim.2"]
    state = play_state(state, "adjust Ann sunlance health -1 pilgrim")
    assert [u.label for u in seat(state, "Ann").group] == ["pilgrim.2"]
    state = play_state(state, "adjust Ann sunlance health -1 PILGRIM.2")
    assert seat(state, "Ann").group == ()
    assert Unit("x").label == "x"


# -- notation round trip (undo is a replay) -----------------------------------------------

def test_every_new_verb_round_trips_through_the_notation_and_replays():
    """docs/defiance.md "Notation": `str(action)` prints what `parse` reads back, so a record
    (and undo, a replay without the last action) reproduces the table."""
    state = give(units(started(), "Ben", "deva-adept", "runner"), "Ann", "ember-oath",
                 "sunlance")
    lines = ["check Ann tide", "roll T T T 0", "lock Ann", "play Ann ember-oath",
             "attach Ann ember-oath Ben runner", "effect Ann aster heal 1 Ann Ann",
             "step Ann", "end Ann", "effect Ben deva-adept discard 1 Ann", "step Ben sunlance",
             "effect Ben deva-adept move 1 Ann", "step Ben 0,0",
             "adjust Ben railgun health -1 runner"]
    for line in lines:
        action = GAME.parse_action(state, line)
        assert GAME.parse_action(state, str(action)) == action
        state = GAME.apply(state, action).state
    replayed = GAME.play(give(units(started(), "Ben", "deva-adept", "runner"), "Ann",
                              "ember-oath", "sunlance"), *lines).state
    assert GAME.state_to_json(replayed) == GAME.state_to_json(state)
    assert GAME.state_from_json(GAME.state_to_json(state)) == state


def test_the_steps_of_the_head_mechanic_are_listed_with_their_choices():
    """infinities-defiance-of-fate.md "8.3 - The Queue": the most recent mechanic resolves
    first, step by step; `legal` offers its steps (one, all, or each possible choice)."""
    state = give(units(started(), "Ben", "deva-adept"), "Ann", "sunlance", "ember-oath")
    state = play_state(state, "effect Ben deva-adept damage 2 Ann")
    steps = [str(a) for a in GAME.legal_actions(state) if a.verb == "step"]
    assert steps == ["step Ann", "step Ann all"]
    state = play_state(state, "effect Ben deva-adept discard 1 Ann")
    steps = [str(a) for a in GAME.legal_actions(state) if a.verb == "step"]
    assert steps == [f"step Ann {card}" for card in sorted(set(seat(state, "Ann").hand))]
    assert "step Ann sunlance" in steps
