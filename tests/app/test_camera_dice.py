"""Dice read by the camera, confirmed on screen (issue 7: "the result goes to the engine as a
physical roll, confirmed on screen"; infinidungeon.md "Facing the Room": roll your dice;
issue 13: "the keypad shows the values with each die's crop so a wrong value is spotted and
fixed by touch; a count that differs from the dice the game expects is said plainly")."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.app import theme
from companion.app.camera_dice import dungeon_dice_due
from tests.app.harness import AppDriver, close_to, go_home, start_game, too_small_buttons

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


def _region(image: np.ndarray, widget: object, share: float = 0.6) -> np.ndarray:
    """The screenshot's pixels (RGB) over the middle ``share`` of ``widget``."""
    x, y = widget.to_window(widget.x, widget.y)  # type: ignore[attr-defined]
    w, h = widget.width, widget.height  # type: ignore[attr-defined]
    side = min(w, h) * share
    cx, cy = x + w / 2, y + h / 2
    top = image.shape[0] - int(cy + side / 2)
    return image[top:top + int(side), int(cx - side / 2):int(cx + side / 2)]


def _roll_due(driver: AppDriver) -> object:
    start_game(driver, "Infinidungeon")
    session = driver.app.table.session
    assert session is not None
    _until_dice_are_due(driver)
    return session


def test_each_die_is_shown_with_its_crop_and_fixed_by_a_tap(driver: AppDriver) -> None:
    """Beside the keypad, one tile per die read, left to right: the tile shows that die's
    picture (screenshot pixels match the crop) and its value; a tap on a tile turns its value
    up by one and the keypad's line follows; Enter records the corrected roll."""
    session = _roll_due(driver)
    screen = driver.screen
    driver.tap(screen.ids.read_dice_button)
    keypad = _wait_for_keypad(driver)
    crops = screen.camera_crops
    rolled = [str(v) for v in driver.app.simulated_dice.values]
    tiles = crops.tiles
    assert [t.value for t in tiles] == rolled
    assert crops.header == "Tap a die to change its value"
    shot = driver.screenshot("camera_dice_crops")
    kx = keypad.ids.keypad_keys.to_window(*keypad.ids.keypad_keys.pos)[0]
    for tile, crop in zip(tiles, crops.read.crops, strict=True):
        assert tile.to_window(tile.right, tile.y)[0] <= kx, "the tiles stand beside the keys"
        seen = _region(shot, tile.ids.picture).astype(float)
        side = seen.shape[0]
        h = crop.shape[0]
        middle = crop[int(h * 0.2):int(h * 0.8), int(h * 0.2):int(h * 0.8)]
        expected = cv2.resize(cv2.cvtColor(middle, cv2.COLOR_BGR2RGB), (side, side)).astype(float)
        assert np.abs(seen - expected).mean() < 30, "the tile shows the die's own picture"
    assert too_small_buttons(driver) == []
    driver.tap(tiles[0])
    first = str(int(rolled[0]) % 6 + 1)
    assert tiles[0].value == first
    assert keypad.ids.shown.text == " ".join([first, *rolled[1:]])
    before = len(session.record)
    driver.tap_text("Enter", keypad)
    assert len(session.record) == before + 1
    assert session.record[-1].text == "roll " + " ".join([first, *rolled[1:]])
    assert session.record[-1].source == "camera"


def test_a_missing_die_is_said_plainly(driver: AppDriver, monkeypatch) -> None:
    """A die off the camera's view: "N dice expected, N-1 seen", in red over the tiles and on
    the screen's camera line."""
    session = _roll_due(driver)
    due = dungeon_dice_due(session.state)
    if due < 2:
        pytest.skip("the roll due has a single die")
    tray = driver.app.simulated_dice
    render = tray.frame
    monkeypatch.setattr(tray, "frame", lambda count: render(count - 1))
    screen = driver.screen
    driver.tap(screen.ids.read_dice_button)
    _wait_for_keypad(driver)
    crops = screen.camera_crops
    message = f"{due} dice expected, {due - 1} seen"
    assert crops.header == message
    assert screen.camera_text.startswith(message)
    assert len(crops.tiles) == due - 1
    shot = driver.screenshot("camera_dice_count_mismatch")
    header = crops.ids.header
    red = _region(shot, header, share=1.0).reshape(-1, 3)
    assert any(close_to(tuple(p), theme.REFUSED, 40) for p in red[::3]), "said in red"
    screen.camera_keypad.dismiss()
    driver.frames(3)
