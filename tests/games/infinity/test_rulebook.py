"""What Infinity cites and states about itself: the rulebook's sections, its facts (GameInfo).

Issue 16: ``RuleRef.game == Game.rulebook`` and the file exists in ``shared/rules``; the
players, setup files and shipped setup are stated once, in ``INFO``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.core import RuleRef, SetupError
from companion.games.infinity import GAME, rulebook
from companion.games.infinity.info import INFO
from companion.resources import shipped_sources
from tests.games.infinity.helpers import refusal

RULES = Path(__file__).resolve().parents[3].parent / "shared" / "rules"
SECTIONS = {name: value for name, value in vars(rulebook).items() if isinstance(value, RuleRef)}


def test_every_citation_names_a_section_of_the_rulebook_file() -> None:
    """infinity-n3-intro.md: each section a refusal cites is printed in the rulebook."""
    path = RULES / f"{rulebook.RULEBOOK}.md"
    if not path.exists():
        pytest.skip("shared/rules is not beside the repository")
    text = path.read_text(encoding="utf-8")
    assert GAME.rulebook == rulebook.RULEBOOK == INFO.rulebook
    assert len(SECTIONS) >= 10
    for name, rule in SECTIONS.items():
        assert rule.game == GAME.rulebook, name
        assert rule.section in text, f"{name}: {rule.section!r} is not in {path.name}"


def test_a_refusal_cites_the_rulebook_by_its_file_stem() -> None:
    """infinity-n3-intro.md "MOVE": the refusal names the file the players can open."""
    sources = shipped_sources(INFO.package, INFO.shipped[0].files)
    state = GAME.initial_state(GAME.load_setup(sources, {}))
    error = refusal(state, "move Ann Fusilier 9")
    assert (error.code, str(error.rule)) == ("too_far", 'infinity-n3-intro: "MOVE"')


def test_the_shipped_setup_is_the_two_player_game_info_states() -> None:
    """infinity-n3-intro.md "INFINITY: GAME SUMMARY": two players, each with an Army List."""
    assert GAME.info is INFO
    assert (INFO.players.minimum, INFO.players.maximum, INFO.players.named) == (2, 2, "rename")
    assert [shipped.name for shipped in INFO.shipped] == ["example armies"]
    setup = GAME.load_setup(shipped_sources(INFO.package, INFO.shipped[0].files), {})
    assert INFO.players.accepts(len(setup.players)) and setup.players == ("Ann", "Ben")
    assert {source.role for source in INFO.sources} == set(INFO.shipped[0].files)


def test_an_option_says_the_game_takes_none() -> None:
    """The armies file decides everything ("INFINITY: GAME SUMMARY"); a stray option is an
    error naming it, not a silently different game."""
    sources = shipped_sources(INFO.package, INFO.shipped[0].files)
    with pytest.raises(SetupError) as caught:
        GAME.load_setup(sources, {"rouns": 2})
    assert caught.value.where == "rouns"
    assert "takes no options" in caught.value.problem
