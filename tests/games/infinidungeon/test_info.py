"""Infinidungeon's facts (GameInfo) and its rulebook references (issue 16).

Rulebook: infinidungeon.md "Introduction": a solo game of 9 cards (the Entrance and the room
deck) and 5 dice; the deck decides everything, so the game takes no options.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from companion.games.core import RuleRef, SetupError
from companion.games.infinidungeon import GAME, rulebook
from companion.games.infinidungeon.deck_check import check_deck
from companion.games.infinidungeon.info import INFO
from companion.resources import shipped_sources

RULES = Path(__file__).resolve().parents[3] / ".." / "shared" / "rules"


def test_a_solo_game_whose_deck_file_is_its_only_input() -> None:
    """infinidungeon.md "Introduction": one player, the 9 cards; no option to give."""
    assert GAME.info is INFO and INFO.name == GAME.name == "infinidungeon"
    assert (INFO.players.minimum, INFO.players.maximum, INFO.players.named) == (1, 1, "none")
    assert [source.role for source in INFO.sources] == ["deck"]
    assert INFO.parameters == () and INFO.option_names() == []
    with pytest.raises(SetupError) as refused:
        INFO.check_options({"players": ["Ann"]})
    assert refused.value.where == "players"


def test_every_shipped_setup_loads_and_agrees_with_the_rulebook() -> None:
    """infinidungeon.md "Introduction" and "Flipping Rooms": each shipped deck is a whole,
    consistent deck (the first is the app's and the command line's default)."""
    assert INFO.shipped[0].name == "default deck"
    for shipped in INFO.shipped:
        deck = GAME.load_setup(shipped_sources(INFO.package, shipped.files),
                               dict(shipped.options))
        assert len(deck.cards) == 9 and check_deck(deck) == []


def test_every_citation_names_the_rulebook_file() -> None:
    """Every refusal cites infinidungeon.md: RuleRef.game is the rulebook's file stem."""
    assert GAME.rulebook == rulebook.RULEBOOK == "infinidungeon"
    refs = [value for value in vars(rulebook).values() if isinstance(value, RuleRef)]
    assert len(refs) >= 10 and {ref.game for ref in refs} == {GAME.rulebook}
    if not RULES.is_dir():
        pytest.skip("the shared rulebooks are not beside the repository")
    text = (RULES / f"{GAME.rulebook}.md").read_text(encoding="utf-8")
    for ref in refs:
        assert ref.section.lower() in text.lower(), ref


def test_a_saved_state_reads_back_whole() -> None:
    """The state's JSON (the shared codec) keeps every field, the deck included."""
    state = GAME.initial_state(GAME.load_setup(shipped_sources(
        INFO.package, INFO.shipped[0].files), {}))
    state = GAME.play(state, "shuffle den hall spring crypt armoury library shrine throne",
                      "go east").state
    again = GAME.state_from_json(GAME.state_to_json(state))
    assert again == state
    assert all(getattr(again, f.name) == getattr(state, f.name) for f in fields(state))
