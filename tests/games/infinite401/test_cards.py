"""Card files: the shipped default set and the checker's refusals."""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinite401.cardset import load_cards
from tests.games.infinite401.helpers import DEFAULT_CARDS


def test_default_set_has_serration_and_chainbind_for_each_side() -> None:
    """401-infinite.md "TURNS / ACTIONS" and "PLAYING ABILITIES" examples name "Serration"
    and "Chainbind"; each side has a deck of ability cards and passives (Competitor's Start
    needs 8 cards and 1 passive)."""
    cards = load_cards("default.toml", DEFAULT_CARDS)
    for side in ("blue", "red"):
        assert {"Serration", "Chainbind"} <= set(cards.deck(side))
        assert len(cards.deck(side)) >= 8
        assert cards.passives_of(side)
    types = {card.type for card in cards.abilities}
    assert types == {"attack", "defense", "utility"}


def test_default_passives_include_some_with_effect_text_and_some_without() -> None:
    """401-infinite.md "PASSIVES": some passives have Effect Text, some do not."""
    cards = load_cards("default.toml", DEFAULT_CARDS)
    with_text = [p.name for p in cards.passives if p.has_effect_text]
    without = [p.name for p in cards.passives if not p.has_effect_text]
    assert with_text and without


def test_default_set_uses_every_status_and_positional() -> None:
    """The issue's reference-sheet terms: every status effect and positional is on a card."""
    cards = load_cards("default.toml", DEFAULT_CARDS)
    effects = [e for card in cards.abilities for e in card.effects]
    assert {e.status for e in effects if e.kind == "status"} == {
        "grounded", "silenced", "slowed", "stunned", "untargetable"}
    assert {e.to for e in effects if e.moves_a_unit} == {
        "in-front", "behind", "adjacent", "away", "toward"}
    assert {e.kind for e in effects} >= {"damage", "shield"}


def test_range_is_read_relative_to_the_source_with_forward_up() -> None:
    """docs/401-infinite.md "Card files": a range map's S is the source, up is forward."""
    cards = load_cards("default.toml", DEFAULT_CARDS)
    assert cards.ability("Lunge").range == {(0, 2), (0, 3)}
    assert cards.ability("Strike").range == {(0, 1), (1, 0), (-1, 0), (0, -1)}


CARD = """
[[abilities]]
name = "Poke"
type = "attack"
range = '''
x
S
'''
effects = [{ damage = 1 }]
"""


@pytest.mark.parametrize(("change", "where", "words"), [
    (lambda t: t.replace('"attack"', '"heal"'), "abilities[0].type", "not attack"),
    (lambda t: t.replace("x\nS", "x\nx"), "abilities[0].range", "exactly one 'S'"),
    (lambda t: t.replace("x\nS", "x\nS\nS"), "abilities[0].range", "exactly one 'S'"),
    (lambda t: t.replace("x\nS", "o\nS"), "abilities[0].range line 1", "unknown character"),
    (lambda t: t.replace("{ damage = 1 }", '{ status = "frozen" }'),
     "abilities[0].effects[0]", "grounded"),
    (lambda t: t.replace("{ damage = 1 }", "{ damage = 9 }"), "abilities[0].effects[0]",
     "from 1 to 3"),
    (lambda t: t.replace("{ damage = 1 }", '{ place = "target", at = "left" }'),
     "abilities[0].effects[0]", "in-front, behind, adjacent"),
    (lambda t: t.replace("{ damage = 1 }", '{ move = "target", to = "away", of = "target" }'),
     "abilities[0].effects[0]", "of itself"),
    (lambda t: t.replace('name = "Poke"', 'name = "Two words"'), "abilities[0].name",
     "one word"),
    (lambda t: t + t, "abilities[1].name", "already used"),
    (lambda t: t.replace('"attack"', '"attack"\nself_targetable = true'),
     "abilities[0].self_targetable", "only a defense card"),
    (lambda t: t.replace('type = "attack"', 'type = "utility"\ntarget_colour = "own"'),
     "abilities[0].range", "no range"),
    (lambda t: t.replace('type = "attack"\nrange = \'\'\'\nx\nS\n\'\'\'',
                         'type = "utility"\ntarget_colour = "own"').replace(
        "{ damage = 1 }", '{ move = "target", to = "away" }'),
     "abilities[0].effects[0]", "need a source"),
    (lambda t: t.replace('type = "attack"\nrange = \'\'\'\nx\nS\n\'\'\'',
                         'type = "utility"\ntarget_colour = "red"'),
     "abilities[0].target_colour", "'own' or 'opponent'"),
    (lambda t: t + '[[passives]]\nname = "Lazy"\n', "passives[0]", "needs movement_bonus"),
    (lambda t: t + '[[passives]]\nname = "Ow"\neffects = [{ damage = 1 }]\n',
     "passives[0].effects[0]", "cannot deal damage"),
    (lambda t: t.replace('name = "Poke"', 'name = "Poke"\ndecks = ["green"]'),
     "abilities[0].decks", "blue, red"),
])
def test_the_card_checker_names_the_file_the_key_and_the_problem(change, where,
                                                                   words) -> None:
    """docs/401-infinite.md "Card files": every rule of the format is checked; a bad file is
    refused naming the file, the key path and what is wrong."""
    with pytest.raises(SetupError) as error:
        load_cards("bad-cards.toml", change(CARD))
    assert error.value.source == "bad-cards.toml"
    assert error.value.where == where
    assert words in error.value.problem
