"""Dice read by the camera, confirmed on screen (issue 7: "the result goes to the engine as a
physical roll, confirmed on screen"; infinidungeon.md "Facing the Room": roll your dice)."""

from __future__ import annotations

import pytest

from companion.app.camera_dice import dungeon_dice_due
from tests.app.harness import AppDriver, go_home, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def _until_dice_are_due(driver: AppDriver) -> None:
    session = driver.app.table.session
    assert session is not None
    for _ in range(40):
        if dungeon_dice_due(session.state):
            return
        panel = driver.widget("panel")
        if panel.mode == "chance":
            driver.tap(panel.ids.roll_button)
        else:
            driver.tap(panel.ids.actions.children[-1])
    raise AssertionError(f"no dice roll came up (phase {session.state.phase})")


def _wait_for_keypad(driver: AppDriver) -> object:
    for _ in range(500):
        if driver.screen.camera_keypad is not None:
            driver.frames(3)
            return driver.screen.camera_keypad
        driver.wait(0.01)
    raise AssertionError(f"the camera's values never came back: {driver.screen.camera_text!r}")


def test_dice_read_by_the_camera_are_confirmed_then_recorded_as_a_camera_roll(
        driver: AppDriver) -> None:
    """Tap "Read dice from camera": the simulated tray's dice appear on the keypad left to
    right; the player corrects the last die and confirms; the session records the roll with
    source camera, exactly as confirmed."""
    start_game(driver, "Infinidungeon")
    session = driver.app.table.session
    assert session is not None
    _until_dice_are_due(driver)
    screen = driver.screen
    due = dungeon_dice_due(session.state)
    assert screen.ids.read_dice_button.text == "Read dice from camera"
    driver.tap(screen.ids.read_dice_button)
    keypad = _wait_for_keypad(driver)
    rolled = [str(v) for v in driver.app.simulated_dice.values]
    assert len(rolled) == due
    assert keypad.ids.shown.text == " ".join(rolled), "the values read, in the order they lie"
    assert " ".join(rolled) in screen.camera_text
    driver.screenshot("infinidungeon_camera_dice")
    assert too_small_buttons(driver) == []
    corrected = "6" if rolled[-1] != "6" else "5"
    driver.tap_text("delete", keypad)
    driver.tap_text(corrected, keypad)
    assert keypad.ids.shown.text == " ".join([*rolled[:-1], corrected])
    before = len(session.record)
    driver.tap_text("Enter", keypad)
    assert len(session.record) == before + 1
    entry = session.record[-1]
    assert entry.source == "camera"
    assert entry.text == "roll " + " ".join([*rolled[:-1], corrected])
    log_line = driver.app.table.log[-1]
    assert log_line.legal and log_line.source == "camera"


def test_dice_tool_reads_d6_from_the_camera_into_the_entry_to_confirm(
        driver: AppDriver) -> None:
    """Issue 7 "(and any d6 roll)": in the dice tool the camera fills the physical-dice
    entry; Enter shows those faces. Other dice are refused with a sentence."""
    go_home(driver)
    driver.tap(driver.widget("tools_button"))
    screen = driver.screen
    driver.tap(driver.find_button("d20", screen.ids.kinds))
    driver.tap(screen.ids.camera_dice)
    assert screen.result == "The camera reads six-sided dice only"
    driver.tap(driver.find_button("d6", screen.ids.kinds))
    driver.tap(screen.ids.camera_dice)
    for _ in range(500):
        if screen.ids.physical.text:
            break
        driver.wait(0.01)
    rolled = [str(v) for v in driver.app.simulated_dice.values]
    assert len(rolled) == screen.count
    assert screen.ids.physical.text == " ".join(rolled)
    driver.tap(screen.ids.enter_physical)
    assert list(screen.faces) == rolled
