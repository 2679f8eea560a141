"""Setup (rulebook section 3) and turn order."""

from __future__ import annotations

from companion.games.core import CHANCE
from companion.games.defiance.state import seat
from tests.games.defiance.helpers import (
    GAME,
    deck_order,
    kinds,
    play,
    play_state,
    refusal,
    rules,
    started,
)


def _shuffled():
    state = GAME.initial_state(rules())
    for faction in ("empire", "wardens"):
        state = play_state(state, f"shuffle {faction} {deck_order(state, faction)}")
    return play_state(state, "reveal explorer assassin general seer")


def test_decks_are_shuffled_then_roles_revealed_as_chance():
    """infinities-defiance-of-fate.md "3. Setup" step 2 (shuffled faction decks) and "1.1.2 -
    Quickplay" (only 4 Roles are revealed): both are chance events with the order typed."""
    state = GAME.initial_state(rules())
    assert GAME.current_actor(state) == CHANCE
    assert refusal(state, "shuffle empire runner").code == "not_this_deck"
    state = play_state(state, f"shuffle empire {deck_order(state, 'empire')}")
    state = play_state(state, f"shuffle wardens {deck_order(state, 'wardens')}")
    assert refusal(state, "reveal explorer assassin general seer ruler ruler").code == "bad_reveal"
    state = play_state(state, "reveal explorer assassin general seer")
    assert state.roles == ("explorer", "assassin", "general", "seer")
    assert GAME.current_actor(state) == "Ann"


def test_skirmish_reveals_six_roles():
    """infinities-defiance-of-fate.md "1.1 - Skirmish Mode": reveal 6 Role cards."""
    assert rules("data/games/skirmish.toml").reveal == 6


def test_first_tile_needs_a_clear_path_from_the_rift():
    """infinities-defiance-of-fate.md "3. Setup" step 5: orient the tile so you have a clear
    path. The Worldspine has walls on edges 1 and 4; placed east of the Rift with rotation 5
    its edge 4 faces west (direction 3), towards the Rift."""
    state = _shuffled()
    assert refusal(state, "place Ann worldspine 1,0 5").code == "no_clear_path"
    assert refusal(state, "place Ann worldspine 2,0 0").code == "not_next_to_rift"
    state = play_state(state, "place Ann worldspine 1,0 0")
    assert seat(state, "Ann").pos == (1, 0)
    assert refusal(state, "place Ben worldspine -1,0 0").code == "tile_taken"


def test_turn_order_is_influence_high_to_low_and_announced_with_round_one():
    """infinities-defiance-of-fate.md "3. Setup" step 5: turn order by Influence, highest
    first; the d10 round counter starts the round."""
    state = play_state(_shuffled(), "place Ann scrap-dunes 1,0 0")
    state, events = play(state, "place Ben worldspine -1,0 0")
    assert state.order == ("Ben", "Ann")
    assert kinds(events) == ["turn_order", "round_changed"]
    assert events[0]["order"] == ["Ben", "Ann"] and events[1]["round"] == 1
    assert GAME.current_actor(state) == "Ben"


def test_influence_ties_break_by_tile_name_alphabetically():
    """infinities-defiance-of-fate.md "3. Setup" step 5 (ties broken using alpha order) and
    "8.4 - Targeting Order" (tiles with the same Influence: alphabetical order). Mag Rail and
    Ashen Wilds both have Influence 2: Ashen Wilds goes first."""
    state = play_state(_shuffled(), "place Ann mag-rail 1,0 0", "place Ben ashen-wilds -1,0 0")
    assert state.order == ("Ben", "Ann")


def test_leaders_are_chosen_in_turn_order_and_only_once():
    """infinities-defiance-of-fate.md "3. Setup" step 6: in turn order, players choose a
    leader playmat."""
    state = play_state(_shuffled(), "place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0")
    assert refusal(state, "leader Ben kael").code == "not_your_turn"
    state = play_state(state, "leader Ann aster")
    assert refusal(state, "leader Ben aster").code == "leader_taken"


def test_deploy_draws_five_allows_one_mulligan_and_four_tide_of_units():
    """infinities-defiance-of-fate.md "3. Setup" step 7: draw 5, once discard up to all 5 and
    draw back up to 5, then spend 4 Tide on units; no abilities during setup."""
    state = play_state(_shuffled(), "place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0",
                       "leader Ann aster", "leader Ben kael")
    hand = seat(state, "Ann").hand
    assert len(hand) == 5
    assert refusal(state, "deploy Ann ember-oath").code == "no_abilities_in_setup"
    state = play_state(state, "mulligan Ann ember-oath ember-oath")
    assert len(seat(state, "Ann").hand) == 5
    assert refusal(state, "mulligan Ann acolyte-of-the-sun").code == "mulligan_used"
    state = play_state(state, "deploy Ann acolyte-of-the-sun", "deploy Ann acolyte-of-the-sun")
    assert [u.card for u in seat(state, "Ann").group] == ["acolyte-of-the-sun"] * 2
    assert refusal(state, "deploy Ann acolyte-of-the-sun").code == "not_enough_tide"


def test_the_game_begins_with_the_winner_of_step_five():
    """infinities-defiance-of-fate.md "3. Setup" step 8: begin with the player who won
    step 5."""
    state = started()
    assert state.phase == "turns" and GAME.current_actor(state) == "Ann"
    assert state.round == 1


def test_turn_order_is_rearranged_by_influence_at_the_start_of_each_round():
    """infinities-defiance-of-fate.md "2.5 - Setting Tiles": at the start of each round,
    arrange one number token per player from highest to lowest Influence."""
    from tests.games.defiance.helpers import locked

    state = play_state(started(), "end Ann")
    state = locked(state, "F F F F", "fortitude")
    # Influence 5, before "Worldspine"
    state = play_state(state, "move Ben -1,1 discover deva-core 0")
    state, events = play(state, "end Ben")
    assert kinds(events) == ["round_changed", "turn_order", "turn_changed"]
    assert events[1]["order"] == ["Ben", "Ann"] and state.turn.leader == "Ben"
