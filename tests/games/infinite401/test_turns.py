"""Starting the game (Quick Start, Competitor's Start) and the flow of turns and cards."""

from __future__ import annotations

import random

from companion.games.core import CHANCE
from companion.games.infinite401 import GAME
from companion.games.infinite401.cardset import load_cards
from tests.games.infinite401.helpers import DEFAULT_CARDS, new_game, play, refusal, started

DECK = load_cards("default", DEFAULT_CARDS).deck("blue")
EIGHT = "Serration Chainbind Strike Shockwave Lunge Guard Escort Hex"


def test_quick_start_shuffles_deals_four_face_up_and_flips_a_coin() -> None:
    """401-infinite.md "STARTING THE GAME" Quick Start: shuffle, draw 4 face up, passives
    aside, flip a coin for the first turn. Shuffle and flip are chance actions whose result is
    in the action text."""
    state = new_game()
    assert GAME.current_actor(state) == CHANCE
    shuffle = GAME.sample_chance(state, random.Random(7))
    assert sorted(str(shuffle).split()[2:]) == sorted(DECK)
    state = GAME.apply(state, shuffle).state
    blue = state.side_cards("blue")
    assert blue.hand == shuffle.order[:4] and blue.stack == shuffle.order[4:]
    assert blue.passive == ""
    state = GAME.apply(state, GAME.sample_chance(state, random.Random(1))).state
    assert [str(a) for a in GAME.legal_actions(state)] == ["flip blue", "flip red"]
    state, _ = play(state, "flip red")
    assert GAME.current_actor(state) == "red" and state.actions_left == 2


def test_a_shuffle_must_list_every_card_of_the_stack_once() -> None:
    """401-infinite.md "STARTING THE GAME" Quick Start step 1: the whole side's cards are
    shuffled into the Stack."""
    error = refusal(new_game(), "shuffle blue Strike Guard")
    assert error.code == "not_a_shuffle" and "Quick Start" in str(error.rule)
    assert refusal(new_game(), "flip blue").code == "setup_step_due"


def test_competitors_start_deck_passive_hand_and_blue_first_with_one_action() -> None:
    """401-infinite.md "STARTING THE GAME" Competitor's Start: 8 cards and 1 passive, 4 of them
    as hand, the other 4 as stack; Blue always goes first with only 1 action."""
    state = new_game(start="competitor")
    assert GAME.current_actor(state) == "blue"
    decks = GAME.legal_actions(state)
    assert len(decks) == 165 * 3 and [str(a) for a in decks] == sorted(str(a) for a in decks)
    state, _ = play(state, f"deck blue {EIGHT} passive Bulwark",
                    f"deck red {EIGHT} passive Fleetfoot", "hand blue Strike Guard Hex Lunge",
                    "hand red Serration Chainbind Escort Shockwave")
    assert state.side_cards("blue").stack == ("Serration", "Chainbind", "Shockwave", "Escort")
    assert len(GAME.legal_actions(state)) == 24  # the 4-card stack's orders are listed
    state, _ = play(state, "shuffle blue Escort Serration Chainbind Shockwave",
                    "shuffle red Strike Lunge Guard Hex")
    assert state.to_move == "blue" and state.actions_left == 1
    assert state.side_cards("blue").stack == ("Escort", "Serration", "Chainbind", "Shockwave")
    state, _ = play(state, "move blue B1 c2")
    assert refusal(state, "move blue B1 c3").code == "no_actions_left"
    state, _ = play(state, "end blue")
    assert state.actions_left == 2


def test_competitors_start_choices_are_checked() -> None:
    """401-infinite.md "STARTING THE GAME" Competitor's Start: 8 Ability Cards and 1 Passive."""
    state = new_game(start="competitor")
    error = refusal(state, "deck blue Strike Guard passive Bulwark")
    assert error.code == "deck_size" and "Competitor's Start" in str(error.rule)
    state, _ = play(state, f"deck blue {EIGHT} passive Bulwark")
    assert refusal(state, "deck blue Strike passive Bulwark").code == "setup_step_due"


def test_turn_end_draws_back_up_to_four() -> None:
    """401-infinite.md "CARD FLOW": at the end of your turn draw from the top of your Stack to
    refill your Hand with 4 cards."""
    state = started()
    top = state.side_cards("blue").stack[:2]
    state, _ = play(state, "play blue Guard B2 -> B2", "play blue Hex -> R1")
    assert len(state.side_cards("blue").hand) == 2
    state, _ = play(state, "end blue")
    assert state.side_cards("blue").hand == ("Strike", "Escort", *top)


def test_cards_played_last_rotation_return_to_the_bottom_in_play_order() -> None:
    """401-infinite.md "CARD FLOW": at the beginning of your turn remove the cards you played
    last Rotation from the Field and return them to the bottom of your Stack."""
    state, _ = play(started(), "play blue Guard B2 -> B2", "play blue Hex -> R1", "end blue")
    assert [e.card for e in state.field] == ["Guard", "Hex"]
    state, _ = play(state, "end red")
    assert state.field == () and state.side_cards("blue").stack[-2:] == ("Guard", "Hex")


def test_cycling_discards_to_the_bottom_draws_one_and_costs_an_action() -> None:
    """401-infinite.md "PLAYING ABILITIES": Cycle puts a card at the bottom of your Stack and
    Draws a new one; it uses 1 Action."""
    state = started()
    top = state.side_cards("blue").stack[0]
    state, _ = play(state, "cycle blue Hex")
    cards = state.side_cards("blue")
    assert cards.hand == ("Strike", "Guard", "Escort", top) and cards.stack[-1] == "Hex"
    assert state.actions_left == 1


def test_a_turn_may_end_with_actions_left() -> None:
    """401-infinite.md "TURNS / ACTIONS": up to 2 Actions (zero is allowed)."""
    state, _ = play(started(), "end blue")
    assert state.to_move == "red" and state.turn == 2


def test_the_turn_limit_option_ends_the_game_in_a_draw() -> None:
    """docs/401-infinite.md "Turn limit": a companion option (not a rulebook rule) declaring a
    draw after N turns, used by random playouts."""
    state = new_game(turn_limit=2)
    state, _ = play(state, f"shuffle blue {' '.join(DECK)}", f"shuffle red {' '.join(DECK)}",
                    "flip blue", "end blue")
    assert GAME.outcome(state) is None
    state, _ = play(state, "end red")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == () and outcome.termination == "turn_limit"
