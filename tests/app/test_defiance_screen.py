"""Defiance of Fate's screen (rulebook: infinities-defiance-of-fate.md)."""

from __future__ import annotations

import pytest

from companion.app import theme
from companion.app.dice_tools import DIE_KINDS
from companion.games.defiance.state import track_level
from tests.app.harness import AppDriver, close_to, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def test_action_check_dice_leaders_and_map(driver: AppDriver) -> None:
    """infinities-defiance-of-fate.md "2.6.1 - Action checks" (the dice of the check, by
    attribute colour and face letter) and "2.1" attribute tracks, Health, gambit: as the
    engine has them, on the map's hexes with each leader's pawn."""
    start_game(driver, "Infinities: Defiance of Fate", layout="quickplay (2)")
    session = driver.app.table.session
    assert session is not None
    for _ in range(60):
        state = session.state
        if state.phase == "turns" and state.turn.dice:
            break
        panel = driver.widget("panel")
        if panel.mode == "chance":
            driver.tap(panel.ids.roll_button)
            continue
        if "check" in driver.app.table.actions_by_verb() and panel.verb != "check":
            driver.tap(driver.find_button("check", panel))
        driver.tap(driver.widget("panel").ids.actions.children[-1])
    state = session.state
    assert state.phase == "turns" and state.turn.dice
    screen = driver.screen
    faces = [w.text for w in reversed(screen.ids.dice.children)]
    assert faces == [die.face for die in state.turn.dice]
    image = driver.screenshot("defiance_action_check")
    first = screen.ids.dice.children[-1]
    kind = state.turn.dice[0].kind
    assert close_to(driver.pixel_of(image, first, dx=-16, dy=14),
                    (*DIE_KINDS[kind].colour, 1), 14)
    for seat in state.seats:
        levels = " ".join(f"{a[0].upper()}{track_level(state, seat, a)}"
                          for a in ("tide", "power", "fortitude"))
        assert f"{seat.name} ({seat.leader})  Health {seat.health}  {levels}" \
            in screen.leaders_text
    hexes = screen.ids.map
    for index, seat in enumerate(state.seats):
        x, y = hexes.pawn_window_pos(seat.name)
        pixel = tuple(int(v) for v in image[image.shape[0] - 1 - int(y) - 12, int(x)])
        assert close_to(pixel, theme.player_colour(index), 30), seat.name
    assert too_small_buttons(driver) == []
