"""Infinidungeon's room, dice tray and advisor on screen (rulebook: infinidungeon.md).

Issue 15: every monster of the room shows while a reroll is chosen (the Armoury's orc was
cut off); dice values read dark on the off-white dice, also while they are assigned; the
advisor speaks in words ("Chance you win this room" / "Keep all: 100 %"), lists its choices
best first with Keep all, opens at the top, and is translated.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.app import theme
from companion.games.infinidungeon import advise
from tests.app.fit import clipped_labels
from tests.app.harness import AppDriver, close_to, go_home, start_game, too_small_buttons

pytestmark = pytest.mark.gui

SETUP = ("shuffle crypt den armoury library shrine throne spring hall", "go north",
         "roll 3 3 4 4 1")
"""Typed as the physical deck and dice gave them: into the Armoury (goblin 1-3, orc 4-5),
five dice rolled against its two monsters."""


def _to_the_armoury_fight(driver: AppDriver) -> None:
    start_game(driver, "Infinidungeon")
    for action in SETUP:
        verdict = driver.app.propose(action, "typed")
        assert verdict.legal, verdict.reason
    driver.frames(3)


def _die_contrast(image: np.ndarray, die) -> float:  # type: ignore[no-untyped-def]
    """The luminance gap between the die's face and its digit (0-255)."""
    x, y = die.to_window(die.x, die.y)
    top = image.shape[0] - int(y + die.height)
    box = image[top + 10:top + int(die.height) - 20, int(x) + 10:int(x + die.width) - 10]
    luminance = box.astype(float) @ np.array([0.299, 0.587, 0.114])
    return float(np.percentile(luminance, 95) - np.percentile(luminance, 3))


def test_every_monster_shows_and_the_advisor_speaks_in_words(driver: AppDriver) -> None:
    """infinidungeon.md "Facing the Room": "roll however many dice you have remaining, then
    reroll as many of those dice as you like"; the advisor's exact odds of beating the
    room, best first, with Keep all."""
    _to_the_armoury_fight(driver)
    session = driver.app.table.session
    assert session is not None and session.state.phase == "fight_reroll"
    screen = driver.screen
    image = driver.screenshot("infinidungeon_reroll_words")
    assert "goblin" in screen.monsters_text and "orc" in screen.monsters_text
    assert clipped_labels(screen) == []
    monsters = screen.ids.monsters_label
    scroll = screen.ids.details_scroll
    assert monsters.height <= scroll.height, "both monsters in view without scrolling"
    panel = driver.widget("panel")
    advice = advise(session.state)
    assert advice is not None
    assert panel.headline == "Chance you win this room, best first"
    buttons = list(reversed(panel.ids.actions.children))
    assert [b.action for b in buttons] == [c.reroll_text for c in advice.choices]
    assert buttons[0].text.endswith(" %") and "P(defeat)" not in buttons[0].text
    keep = next(b for b in buttons if b.action == "reroll none")
    assert keep.text.startswith("Keep all: ")
    assert panel.ids.action_scroll.scroll_y == 1, "the list opens at its top"
    assert too_small_buttons(driver) == []
    dice = list(reversed(screen.ids.dice.children))
    assert [int(d.text) for d in dice] == list(session.state.rolled)
    assert all(_die_contrast(image, die) > 120 for die in dice), "digits read on the dice"
    assert screen.odds_text.startswith("Marked (Keep all): you win this room: ")
    assert screen.ids.reroll_button.disabled, "nothing marked: Keep all, not Reroll"
    driver.tap(dice[0])
    driver.tap(dice[4])
    assert screen.marked_positions() == {1, 5}
    assert screen.odds_text.startswith("Marked (Reroll 1 5): you win this room: ")
    image = driver.screenshot("infinidungeon_reroll_marked")
    assert close_to(driver.pixel_of(image, dice[0], dx=-24, dy=20), theme.ACCENT, 20)
    assert not close_to(driver.pixel_of(image, dice[1], dx=-24, dy=20), theme.ACCENT, 20)
    assert [d.children[0].text for d in dice[:3]] == ["R", "", ""], "a letter, not only colour"
    panel.ids.action_scroll.scroll_y = 0  # the player scrolled down the choices
    driver.tap(screen.ids.reroll_button)
    assert session.history[-1] == "reroll 1 5"
    assert session.is_chance(), "the rerolled dice's values are awaited"
    assert driver.app.propose("roll 2 6", "typed").legal
    driver.frames(3)
    assert panel.ids.actions.children, "the assignments are listed"
    assert panel.ids.action_scroll.scroll_y == 1, "a new list opens at its top"


def test_dice_read_while_assigning(driver: AppDriver) -> None:
    """infinidungeon.md "Facing the Room": dice are assigned to the monsters they beat; the
    values stay dark on light while the dice cannot be tapped."""
    _to_the_armoury_fight(driver)
    session = driver.app.table.session
    assert session is not None
    driver.tap(driver.screen.ids.keep_all_button)
    assert session.history[-1] == "reroll none"
    assert session.state.phase == "assign"
    screen = driver.screen
    dice = list(reversed(screen.ids.dice.children))
    assert dice and all(d.disabled for d in dice)
    image = driver.screenshot("infinidungeon_assign_dice")
    assert all(_die_contrast(image, die) > 120 for die in dice)
    assert screen.ids.choose_box.parent is None, "no reroll buttons while assigning"
    assert clipped_labels(screen) == []


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_advisor_in_spanish_and_russian(driver: AppDriver, lang: str) -> None:
    """The advisor's heading, choices and Keep all come from the catalogue; nothing clips."""
    try:
        driver.app.set_language(lang)
        _to_the_armoury_fight(driver)
        panel = driver.widget("panel")
        tr = driver.app.tr
        assert panel.headline == tr("dungeon.advice_fight")
        keep = next(b for b in panel.ids.actions.children if b.action == "reroll none")
        assert keep.text.startswith(tr("dungeon.keep_all") + ": ")
        driver.screenshot(f"infinidungeon_reroll_{lang}")
        assert clipped_labels(driver.screen) == []
        assert too_small_buttons(driver) == []
    finally:
        driver.app.set_language("en")
        driver.frames(2)
        go_home(driver)


def test_the_camera_line_shows_whole_in_russian(driver: AppDriver) -> None:
    """While dice are due the camera row says what was read; in Russian that sentence takes
    several lines, and the row grows instead of cutting it."""
    try:
        driver.app.set_language("ru")
        start_game(driver, "Infinidungeon")
        for action in SETUP[:2]:
            assert driver.app.propose(action, "typed").legal
        driver.frames(3)
        screen = driver.screen
        assert screen.dice_due == 5 and screen.ids.camera_row.parent is not None
        screen.camera_text = driver.app.tr("camera.read_result", faces="3 3 4 4 1")
        driver.frames(4)
        driver.screenshot("infinidungeon_camera_line_ru")
        assert screen.ids.camera_row.height > 56
        assert clipped_labels(screen) == []
    finally:
        driver.app.set_language("en")
        driver.frames(2)
        go_home(driver)
