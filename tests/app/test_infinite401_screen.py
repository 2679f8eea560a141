"""401 Infinite's board on screen (rulebook: 401-infinite.md).

Issue 15: at 800x480 every space is at least 48 px, coordinates run along the edges, unit
names and indicator readings are at least 12 px, the header counts turns from 1 and names
no side before the coin flip, and the hand of the side to act shows each card's text.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.app import theme
from companion.app.views.infinite401_view import move_targets
from companion.app.widgets.board401 import REFUSED_LINE, SIDE_COLOURS, TARGET
from companion.games.infinite401.board import space_name
from companion.games.infinite401.targeting import drawn_line
from companion.session import Verdict
from tests.app.fit import clipped_labels
from tests.app.harness import AppDriver, close_to, go_home, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def _pixel(driver: AppDriver, image, space, dx: float = 0.0):  # type: ignore[no-untyped-def]
    board = driver.widget("board")
    x, y = board.space_window_pos(space)
    x += dx * board.cell_size()
    return tuple(int(v) for v in image[image.shape[0] - 1 - int(y), int(x)])


def _start_and_flip(driver: AppDriver) -> None:
    start_game(driver, "401 Infinite")
    session = driver.app.table.session
    assert session is not None
    screen = driver.screen
    assert screen.turn_text.startswith("Setup: ") and "to act" not in screen.turn_text
    for _ in range(6):
        if not session.is_chance():
            break
        driver.tap(driver.widget("panel").ids.roll_button)


def test_select_a_unit_see_its_moves_and_move_by_touch(driver: AppDriver) -> None:
    """401-infinite.md movement: a unit moves to a space its move reaches; the screen shows
    those spaces once the unit is tapped, and a tap on one proposes the move."""
    _start_and_flip(driver)
    session = driver.app.table.session
    assert session is not None
    state = session.state
    side = state.to_move
    assert driver.screen.turn_text.startswith(f"Turn 1 · {side.title()} to act · ")
    assert driver.widget("panel").headline == f"{side.title()} to play"
    unit = next(u for u in state.units if u.side == side and u.space is not None)
    board = driver.widget("board")
    assert board.cell_size() >= 48, "every space is a fingertip's target at 800x480"
    driver.tap_at(*board.space_window_pos(unit.space))
    assert board.selected == unit.name
    reach = move_targets(list(session.legal_actions()), side, unit.name)
    assert reach
    image = driver.screenshot("infinite401_unit_selected")
    target = sorted(reach)[0]
    assert close_to(_pixel(driver, image, target, dx=0.3), TARGET, 20)
    assert close_to(_pixel(driver, image, unit.space, dx=0.25), SIDE_COLOURS[side], 30)
    wall = next(iter(state.setup.board.walls))
    driver.tap_at(*board.space_window_pos(wall))
    image = driver.screenshot("infinite401_refused")
    assert not driver.app.banner.legal and driver.app.banner.rule.startswith("401")
    assert close_to(driver.pixel_of(image, driver.app.banner, dx=driver.app.banner.width / 2
                                    - 20), theme.REFUSED, 12)
    driver.tap_at(*board.space_window_pos(unit.space))
    driver.tap_at(*board.space_window_pos(target))
    assert session.history[-1] == f"move {side} {unit.name} {space_name(target)}"
    assert session.state.unit(unit.name).space == target


def test_readable_board_with_coordinates(driver: AppDriver) -> None:
    """401-infinite.md "Board files": columns a-g, rows 1-9; the screen prints them along
    the board's edges, and the texts on units are no smaller than 12 px."""
    _start_and_flip(driver)
    board = driver.widget("board")
    image = driver.screenshot("infinite401_board")
    assert min(board.text_sizes.values()) >= 12
    size = board.cell_size()
    for space in ((0, 0), (6, 8), (3, 4)):  # the label strip beside each edge space has ink
        x, y = board.space_window_pos(space)
        if board.turned:
            left = board.to_window(board.x, 0)[0]
            strip = image[image.shape[0] - 1 - int(y + 6):image.shape[0] - 1 - int(y - 6),
                          int(left) + 2:int(x - size / 2) - 1]
            lit = (strip.mean(axis=2) > 150).sum()
            assert lit > 8, f"no column letter beside {space_name(space)}"
    assert too_small_buttons(driver) == []
    assert clipped_labels(driver.screen) == []


def test_the_hand_of_the_side_to_act_with_card_texts(driver: AppDriver) -> None:
    """401-infinite.md cards: the side to act holds a hand; the Hand tab lists each card
    with its reference text, and opens at its top."""
    _start_and_flip(driver)
    session = driver.app.table.session
    assert session is not None
    state = session.state
    screen = driver.screen
    hand = state.side_cards(state.to_move).hand
    assert screen.ids.hand_tab.text == f"Hand ({len(hand)})"
    driver.tap(screen.ids.hand_tab)
    assert screen.ids.panel.parent is None and screen.ids.hand_panel.parent is not None
    image = driver.screenshot("infinite401_hand")
    for name in hand:
        card = state.setup.cards.ability(name)
        assert f"[b]{card.name}[/b] ({card.type}): {card.text}" in screen.hand_text
    assert clipped_labels(screen) == []
    assert "hand 4 · stack 7" in screen.sides_text, "cards per side head the Hand tab"
    label = screen.ids.sides_label
    assert screen.ids.hand_scroll.scroll_y == 1
    top_x, top_y = label.to_window(label.x + 20, label.top - 12)
    row = image.shape[0] - 1 - int(top_y)
    strip = image[row - 8:row + 8, int(top_x):int(top_x) + 200]
    assert (strip.mean(axis=2) > 120).sum() > 20, "the tab's first line is on screen"
    driver.tap(screen.ids.actions_tab)
    assert screen.ids.panel.parent is not None


def test_a_refused_line_is_drawn_on_the_board(driver: AppDriver) -> None:
    """401-infinite.md "Straight lines": a target is invalid when the line hits a wall. A
    refusal carrying the tested line (the engine's ``drawn_line`` params and the blocking
    ``space``) shows it on the board."""
    _start_and_flip(driver)
    session = driver.app.table.session
    assert session is not None
    table = driver.app.table
    params = {**drawn_line((1, 4), (1, 7)), "space": "b6"}  # the engine's own params
    assert params["line_spaces"] == ["b6", "b7"]
    table.last_verdict = Verdict("play blue Lunge B1 R1", False, (), "line_hits_wall",
                                 "the straight line from B1 to R1 hits the wall on b6",
                                 '401: "Straight lines"', "touch", params=params)
    driver.app.revision += 1
    image = driver.screenshot("infinite401_refused_line")
    x1, y1 = driver.widget("board").space_window_pos((1, 5))
    x2, y2 = driver.widget("board").space_window_pos((1, 6))
    mid = ((x1 + x2) / 2, (y1 + y2) / 2)
    row = image.shape[0] - 1 - int(mid[1])
    patch = image[row - 3:row + 4, int(mid[0]) - 3:int(mid[0]) + 4].reshape(-1, 3)
    red = np.array([round(c * 255) for c in REFUSED_LINE[:3]])
    assert (np.abs(patch.astype(int) - red).max(axis=1) < 40).any(), "the line is drawn"
    table.last_verdict = None
    driver.app.revision += 1


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_401_in_spanish_and_russian_does_not_clip(driver: AppDriver, lang: str) -> None:
    """The turn line, the tabs and the hand's heading come from the catalogue; nothing is
    cut off."""
    try:
        driver.app.set_language(lang)
        start_game(driver, "401 Infinite")
        assert driver.screen.turn_text == driver.app.tr("i401.setup")
        session = driver.app.table.session
        assert session is not None
        while session.is_chance():
            driver.tap(driver.widget("panel").ids.roll_button)
        driver.tap(driver.screen.ids.hand_tab)
        driver.screenshot(f"infinite401_hand_{lang}")
        assert clipped_labels(driver.screen) == []
        driver.tap(driver.screen.ids.actions_tab)
        driver.screenshot(f"infinite401_actions_{lang}")
        assert clipped_labels(driver.screen) == []
    finally:
        driver.app.set_language("en")
        driver.frames(2)
        go_home(driver)
