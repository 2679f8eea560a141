"""Infinidungeon's dice tray and advisor on screen (rulebook: infinidungeon.md)."""

from __future__ import annotations

import random

import pytest

from companion.app import theme
from companion.games.infinidungeon import advise
from tests.app.harness import AppDriver, close_to, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def test_tap_dice_to_choose_the_reroll_with_the_advisors_odds(driver: AppDriver) -> None:
    """infinidungeon.md "Facing the Room": "roll however many dice you have remaining, then
    reroll as many of those dice as you like" - chosen by tapping dice on the tray."""
    start_game(driver, "Infinidungeon")
    session = driver.app.table.session
    assert session is not None
    rng = random.Random(1)
    for _ in range(60):
        if session.state.phase in ("fight_reroll", "trap_reroll"):
            break
        panel = driver.widget("panel")
        if panel.mode == "chance":
            driver.tap(panel.ids.roll_button)
        else:
            buttons = list(reversed(panel.ids.actions.children))[:4]
            driver.tap(rng.choice(buttons))
    state = session.state
    assert state.phase in ("fight_reroll", "trap_reroll")
    screen = driver.screen
    dice = list(reversed(screen.ids.dice.children))
    assert [int(d.text) for d in dice] == list(state.rolled)
    advice = advise(state)
    assert advice is not None
    assert screen.odds_text.splitlines()[1] == f"1. {advice.best.describe()}"
    driver.tap(dice[0])
    driver.tap(dice[2])
    assert screen.marked_positions() == {1, 3}
    image = driver.screenshot("infinidungeon_reroll_marked")
    assert close_to(driver.pixel_of(image, dice[0], dx=-24, dy=20), theme.ACCENT, 20)
    assert not close_to(driver.pixel_of(image, dice[1], dx=-24, dy=20), theme.ACCENT, 20)
    assert [d.children[0].text for d in dice[:3]] == ["R", "", "R"], "a letter, not only colour"
    assert too_small_buttons(driver) == []
    driver.tap(screen.ids.reroll_button)
    assert session.history[-1] == "reroll 1 3"
    assert session.is_chance(), "the rerolled dice's values are awaited"
