"""Infinity's screen: troopers with Wounds and the exact odds of a declared exchange
(rulebook: infinity-n3-intro.md)."""

from __future__ import annotations

import pytest

from companion.games.infinity.odds_report import declared_odds
from tests.app.harness import AppDriver, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def test_declared_exchange_shows_its_exact_odds_before_the_roll(driver: AppDriver) -> None:
    """infinity-n3-intro.md Face to Face Rolls: the odds of the declared BS Attack against its
    ARO are shown before the dice are rolled, then the roll resolves it."""
    start_game(driver, "Infinity (N3 introductory rules)")
    session = driver.app.table.session
    assert session is not None
    screen = driver.screen
    assert screen.odds_text == ""
    assert "Iguana" in screen.troopers_text and "3/3" in screen.troopers_text
    assert "Spektr" not in screen.troopers_text, "Hidden Deployment is Private Information"
    assert "Hidden Deployment" not in screen.troopers_text, \
        "nothing on the shared screen reveals that a hidden trooper exists"
    panel = driver.widget("panel")
    driver.tap(driver.find_button("shoot", panel))
    driver.tap(panel.ids.actions.children[-1])
    for _ in range(10):
        if session.state.phase == "roll":
            break
        driver.tap(driver.widget("panel").ids.actions.children[-1])
    assert session.state.phase == "roll"
    expected = [line for report in declared_odds(session.state) for line in report.lines()]
    assert expected and screen.odds_text.splitlines() == expected
    driver.screenshot("infinity_declared_odds")
    assert too_small_buttons(driver) == []
    driver.tap(driver.widget("panel").ids.roll_button)
    assert session.record[-1].source == "virtual"
    assert screen.odds_text == "" or session.state.phase == "roll"
