"""Damage allocation, defeat, respawn and conceding (rulebook 8.1, 8.4 and 8.6)."""

from __future__ import annotations

from dataclasses import replace

from companion.games.defiance.damage import auto_target
from companion.games.defiance.state import Prepared, Unit, seat, with_seat
from tests.games.defiance.helpers import (
    GAME,
    kinds,
    locked,
    play,
    play_state,
    refusal,
    rules,
    started,
    units,
)


def test_taken_damage_goes_in_ascending_health_then_left_to_right():
    """infinities-defiance-of-fate.md "8.4 - Targeting Order" (ascending Health, then left to
    right: the LTR Rule) and glossary "Take (Damage)"."""
    printed = {"a": 3, "b": 2, "c": 2}
    assert auto_target((Unit("a"), Unit("b"), Unit("c")), printed) == 1
    assert auto_target((Unit("a", 2), Unit("b"), Unit("c")), printed) == 0
    assert auto_target((), printed) is None


def test_a_cards_multi_step_damage_is_taken_units_first():
    """infinities-defiance-of-fate.md "8.1 - Damage": group damage is dealt one at a time to
    units before the leader, auto-allocated in ascending Health order when taken."""
    state = units(started(), "Ben", "aegis-mech", "runner")
    state = units(state, "Ann", "flame-warden")
    state = play_state(state, "effect Ann flame-warden damage 3 Ben")
    state, events = play(state, "step Ann")
    assert events[0].data == {"unit": "runner", "leader": "Ben", "old": 1, "new": 0}
    state, events = play(state, "step Ann")
    assert events[0].data["unit"] == "aegis-mech"
    state, events = play(state, "step Ann")
    assert [u.damage for u in seat(state, "Ben").group] == [2]
    assert seat(state, "Ben").health == 5


def _defeat_ben(state):
    state = with_seat(state, replace(seat(state, "Ben"), health=1))
    ben = seat(state, "Ben")
    state = with_seat(state, replace(ben, timeline=(Prepared("firewall", 0),),
                                     group=(Unit("runner"),)))
    state = units(state, "Ann", "drone-swarm")
    state = locked(state, "P P P 0", "power")
    state = play_state(state, "damage Ann Ben 1")
    return play(state, "damage Ann Ben")


def test_defeat_removes_the_pawn_and_discards_everything():
    """infinities-defiance-of-fate.md "8.6 - Defeat and Respawn": at 0 Health remove the pawn
    and damage tokens, discard owned cards, cards in play and the hand."""
    state, events = _defeat_ben(_three_player_game())
    assert kinds(events) == ["health_changed", "defeat"]
    ben = seat(state, "Ben")
    assert ben.pos is None and ben.hand == () and ben.group == () and ben.timeline == ()
    assert ben.status == "defeated"


def test_when_every_opponent_is_defeated_the_last_side_wins():
    """infinities-defiance-of-fate.md "8.6 - Defeat and Respawn": if one player or team
    remains when all opponents are defeated, they automatically win regardless of mode."""
    state, events = _defeat_ben(started())
    assert kinds(events)[-2:] == ["game_over", "victory"]
    assert GAME.outcome(state).winners == ("Ann",)
    assert GAME.outcome(state).termination == "last_standing"


def _three_player_game():
    """Skirmish FFA for three: Ann on the Worldspine (5), Ben on Scrap Dunes (1), Cid on Moon
    Well (2): order Ann, Cid, Ben."""
    from tests.games.defiance.helpers import deck_order

    state = GAME.initial_state(rules("data/games/skirmish.toml"))
    for faction in ("empire", "wardens"):
        state = play_state(state, f"shuffle {faction} {deck_order(state, faction)}")
    return play_state(state, "reveal explorer assassin general seer ruler pilgrim",
                      "place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0",
                      "place Cid moon-well 0,1 0", "leader Ann aster", "leader Cid oru",
                      "leader Ben kael", "ready Ann", "ready Cid", "ready Ben")


def test_a_defeated_leader_loses_the_next_turn_then_respawns_in_the_rift_and_deploys():
    """infinities-defiance-of-fate.md "8.6 - Defeat and Respawn": lose your next turn; on the
    following turn respawn in the Rift, then complete a deploy."""
    state = _three_player_game()
    assert state.order == ("Ann", "Cid", "Ben")
    state, events = _defeat_ben(state)
    assert "victory" not in kinds(events)
    state = play_state(state, "end Ann", "end Cid")  # Ben's turn is lost: round 2 begins
    assert state.round == 2 and state.turn.leader == "Ann"
    assert state.order == ("Ann", "Cid", "Ben")
    state = play_state(state, "end Ann")
    state, events = play(state, "end Cid")
    assert kinds(events) == ["turn_changed", "respawn"]
    assert events[1].data == {"leader": "Ben", "tile": "rift"}
    ben = seat(state, "Ben")
    assert ben.pos == (0, 0) and ben.health == 5 and len(ben.hand) == 5
    assert state.turn.deploying
    assert refusal(state, "check Ben tide").code == "deploying"
    unit = next(c for c in ben.hand if c in ("runner", "drone-swarm", "deva-adept"))
    state = play_state(state, f"deploy Ben {unit}", "ready Ben", "check Ben tide")
    assert [u.card for u in seat(state, "Ben").group] == [unit]


def test_respawn_goes_to_the_lowest_adjacent_free_tile_when_the_rift_is_taken():
    """infinities-defiance-of-fate.md "8.6 - Defeat and Respawn": place your pawn in the Rift
    (or the lowest adjacent unoccupied tile)."""
    state = _three_player_game()
    state, _ = _defeat_ben(state)
    state = with_seat(state, replace(seat(state, "Cid"), pos=(0, 0)))
    state = play_state(state, "end Ann", "end Cid", "end Ann")
    state, events = play(state, "end Cid")
    assert events[1].data == {"leader": "Ben", "tile": "scrap-dunes"}  # 1 beats Moon Well 2


def test_concede_only_at_the_beginning_of_a_turn_and_stay_out():
    """infinities-defiance-of-fate.md "8.6 - Defeat and Respawn": you may concede at the
    beginning of any player's turn; stay out of the game until it ends."""
    state = _three_player_game()
    state = play_state(state, "check Ann tide")
    state = play_state(state, "roll T T T T")
    assert refusal(state, "concede Cid").code == "not_turn_start"
    state = play_state(state, "lock Ann", "end Ann")
    state, events = play(state, "concede Ann")
    assert kinds(events) == ["defeat"]
    assert seat(state, "Ann").status == "conceded" and state.order == ("Cid", "Ben")
    state = play_state(state, "end Cid", "end Ben")
    assert state.order == ("Cid", "Ben") and state.turn.leader == "Cid"
