"""The parts every game screen shares, driven by touch on the small Countdown game
(tests/support/countdown.py: a d6 roll, then take 1..roll counters; last counter wins).

Rolls, physical dice, the verdict banner with its rule, the event log and confirmed undo:
a roll made by the companion stands, a mistyped physical roll can be corrected.
"""

from __future__ import annotations

import pytest

from companion.app import theme
from tests.app.harness import AppDriver, close_to, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def _panel(driver: AppDriver):  # type: ignore[no-untyped-def]
    return driver.screen.ids.panel


def _banner_pixel(driver: AppDriver, image):  # type: ignore[no-untyped-def]
    banner = driver.app.banner
    return driver.pixel_of(image, banner, dx=banner.width / 2 - 20)


def test_virtual_roll_stands_and_is_shown_green(driver: AppDriver) -> None:
    """session.py: "A virtual roll cannot be undone (that would let a player roll again for a
    better result)"; the banner shows the verdict (issue 9 "every verdict shown in a banner")."""
    start_game(driver, "Countdown")
    session = driver.app.table.session
    assert session is not None and session.is_chance()
    panel = _panel(driver)
    assert panel.mode == "chance"
    image = driver.screenshot("generic_game_chance")
    assert close_to(driver.pixel_of(image, panel.ids.roll_button, dx=-100), theme.ACCENT, 40)
    driver.tap(panel.ids.roll_button)
    assert session.record[-1].source == "virtual"
    rolled = session.history[-1]
    image = driver.screenshot("banner_accepted")
    assert driver.app.banner.headline == f"Accepted: {rolled}"
    assert close_to(_banner_pixel(driver, image), theme.ACCEPTED, 12)

    driver.tap(driver.widget("log_button"))
    assert driver.screen.name == "log"
    driver.tap(driver.widget("undo_button"))
    image = driver.screenshot("undo_refused_virtual_roll")
    assert session.history[-1] == rolled, "the companion's roll was not taken back"
    assert not driver.app.banner.legal
    assert driver.app.banner.rule == 'companion: "Undo", a virtual roll stands'
    assert close_to(_banner_pixel(driver, image), theme.REFUSED, 12)
    assert too_small_buttons(driver) == []


def test_mistyped_physical_roll_is_corrected_after_confirmation(driver: AppDriver) -> None:
    """A physical roll typed wrong can be undone (with a confirmation), then typed again; an
    impossible face is refused with its rule (countdown "Dice")."""
    start_game(driver, "Countdown")
    session = driver.app.table.session
    assert session is not None
    panel = _panel(driver)
    driver.type_into(panel.ids.physical, "9")
    driver.tap(panel.ids.enter_button)
    image = driver.screenshot("banner_refused")
    assert driver.app.banner.headline == "Refused: roll 9"
    assert driver.app.banner.reason == "A d6 shows 1 to 6."
    assert driver.app.banner.rule == 'countdown: "Dice"'
    assert close_to(_banner_pixel(driver, image), theme.REFUSED, 12)
    assert session.history == []

    driver.type_into(panel.ids.physical, "2")
    driver.tap(panel.ids.enter_button)
    assert session.history == ["roll 2"] and session.record[-1].source == "typed"
    driver.tap(driver.widget("log_button"))
    driver.tap(driver.widget("undo_button"))
    dialog = next(w for w in driver.window.children if type(w).__name__ == "UndoDialog")
    assert dialog.question == "Take back \u201croll 2\u201d?"
    driver.screenshot("undo_confirm")
    driver.tap(dialog.ids.no_button)
    driver.wait(0.3)
    assert session.history == ["roll 2"], "No keeps the action"
    driver.tap(driver.widget("undo_button"))
    dialog = next(w for w in driver.window.children if type(w).__name__ == "UndoDialog")
    driver.tap(dialog.ids.yes_button)
    driver.wait(0.3)
    assert session.history == [] and session.is_chance()
    rows = driver.screen.ids.rows.children
    assert rows[-1].action.startswith("undo roll 2"), "the newest entry is on top"
    driver.screenshot("event_log")
    driver.tap(driver.find_button("<"))
    assert driver.screen.name == "game_countdown"
    driver.tap(_panel(driver).ids.keypad_button)
    keypad = next(w for w in driver.window.children if type(w).__name__ == "DiceKeypad")
    driver.wait(0.3)
    for key in ("4", "delete", "5"):
        driver.tap(driver.find_button(key, keypad))
    assert keypad.text == "5"
    driver.screenshot("dice_keypad")
    driver.tap(driver.find_button("Enter", keypad))
    driver.wait(0.3)
    assert session.history == ["roll 5"] and session.record[-1].source == "typed"


def test_a_whole_game_by_touch_ends_with_the_winner(driver: AppDriver) -> None:
    """Play Countdown to its end with the action buttons and the roll button."""
    start_game(driver, "Countdown")
    session = driver.app.table.session
    assert session is not None
    for _ in range(40):
        panel = _panel(driver)
        if panel.mode == "over":
            break
        if panel.mode == "chance":
            driver.tap(panel.ids.roll_button)
            continue
        buttons = list(reversed(panel.ids.actions.children))
        assert [b.action for b in buttons] == driver.app.table.legal_texts()
        driver.tap(buttons[-1])
    assert session.finished
    winner = session.outcome.winners[0]  # type: ignore[union-attr]
    assert _panel(driver).headline == \
        f"Game over. Winner: {winner}. {winner} took the last counter"
    driver.screenshot("generic_game_over")
