"""Gambits (rulebook 2.6.2), Points, the end of the game and the tie-breaker chain (1.1.1,
1.1.2), and Adventure claims (1.2.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.core import CHANCE
from companion.games.defiance.state import Prepared, Unit, seat, with_seat
from tests.games.defiance.helpers import (
    GAME,
    board,
    deck_order,
    kinds,
    play,
    play_state,
    refusal,
    rules,
    started,
)


def test_gambit_success_climbs_failure_falls_and_level_four_is_permanent():
    """infinities-defiance-of-fate.md "2.6.2 - Gambits": roll a d6; 1-3 moves up a level,
    4-6 moves down one; level 4 is a permanent bonus."""
    state = play_state(started(), "gambit Ann")
    assert GAME.current_actor(state) == CHANCE
    assert [str(a) for a in GAME.legal_actions(state)] == [f"roll {n}" for n in range(1, 7)]
    state = play_state(state, "roll 5")
    assert seat(state, "Ann").gambit == 1
    state = play_state(state, "gambit Ann", "roll 2", "gambit Ann", "roll 6")
    assert seat(state, "Ann").gambit == 1
    state = play_state(state, "gambit Ann", "roll 1", "gambit Ann", "roll 3", "gambit Ann",
                       "roll 3")
    assert seat(state, "Ann").gambit == 4
    assert refusal(state, "gambit Ann").code == "gambit_complete"


def test_gambit_level_survives_defeat():
    """infinities-defiance-of-fate.md "2.6.2 - Gambits": your Gambit level does not change if
    you are defeated."""
    state = play_state(started(), "gambit Ben", "roll 1")
    state = play_state(state, "adjust Ben railgun health -5")
    assert seat(state, "Ben").status == "defeated" and seat(state, "Ben").gambit == 2


def test_scoring_a_role_emits_points_and_each_role_counts_once_per_leader():
    """infinities-defiance-of-fate.md "1.1 - Skirmish Mode": when you complete a Role, place a
    token above its card for 1 Point."""
    state, events = play(started(), "score Ann general")
    assert kinds(events) == ["points_scored"]
    assert events[0].data == {"leader": "Ann", "points": 1, "total": 1}
    assert refusal(state, "score Ann general").code == "role_done"
    assert refusal(state, "score Ann ruler").code == "role_not_revealed"
    state = play_state(state, "score Ben general")
    assert seat(state, "Ben").roles == ("general",)


def test_partial_tokens_track_multi_step_roles():
    """infinities-defiance-of-fate.md "1.1 - Skirmish Mode": track progress toward multi-step
    objectives with number tokens below the Role card. Explorer needs 3 steps."""
    state = play_state(started(), "progress Ann explorer", "progress Ann explorer")
    assert seat(state, "Ann").progress == (("explorer", 2),)
    assert refusal(state, "progress Ann explorer").code == "role_progress"
    state = play_state(state, "score Ann explorer")
    assert seat(state, "Ann").progress == () and seat(state, "Ann").roles == ("explorer",)


def _end_round(state):
    for _ in range(2):
        state = play_state(state, f"end {state.turn.leader}")
    return state


def test_quickplay_ends_at_the_end_of_the_round_in_which_three_points_are_reached():
    """infinities-defiance-of-fate.md "1.1.2 - Quickplay": the endgame triggers at 3 Points;
    "1.1.1": the game ends at the end of that round."""
    state = play_state(started(), "score Ann general", "score Ann seer", "score Ann assassin")
    assert GAME.outcome(state) is None
    state = play_state(state, "end Ann", "score Ben general")
    state, events = play(state, "end Ben")
    assert kinds(events) == ["game_over", "victory"]
    assert events[0].data == {"winners": ["Ann"], "tiebreaker": "points",
                              "termination": "points_target"}
    assert GAME.outcome(state).scores == {"Ann": 3, "Ben": 1}


def test_quickplay_ends_after_round_six():
    """infinities-defiance-of-fate.md "1.1.2 - Quickplay": the endgame triggers at the end of
    round 6."""
    state = started()
    for _ in range(5):
        state = _end_round(state)
    assert state.round == 6 and GAME.outcome(state) is None
    state = _end_round(state)
    assert GAME.outcome(state).termination == "round_limit"
    assert GAME.outcome(state).winners == ("Ann",)  # 0-0: Worldspine 5 beats Scrap Dunes 1
    assert state.result.tiebreaker == "tile_influence"


def _tied(**changes):
    state = play_state(started(), "score Ann general", "score Ben general")
    for name, change in changes.items():
        state = with_seat(state, replace(seat(state, name), **change))
    for _ in range(6):
        state = _end_round(state)
    return state


@pytest.mark.parametrize("changes, step", [
    ({"Ben": {"progress": (("explorer", 1),)}}, "partial_role_tokens"),
    ({"Ben": {"group": (Unit("aegis-mech"),)},
      "Ann": {"group": (Unit("pilgrim"),), "timeline": (Prepared("sunlance", 0),)}},
     "cards_in_play"),
    ({"Ben": {"gambit": 3}}, "gambit_level"),
])
def test_tie_breakers_are_compared_in_order(changes, step):
    """infinities-defiance-of-fate.md "1.1.1 - Object of the Game", Tiebreaker: 1. partial
    role tokens, 2. base cost of cards in play + 1 per prepared card, 3. gambit level,
    4. tile Influence (Ben's cost 3 beats Ann's 1 + 1 prepared)."""
    state = _tied(**changes)
    assert GAME.outcome(state).winners == ("Ben",)
    assert state.result.tiebreaker == step


def test_tile_influence_is_the_last_tie_breaker_then_the_win_is_shared():
    """infinities-defiance-of-fate.md "1.1.1 - Object of the Game", Tiebreaker step 4: tile
    Influence (Ann's Worldspine 5 beats Ben's Scrap Dunes 1); if still tied, the win is
    shared (Ben moved onto the DEVA Core, Influence 5)."""
    state = _tied()
    assert state.result.tiebreaker == "tile_influence"
    assert GAME.outcome(state).winners == ("Ann",)
    state = board(started(), ("deva-core", -2, 0, 0))
    state = with_seat(play_state(state, "score Ann general", "score Ben general"),
                      replace(seat(state, "Ben"), pos=(-2, 0), roles=("general",)))
    for _ in range(6):
        state = _end_round(state)
    assert state.result.tiebreaker == "shared"
    assert GAME.outcome(state).winners == ("Ann", "Ben")


def _teams_game():
    state = GAME.initial_state(rules("data/games/skirmish-teams.toml"))
    for faction in ("empire", "wardens"):
        state = play_state(state, f"shuffle {faction} {deck_order(state, faction)}")
    return play_state(state, "reveal explorer assassin general seer ruler pilgrim",
                      "place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0",
                      "place Cid moon-well 0,1 0", "place Dee mag-rail 0,-1 0",
                      "leader Ann aster", "leader Dee vessa", "leader Cid oru", "leader Ben kael",
                      "ready Ann", "ready Dee", "ready Cid", "ready Ben")


def test_a_two_leader_team_ends_the_game_at_eight_points():
    """infinities-defiance-of-fate.md "1.1.1 - Object of the Game": a 2-leader team reaching
    8 Points ends the game at the end of the round; the team wins together."""
    state = _teams_game()
    roles = ("explorer", "assassin", "general", "seer", "ruler", "pilgrim")
    state = play_state(state, *(f"score Ann {r}" for r in roles))
    state = play_state(state, "score Cid explorer")
    state = play_state(state, "end Ann", "end Dee", "end Cid", "end Ben")
    assert GAME.outcome(state) is None  # 7 Points: not yet
    state = play_state(state, "score Cid assassin", "end Ann", "end Dee", "end Cid", "end Ben")
    assert GAME.outcome(state).winners == ("Ann", "Cid")


def test_adventure_condition_wins_for_the_whole_faction():
    """infinities-defiance-of-fate.md "1.2.2 - Object of the Game": the game ends when a
    condition is fulfilled; all active players who meet it win."""
    state = GAME.initial_state(rules("data/games/adventure.toml"))
    for faction in ("empire", "wardens"):
        state = play_state(state, f"shuffle {faction} {deck_order(state, faction)}")
    state = play_state(state, "place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0",
                       "leader Ann aster", "leader Ben kael", "ready Ann", "ready Ben")
    assert refusal(state, "claim Ann upload-deva").code == "wrong_faction"
    assert refusal(state, "score Ann general").code == "no_roles"
    state, events = play(state, "claim Ben upload-deva")
    assert GAME.outcome(state).winners == ("Ben",)
    assert kinds(events) == ["game_over", "victory"]


def test_adventure_round_limit_ends_without_a_winner():
    """infinities-defiance-of-fate.md "1.2.2 - Object of the Game": the game ends when a
    condition is fulfilled; the chapter's own limit (round 8 in the example) ends it
    otherwise, with no winner."""
    state = GAME.initial_state(rules("data/games/adventure.toml"))
    for faction in ("empire", "wardens"):
        state = play_state(state, f"shuffle {faction} {deck_order(state, faction)}")
    state = play_state(state, "place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0",
                       "leader Ann aster", "leader Ben kael", "ready Ann", "ready Ben")
    for _ in range(8):
        state = _end_round(state)
    assert GAME.outcome(state).winners == ()
    assert GAME.outcome(state).termination == "round_limit"
