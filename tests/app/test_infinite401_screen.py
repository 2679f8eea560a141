"""401 Infinite's board on screen (rulebook: 401-infinite.md)."""

from __future__ import annotations

import pytest

from companion.app import theme
from companion.app.views.infinite401_view import move_targets
from companion.app.widgets.board401 import SIDE_COLOURS, TARGET
from tests.app.harness import AppDriver, close_to, start_game

pytestmark = pytest.mark.gui


def _pixel(driver: AppDriver, image, space, dx: float = 0.0):  # type: ignore[no-untyped-def]
    board = driver.widget("board")
    x, y = board.space_window_pos(space)
    x += dx * board.cell_size()
    return tuple(int(v) for v in image[image.shape[0] - 1 - int(y), int(x)])


def test_select_a_unit_see_its_moves_and_move_by_touch(driver: AppDriver) -> None:
    """401-infinite.md movement: a unit moves to a space its move reaches; the screen shows
    those spaces once the unit is tapped, and a tap on one proposes the move."""
    start_game(driver, "401 Infinite")
    session = driver.app.table.session
    assert session is not None
    for _ in range(6):
        if not session.is_chance():
            break
        driver.tap(driver.widget("panel").ids.roll_button)
    state = session.state
    side = state.to_move
    unit = next(u for u in state.units if u.side == side and u.space is not None)
    board = driver.widget("board")
    driver.tap_at(*board.space_window_pos(unit.space))
    assert board.selected == unit.name
    legal = [session.game.format_action(a) for a in session.legal_actions()]
    reach = move_targets(legal, side, unit.name)
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
    assert session.history[-1].startswith(f"move {side} {unit.name} ")
    assert session.state.unit(unit.name).space == target
