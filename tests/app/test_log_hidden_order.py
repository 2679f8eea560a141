"""Issue 15 item 4: a virtual shuffle's order never shows on the table screen, in the log
either (the banner already hides it); the journal keeps the order for replays."""

from __future__ import annotations

import re

import pytest

from tests.app.harness import AppDriver, start_game

pytestmark = pytest.mark.gui

ROOMS = ("crypt", "den", "armoury", "library", "shrine", "throne", "spring", "hall")


def test_the_log_says_the_deck_was_shuffled_without_its_order(driver: AppDriver) -> None:
    start_game(driver, "Infinidungeon")
    session = driver.app.table.session
    assert session is not None
    verdict = driver.app.roll()                       # the companion shuffles the room deck
    assert verdict.legal and verdict.action.startswith("shuffle ")
    assert sum(room in verdict.action for room in ROOMS) >= 6, "the journal has the order"
    driver.tap(driver.widget("log_button"))
    driver.frames(3)
    row = driver.screen.shown_rows()[0]
    assert "order hidden" in row.action
    shown = set(re.findall(r"[a-z]+", f"{row.action} {row.detail}".lower()))
    assert not shown & set(ROOMS), shown
    driver.screenshot("log_shuffle_order_hidden")
