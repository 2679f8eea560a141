"""Moving room: doorways, the two criteria, drawing from the bottom, traps (infinidungeon.md)."""

from __future__ import annotations

from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.state import Phase
from tests.games.infinidungeon.helpers import at, kinds, legal_texts, play, refusal


def test_moving_only_through_a_doorway_of_the_current_room() -> None:
    """infinidungeon.md "Moving Room" paragraph 1: only where the room has a doorway."""
    state = at("crypt", pile=("hall", "spring"))  # the Crypt's Basic side has no south door
    error = refusal(state, "go south")
    assert error.code == "no_doorway"
    assert str(error.rule) == 'infinidungeon: "Moving Room", paragraph 1: only through a doorway'
    assert "doorways: north, east, west" in error.reason
    assert "go south" not in legal_texts(state)


def test_rooms_are_drawn_from_the_bottom_until_both_criteria_match() -> None:
    """infinidungeon.md "Moving Room": draw from the bottom; the symbol must be one of the
    doorway's two and the new room needs the opposite doorway; non-matching cards go on top
    face down and the old room goes on top last."""
    # Great Hall east doorway shows skull/star and needs a west doorway in the new room.
    # Library: star but no west doorway; Spring: a west doorway but moon; Throne: matches.
    state = at("hall", pile=("library", "spring", "throne", "den"))
    after, events = play(state, "go east")
    assert after.room == ("throne", "basic")
    assert after.pile == (("den", "basic"), ("library", "basic"), ("spring", "basic"),
                          ("hall", "basic"))
    assert after.phase == Phase.FIGHT_ROLL  # the Throne Room's knight and squire are faced next
    assert events == []


def test_the_old_room_goes_back_with_the_side_just_seen_facing_down() -> None:
    """infinidungeon.md "Flipping Rooms": the side you just saw on the table faces down, so a
    flipped crystal room comes back on its Advanced side."""
    state = at("crypt", "advanced", pile=("hall", "den"))
    after, _ = play(state, "go north")
    assert after.room == ("hall", "basic")
    assert after.pile[-1] == ("crypt", "advanced")
    assert after.deck.card("crypt").side(after.pile[-1][1]).monsters[0].name == "wraith"


def test_no_matching_room_is_refused_and_the_player_chooses_again() -> None:
    """infinidungeon.md "Moving Room", the two criteria: when no card in the deck can ever
    match, the referee says so instead of drawing forever, and other doorways stay open."""
    state = at("hall", pile=("library", "spring"))
    error = refusal(state, "go east")
    assert error.code == "no_matching_room"
    assert "skull or star" in error.reason and "west" in error.reason
    assert str(error.rule).startswith('infinidungeon: "Moving Room"')
    assert "go east" not in legal_texts(state)
    assert "go north" in legal_texts(state)  # the Spring (moon, south door) fits north
    assert play(state, "go north")[0].room == ("spring", "basic")


def test_a_room_no_card_can_join_ends_the_game() -> None:
    """infinidungeon.md "Moving Room" (silent on a room that no card can join; reading in
    docs/infinidungeon.md): with no way on, the game is lost as a dead end."""
    state = at("hall", phase=Phase.FIGHT_ROLL, pile=())
    after, events = play(state, "roll 5 1 2 2 2", "reroll none", "assign 1:slime 5:ghost")
    assert after.phase == Phase.OVER
    assert GAME.outcome(after) is not None and GAME.outcome(after).termination == "dead_end"
    assert kinds(events) == ["defeat"]


def test_a_trapped_doorway_sounds_the_trap_and_rolls_every_die() -> None:
    """infinidungeon.md "Moving Room" paragraph 2: roll all available dice, reroll any, and
    lose those below the face under the trap; then enter the new room."""
    state = at("crypt", pile=("hall",))  # east doorway: trap with face 3
    trapped, events = play(state, "go east")
    assert events[0].to_json() == {"kind": "trap_sprung", "room": "crypt", "doorway": "east",
                                   "face": 3}
    assert trapped.phase == Phase.TRAP_ROLL and GAME.is_chance(trapped)
    assert refusal(trapped, "roll 1 2").code == "wrong_dice_count"
    rolled, _ = play(trapped, "roll 1 2 3 4 6")
    assert rolled.phase == Phase.TRAP_REROLL
    after, events = play(rolled, "reroll 1 -> 5")
    assert after.dice == 4
    assert events[0].to_json() == {"kind": "die_lost", "count": 1, "dice": 4}
    assert after.room == ("hall", "basic")


def test_a_trap_never_takes_the_last_die() -> None:
    """infinidungeon.md "Moving Room": you can never lose your last dice from a trap."""
    state = at("crypt", pile=("hall",), dice=2)
    after, events = play(state, "go east", "roll 1 2", "reroll none")
    assert after.dice == 1 and after.phase != Phase.OVER
    assert [e.to_json() for e in events if e.kind == "die_lost"] == [
        {"kind": "die_lost", "count": 1, "dice": 1}]


def test_no_die_is_lost_when_every_die_meets_the_trap() -> None:
    """infinidungeon.md "Moving Room": whether or not you lose any dice, proceed."""
    state = at("crypt", pile=("hall",))
    after, events = play(state, "go east", "roll 3 4 5 6 6", "reroll none")
    assert after.dice == 5 and kinds(events) == ["trap_sprung"]
    assert after.room == ("hall", "basic")


def test_typed_physical_reroll_equals_the_chosen_reroll_then_its_roll() -> None:
    """infinidungeon.md "Moving Room": reroll as many dice as you like, once; the values
    may come typed on one line or after the choice."""
    state = at("crypt", pile=("hall",))
    one_line, _ = play(state, "go east", "roll 1 2 3 4 6", "reroll 2 1 -> 6 5")
    two_steps, _ = play(state, "go east", "roll 1 2 3 4 6", "reroll 1 2", "roll 5 6")
    assert one_line == two_steps
    assert one_line.dice == 5


def test_moving_is_refused_while_a_roll_is_awaited() -> None:
    """infinidungeon.md "Turn Order": facing the room comes before moving on."""
    state = at("hall", phase=Phase.FIGHT_ROLL, pile=("spring",))
    error = refusal(state, "go north")
    assert error.code == "out_of_turn"
    assert str(error.rule) == 'infinidungeon: "Turn Order"'
    assert "roll of every die against the monsters" in error.reason
    assert play(state, "roll 5 1 2 2 2", "reroll none", "assign 1:slime 5:ghost",
                "go north")[0].room == ("spring", "basic")
