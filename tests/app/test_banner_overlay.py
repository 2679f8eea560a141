"""The verdict banner overlays the screen and never moves a touch target (issue 15, item 1).

Rulebook: /work/shared/rules/infinifield.md "Select starting positions" step 2 (a pawn
starts on a white block): a yellow block tapped at the start is refused, the banner shows,
and every block and button stays exactly where it was, so the next tap lands on what the
player saw. Every line of the banner shows (it grows with its text, and scrolls past half
the screen).
"""

from __future__ import annotations

import pytest

from companion.app import theme
from tests.app.fit import clipped_labels, full_text_size
from tests.app.harness import AppDriver, close_to, start_game

pytestmark = pytest.mark.gui


def _targets(driver: AppDriver) -> dict[str, tuple[float, float, float, float]]:
    """Every visible button and block of the screen, by name, as window rectangles."""
    from kivy.uix.button import Button

    places = {}
    for widget in driver.screen.walk():
        if isinstance(widget, Button) and widget.get_root_window() is not None:
            x, y = widget.to_window(widget.x, widget.y)
            places[f"button {widget.text}"] = (x, y, widget.width, widget.height)
    board = driver.widget("board")
    for view in board.views:
        x, y = board.block_window_pos(view.id)
        places[f"block {view.id}"] = (x, y, 0, 0)
    return places


def test_a_refusal_overlays_the_top_and_moves_nothing(driver: AppDriver) -> None:
    """infinifield.md "Select starting positions" 2: a refused start; the banner lies over
    the header, the field and the buttons keep their places and their pixels, and a tap on
    a block right after it lands on that block."""
    start_game(driver, "Infinifield", players=2)
    session = driver.app.table.session
    assert session is not None
    before = _targets(driver)
    image_before = driver.screenshot("banner_overlay_before")
    yellow = next(b.id for b in session.state.field.blocks if b.colour == "yellow")
    driver.tap_at(*driver.widget("board").block_window_pos(yellow))
    banner = driver.app.banner
    assert banner.parent is not None and not banner.legal
    image = driver.screenshot("banner_overlay_refused")
    assert _targets(driver) == before, "the banner moved a touch target"
    assert banner.top == driver.window.height and banner.width == driver.window.width
    assert close_to(driver.pixel_of(image, banner, dx=banner.width / 2 - 20), theme.REFUSED,
                    12)
    board = driver.widget("board")
    covered_below = driver.window.height - banner.height
    for view in board.views:  # the field under the banner's edge looks exactly the same
        x, y = board.block_window_pos(view.id)
        if y < covered_below - 20:
            row = image.shape[0] - 1 - int(y)
            assert (image[row, int(x)] == image_before[row, int(x)]).all(), view.id
    assert clipped_labels(banner) == [], "every line of the refusal shows"
    white = next(b for b in session.state.field.whites())
    expected = f"start {session.state.to_act} {white}"
    driver.tap_at(*board.block_window_pos(white))
    assert session.history[-1] == expected, "the next tap lands on the block seen"


def test_a_long_verdict_shows_every_line_and_scrolls_past_half_the_screen(
        driver: AppDriver) -> None:
    """No silent dropping: the banner grows with its text up to half the window, then the
    text scrolls; the headline, reason and rule are each laid out whole."""
    start_game(driver, "Infinifield", players=2)
    banner = driver.app.banner
    reason = " ".join(["The referee explains this refusal at length."] * 4)
    banner.show(False, "Refused: move Ann W1 W9", reason, 'infinifield: "Chase-and-capture"')
    driver.frames(4)
    driver.screenshot("banner_long_reason")
    assert driver.window.height * 0.2 < banner.height <= driver.window.height / 2
    for key in ("headline_label", "reason_label", "rule_label"):
        label = banner.ids[key]
        assert label.height >= full_text_size(label)[1] - 1, key
    banner.show(False, "Refused", " ".join(["Very long."] * 200), "rule")
    driver.frames(4)
    image = driver.screenshot("banner_scrolls")
    assert banner.height == pytest.approx(driver.window.height / 2)
    assert banner.ids.scroller.do_scroll_y, "text taller than the banner scrolls"
    assert close_to(driver.pixel_of(image, banner, dx=banner.width / 2 - 20), theme.REFUSED, 12)
    driver.tap_at(banner.x + 24, banner.center_y)  # the badge: a tap hides it
    assert banner.parent is None


def test_an_accepted_verdict_hides_itself(driver: AppDriver) -> None:
    """An accepted verdict leaves the screen by itself (the log keeps it); a refusal stays."""
    start_game(driver, "Infinifield", players=2)
    banner = driver.app.banner
    old = banner.auto_hide
    try:
        banner.auto_hide = 0.3
        driver.tap(driver.find_button("start Ben W1"))
        assert banner.parent is not None and banner.legal
        driver.wait(0.6)
        assert banner.parent is None
        banner.show(False, "Refused: x", "reason", "rule")
        driver.wait(0.6)
        assert banner.parent is not None, "a refusal stays until tapped"
        driver.tap_at(banner.right - 30, banner.top - 10)
        assert banner.parent is None
    finally:
        banner.auto_hide = old


def test_a_long_action_label_grows_its_button(driver: AppDriver) -> None:
    """No silent dropping in the action list either: a label of three lines (Russian
    assignments such as "назначить 1:призрак-тень 2:призрак-тень ...") gets a taller
    button, still proposing the engine's notation."""
    start_game(driver, "Infinifield", players=2)
    panel = driver.widget("panel")
    label = "назначить 1:призрак-тень 2:призрак-тень 3:призрак-тень 4:скелет 5:скелет"
    panel._fill_labelled([(label, "start Ben W1")])
    driver.frames(4)
    button = panel.ids.actions.children[0]
    driver.screenshot("action_panel_long_label")
    assert button.height > theme.TOUCH_MIN_PX
    assert clipped_labels(panel) == []
    driver.tap(button)
    assert driver.app.table.session is not None
    assert driver.app.table.session.history[-1] == "start Ben W1"


@pytest.mark.parametrize("screen", ["simulation", "tools", "log"])
def test_no_screen_reflows_under_the_banner(driver: AppDriver, screen: str) -> None:
    """Issue 15: on the simulation panel a tap meant for an NFC card hit the camera picture,
    and the dice tool's results slid over its buttons, because the banner pushed the screen
    up. Now a verdict shown over any screen leaves every widget where it was."""
    from kivy.uix.widget import Widget

    start_game(driver, "Infinifield", players=2)
    driver.app.go(screen)
    driver.frames(4)

    def places() -> dict[int, tuple[float, float, float, float]]:
        found = {}
        for widget in driver.screen.walk():
            if isinstance(widget, Widget) and widget.get_root_window() is not None:
                x, y = widget.to_window(widget.x, widget.y)
                found[id(widget)] = (round(x), round(y), round(widget.width),
                                     round(widget.height))
        return found

    before = places()
    driver.app.banner.show(False, "Refused: start Ben Y1", "Pawns start on a white block; "
                           "Y1 is yellow.", 'infinifield: "Select starting positions", step 2')
    driver.frames(4)
    driver.screenshot(f"banner_over_{screen}")
    assert driver.app.banner.parent is not None
    assert places() == before
    driver.app.banner.hide()


def test_a_long_game_title_fits_the_header(driver: AppDriver) -> None:
    """"Infinities: Defiance of Fate" is longer than the header's title slot at 800x480:
    the font shrinks rather than the title being cut to "...", and no button moves."""
    from companion.games.registry import load_game

    start_game(driver, load_game("defiance").title)
    label = driver.widget("game_title_label")
    driver.screenshot("header_long_title")
    assert label.text == "Infinities: Defiance of Fate"
    assert clipped_labels(label.parent) == []
    assert driver.widget("home_button").width >= 48
