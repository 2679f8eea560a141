"""A whole short game of every other game with an engine, played by touch on its screen.

Each game is started from the home screen, then played to its end with the panel's
buttons only: "Roll for me" whenever the engine waits for chance, otherwise a button of the
legal actions (turn-ending verbs first, so the games stay short). The screen must always
offer exactly the engine's legal actions, and show the outcome at the end.
"""

from __future__ import annotations

import random

import pytest

from companion.app import theme
from companion.app.game_setups import SETUPS
from companion.games.registry import available_games, load_game
from tests.app.harness import AppDriver, close_to, start_game, too_small_buttons

pytestmark = pytest.mark.gui

SHORT_LAYOUT = {"401": "short game (4 turns)", "defiance": "quickplay (2)"}
PREFERRED_VERBS = {"infinidungeon": (), "401": ("end",), "infinity": ("end",),
                   "defiance": ("end", "concede")}
MAX_TAPS = 400

GAMES = [name for name in ("infinidungeon", "401", "infinity", "defiance")
         if name in available_games() and name in SETUPS]


def _visible(driver: AppDriver, widget) -> bool:  # type: ignore[no-untyped-def]
    x, y = widget.to_window(*widget.center)
    scroll = widget.parent.parent
    _sx, sy = scroll.to_window(scroll.x, scroll.y)
    return sy <= y <= sy + scroll.height and 0 <= x < driver.window.width


@pytest.mark.parametrize("game", GAMES)
def test_whole_short_game_by_touch(driver: AppDriver, game: str) -> None:
    """Issue 9 "driven by simulated touches through a whole short game of each game that has
    an engine"; buttons enabled from legal_actions (DESIGN.md "app/")."""
    title = load_game(game).title
    start_game(driver, title, layout=SHORT_LAYOUT.get(game))
    session = driver.app.table.session
    assert session is not None and session.game.name == game
    driver.screenshot(f"{game}_start")
    rng = random.Random(5)
    checked_targets = False
    for _ in range(MAX_TAPS):
        panel = driver.widget("panel")
        if panel.mode == "over":
            break
        if panel.mode == "chance":
            before = len(session.record)
            driver.tap(panel.ids.roll_button)
            assert len(session.record) == before + 1
            assert session.record[-1].source == "virtual"
            continue
        grouped = driver.app.table.actions_by_verb()
        verb = next((v for v in PREFERRED_VERBS[game] if v in grouped), None)
        if verb is not None and verb != panel.verb:
            driver.tap(driver.find_button(verb, panel))
        shown = [b.action for b in reversed(panel.ids.actions.children)]
        assert shown, "the legal actions have buttons"
        assert set(shown) <= set(grouped[panel.verb]), "buttons are the engine's actions"
        presented = panel.action_view(grouped[panel.verb]) if panel.action_view else None
        if presented is None:  # a screen may order them its way (issue 15: best first)
            assert shown == grouped[panel.verb][:len(shown)]
        if not checked_targets:
            assert too_small_buttons(driver) == []
            checked_targets = True
        buttons = [b for b in reversed(panel.ids.actions.children) if _visible(driver, b)]
        choice = buttons[0] if verb is not None else rng.choice(buttons)
        before = len(session.record)
        driver.tap(choice)
        assert len(session.record) == before + 1, driver.app.banner.reason
    assert session.finished, f"{game} did not end within {MAX_TAPS} taps"
    outcome = session.outcome
    assert outcome is not None
    panel = driver.widget("panel")
    assert panel.headline.startswith("Game over.")
    assert (outcome.detail or outcome.termination) in panel.headline
    x, y = panel.to_window(panel.center_x, panel.top - 6)
    driver.tap_banner_away(x, y)  # the last verdict's banner overlays the top (issue 15)
    image = driver.screenshot(f"{game}_over")
    assert close_to(driver.pixel_of(image, panel, dy=panel.height / 2 - 6), theme.PANEL, 12)
