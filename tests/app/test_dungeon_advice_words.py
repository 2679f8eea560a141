"""The Infinidungeon advisor in words (issue 15, item 3), without a window.

Rulebook: infinidungeon.md "Facing the Room" (reroll as many dice as you like) and the trap
doorways (lose each die below the trap's face). The engine's exact odds are worded for the
players: the chance to win the room, or the dice lost on average at a trap, best first, in
the chosen language.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.app.i18n import Translator
from companion.app.views.infinidungeon_view import (
    advice_heading,
    advice_rows,
    marked_odds,
    percent,
)
from companion.games.infinidungeon.advisor import fight_advice, trap_advice
from companion.games.infinidungeon.deck import Monster


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_trap_advice_is_worded_best_first(lang: str) -> None:
    """A trap of face 3 against 1 1 2 2 6: every choice, fewest dice lost on average first,
    "Keep all" among them, under a heading that says what the figures are."""
    tr = Translator(lang).tr
    advice = trap_advice(3, (1, 1, 2, 2, 6))
    rows = advice_rows(advice, tr)
    assert len(rows) == 2 ** 5
    assert [action for _label, action in rows] == [c.reroll_text for c in advice.choices]
    losses = [c.expected_loss for c in advice.choices]
    assert losses == sorted(losses), "best first"
    assert advice_heading(advice, tr) == tr("dungeon.advice_trap")
    keep = dict((action, label) for label, action in rows)["reroll none"]
    assert keep.startswith(tr("dungeon.keep_all") + ": ")
    assert "4" in keep, "keeping 1 1 2 2 loses those four dice"
    assert "P(" not in keep and "expected" not in keep


def test_fight_advice_says_the_chance_to_win() -> None:
    """A bat beaten only by a 6, with 6 and 1 rolled: keeping all wins for sure, and the
    words say so - never "P(defeat)", which read as the chance of losing."""
    tr = Translator("en").tr
    advice = fight_advice((Monster("bat", (6,)),), (6, 1))
    rows = advice_rows(advice, tr)
    assert rows[0] == ("Keep all: 100 %", "reroll none")
    assert advice_heading(advice, tr) == "Chance you win this room, best first"
    # rerolling the 6 leaves the 1: the bat falls only to a fresh 6 (1 in 6)
    assert marked_odds(advice, {1}, tr) == "Marked (Reroll 1): you win this room: 17 %"
    assert percent(Fraction(1, 6)) == "17 %"
