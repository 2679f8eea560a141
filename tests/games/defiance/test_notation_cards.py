"""Notation (docs/defiance.md) and the decks: hand limit and reshuffles (rulebook 4, 8.5, 9)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.core import CHANCE, NotationError
from companion.games.defiance.actions import Move, Roll
from companion.games.defiance.state import HAND_LIMIT, Deck, seat, with_deck, with_seat
from tests.games.defiance.helpers import GAME, locked, play_state, refusal, started


def test_names_are_case_insensitive_and_printed_as_written():
    """docs/defiance.md "Notation": input is case-insensitive, output uses the setup's names
    (engine contract)."""
    state = started()
    action = GAME.parse_action(state, "MOVE ann 2,0 DISCOVER Spire-Temple 0 REGROUP")
    assert action == Move("Ann", (2, 0), discover="spire-temple", rotation=0, regroup=True)
    assert str(action) == "move Ann 2,0 discover spire-temple 0 regroup"
    assert GAME.parse_action(state, "roll t p f 0") == Roll(("T", "P", "F", "0"))


@pytest.mark.parametrize("text, problem", [
    ("dance Ann", "not a Defiance verb"),
    ("lock Ann now", "takes 0"),
    ("move Ann north", "q,r"),
    ("adjust Ann sunlance health 2", "signed"),
    ("check", "who acts"),
])
def test_text_that_is_not_an_action_is_a_notation_error(text, problem):
    """docs/engine-contract.md: NotationError for text that is not an action (invalid), not
    IllegalAction."""
    with pytest.raises(NotationError) as error:
        GAME.parse_action(started(), text)
    assert problem in error.value.problem


def test_every_legal_action_round_trips_and_the_list_is_sorted():
    """docs/engine-contract.md: legal_actions sorted by notation text; parse(str(a)) == a."""
    state = locked(started(), "F P T 0", "fortitude")
    legal = GAME.legal_actions(state)
    texts = [str(a) for a in legal]
    assert texts == sorted(texts) and len(set(texts)) == len(texts)
    assert all(GAME.parse_action(state, t) == a for t, a in zip(texts, legal, strict=True))
    assert "move Ann 2,0 discover spire-temple 0 regroup" in texts
    assert "end Ann" in texts and "gambit Ben" in texts


def test_a_draw_with_ten_cards_in_hand_does_not_happen():
    """infinities-defiance-of-fate.md "4. Turn Actions", Fortitude Actions: your hand limit is
    10 cards; if you would draw while holding 10, do not draw."""
    state = started()
    ann = seat(state, "Ann")
    state = with_seat(state, replace(ann, hand=tuple(sorted(ann.hand + ("pilgrim",) * 5))))
    assert len(seat(state, "Ann").hand) == HAND_LIMIT
    deck_before = next(d for d in state.decks if d.faction == "wardens").cards
    state = locked(state, "F F F F", "fortitude")
    state = play_state(state, "move Ann 0,0 regroup")
    assert len(seat(state, "Ann").hand) == HAND_LIMIT
    assert next(d for d in state.decks if d.faction == "wardens").cards == deck_before


def test_an_empty_deck_is_reset_by_shuffling_its_discard_pile():
    """infinities-defiance-of-fate.md "8.5 - Decks, Piles, and Hands": if a deck runs out of
    cards, shuffle its discard pile to reset the deck; the owed draw follows the shuffle."""
    state = started()
    state = with_deck(state, Deck("wardens", ("pilgrim",), ("sunlance", "mending-light")))
    state = locked(state, "F F F F", "fortitude")
    hand = len(seat(state, "Ann").hand)
    state = play_state(state, "move Ann 0,0 regroup")
    assert len(seat(state, "Ann").hand) == hand + 1
    assert GAME.current_actor(state) == CHANCE
    assert refusal(state, "move Ann 1,0").code == "chance_due"
    state = play_state(state, "shuffle wardens sunlance mending-light")
    state = play_state(state, "move Ann 1,0 regroup")
    assert len(seat(state, "Ann").hand) == hand + 2
    assert next(d for d in state.decks if d.faction == "wardens").cards == ("mending-light",)


def test_draws_owed_by_an_empty_deck_are_made_after_the_shuffle():
    """infinities-defiance-of-fate.md "8.5 - Decks, Piles, and Hands" and "3. Setup" step 7:
    a mulligan draws back up to 5 even when the deck runs out part-way."""
    from tests.games.defiance.helpers import deck_order, rules

    state = GAME.initial_state(rules())
    for faction in ("empire", "wardens"):
        state = play_state(state, f"shuffle {faction} {deck_order(state, faction)}")
    state = play_state(state, "reveal explorer assassin general seer",
                       "place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0",
                       "leader Ann aster", "leader Ben kael")  # Ann's deploy draws her 5
    state = with_deck(state, Deck("wardens", ("pilgrim",), ()))
    state = play_state(state, "mulligan Ann ember-oath ember-oath")
    assert GAME.current_actor(state) == CHANCE and state.owed == (("Ann", 1),)
    state = play_state(state, "shuffle wardens ember-oath ember-oath")
    assert state.owed == () and len(seat(state, "Ann").hand) == 5


def test_die_faces_are_read_in_any_case():
    """docs/defiance.md "Notation": faces T P F 0, case-insensitive on input."""
    state = started()
    assert str(GAME.parse_action(state, "convert ann 2 t")) == "convert Ann 2 T"
    assert str(GAME.parse_action(state, "spend ann ASTER p f")) == "spend Ann aster P F"


@pytest.mark.parametrize("text, problem", [
    ("check Ann banana", "tide, power or fortitude, not 'banana'"),
    ("convert Ann 1 X", "die face"),
    ("spend Ann aster T Q", "die results"),
    ("roll T Z", "die faces"),
    ("effect Ann aster burn 1 Ben", "an effect"),
    ("effect Ann aster draw 1 Ben Ben", "names its choice at each step"),
    ("adjust Ann aster luck +1", "health, tide, power or fortitude"),
    ("adjust Ann aster tide +1 pilgrim", "only health is adjusted on a unit"),
    ("move Ann 1,0 sideways", "not understood"),
    ("flip Ann 0,0 shove 1,0", "flip P q,r [push q,r]"),
    ("prepare Ann pilgrim onto Ben", "not understood"),
    ("prepare Ann pilgrim to", "needs a name"),
    ("play Ann pilgrim free free", "twice"),
])
def test_malformed_arguments_are_notation_errors_naming_the_problem(text, problem):
    """docs/engine-contract.md and issue 16: an argument of the wrong shape (an attribute
    that is none of the three of infinities-defiance-of-fate.md "2.6.1 - Action Checks", a
    face that is not T P F 0, an unknown option) is text that is not an action: a
    NotationError naming the problem, never a refusal citing the rulebook."""
    with pytest.raises(NotationError) as error:
        GAME.parse_action(started(), text)
    assert problem in error.value.problem
    assert text in str(error.value)


@pytest.mark.parametrize("text", [
    "shuffle empire runner runner", "reveal explorer seer", "roll T P F 0", "roll 4",
    "place Ann worldspine 1,0 0", "leader Ann aster", "mulligan Ann pilgrim sunlance",
    "deploy Ann pilgrim", "ready Ann", "check Ann power", "reroll Ann 2", "convert Ann 1 T",
    "lock Ann", "prepare Ann pilgrim to Ben replace sunlance", "play Ann pilgrim",
    "play Ann pilgrim timeline replace pilgrim.2 free", "damage Ann Ben runner",
    "destroy Ann Ben firewall", "cycle Ann pilgrim", "move Ann 2,0 discover sun-road 3 regroup",
    "flip Ann 0,0 push 1,0", "gambit Ben", "score Ann explorer", "progress Ann explorer",
    "claim Ann hold-the-rift", "effect Ann aster damage 2 Ben runner", "step Ann all",
    "step Ann pilgrim sunlance", "block Ben pilgrim sunlance", "resolved Ann sunlance",
    "adjust Ann aster health -2 pilgrim", "adjust Ann aster tide +1", "end Ann", "concede Ben",
    "spend Ann aster P F", "cancel Ben firewall sunlance", "attach Ann sunlance Ben runner",
    "trim Ann sunlance",
])
def test_every_verb_prints_the_line_it_was_read_from(text):
    """docs/defiance.md "Notation": one typed action per verb; str(action) is the notation
    parse_action reads back (docs/engine-contract.md: parse(str(a)) == a)."""
    state = started()
    action = GAME.parse_action(state, text)
    assert action.verb == text.split()[0]
    assert str(action) == text
    assert GAME.parse_action(state, str(action)) == action


def test_options_are_read_in_any_order_and_printed_in_one():
    """docs/defiance.md "Notation": options after the card or space in any order."""
    state = started()
    action = GAME.parse_action(state, "play ann PILGRIM free replace pilgrim.2 timeline")
    assert str(action) == "play Ann pilgrim timeline replace pilgrim.2 free"
    assert GAME.parse_action(state, "move Ann 2,0 regroup discover sun-road 3") == \
        GAME.parse_action(state, "move Ann 2,0 discover sun-road 3 regroup")
