"""A whole Infinifield match played by touch on the field, with what the screen must show.

Rulebook: /work/shared/rules/infinifield.md. The players tap blocks on the drawn field; the
app turns a tap into the phase's action and the engine decides.
"""

from __future__ import annotations

import pytest

from companion.app import theme
from companion.app.views.infinifield_view import block_at, counter_ring, round_end
from companion.games.infinifield.flow import occupied
from companion.games.infinifield.removal import removable_blocks
from tests.app.fit import clipped_labels
from tests.app.harness import AppDriver, close_to, share_of, start_game, too_small_buttons
from tests.app.infinifield_policy import chase_target, start_choice

pytestmark = pytest.mark.gui


def _led_pixel(ring, image, position: int):  # type: ignore[no-untyped-def]
    """The colour of an LED beside its label (0.35 of its diameter right of the centre)."""
    x, y = ring.led_centres()[position]
    wx, wy = ring.to_window(x + ring.led_diameter() * 0.35, y)
    return tuple(int(v) for v in image[image.shape[0] - 1 - int(wy), int(wx)])


def _ring_pixel(driver: AppDriver, image, position: int):  # type: ignore[no-untyped-def]
    return _led_pixel(driver.widget("ring"), image, position)


def _edge_pixel(driver: AppDriver, image, block: str,  # type: ignore[no-untyped-def]
                inset: float = 0.06):
    """A pixel just inside the middle of the block's first edge."""
    board = driver.widget("board")
    view = board.view_of(block)
    (x1, y1), (x2, y2) = view.outline[0], view.outline[1]
    cx, cy = view.centre
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    px, py = mx + (cx - mx) * inset, my + (cy - my) * inset
    wx, wy = board.to_window(board.x + px, board.y + py)
    return tuple(int(v) for v in image[image.shape[0] - 1 - int(wy), int(wx)])


def _tap_block(driver: AppDriver, block: str) -> None:
    driver.tap_at(*driver.widget("board").block_window_pos(block))


def _crop(image, widget):  # type: ignore[no-untyped-def]
    """The part of the screenshot under ``widget``."""
    x, y = widget.to_window(widget.x, widget.y)
    top = image.shape[0] - int(y + widget.height)
    return image[max(top, 0):image.shape[0] - int(y), int(x):int(x + widget.width)]


def _check_round_end(driver: AppDriver, state) -> None:  # type: ignore[no-untyped-def]
    """infinifield.md "Chase-and-capture" 8: the round's winner, the scores and who builds
    the next field, on a panel that replaces the old field."""
    ending = round_end(state)
    assert ending is not None and not ending.match_over
    screen = driver.screen
    image = driver.screenshot("infinifield_round_end")
    assert screen.ids.board.parent is None, "the old field is not shown"
    assert screen.round_end_title == f"Round {ending.round} won by {ending.winners[0]}"
    assert screen.round_end_next.startswith(f"Next: {state.builder} builds a new field "
                                            f"for round {ending.round + 1}")
    for name, score in state.scores().items():
        assert f"{name}: {score} points" in screen.round_end_scores
    assert share_of(_crop(image, screen.ids.round_end_title), theme.ACCENT, 40) > 0.03
    assert clipped_labels(screen) == []
    assert too_small_buttons(driver) == []


def test_a_whole_match_by_touch_on_the_field(driver: AppDriver) -> None:
    """infinifield.md "Select starting positions" 2, "Chase-and-capture" 6-7 (counter ring,
    removal), 8 (next round) and "Scoring": a two-round match played by tapping blocks."""
    start_game(driver, "Infinifield", players=2)
    session = driver.app.table.session
    assert session is not None and session.game.name == "infinifield"
    image = driver.screenshot("infinifield_start")
    for colour in ("white", "yellow", "red", "blue"):
        assert share_of(image, theme.BLOCK_COLOURS[colour], 10) > 0.004, \
            f"{colour} blocks are drawn"
    assert close_to(_ring_pixel(driver, image, 4), theme.LED_LIT, 25), "counter starts on X"
    assert too_small_buttons(driver) == []

    refused_shown = removal_shown = False
    for _ in range(60):
        state = session.state
        if session.finished:
            break
        player = state.to_act
        assert player is not None
        if state.phase == "start":
            _tap_block(driver, start_choice(state))
        elif state.phase == "move":
            origin = state.pawn_of(player)
            if not refused_shown:
                far = next(b for b in state.field.whites()
                           if b != origin and not state.field.touches(origin or "", b)
                           and b not in state.removed)
                _tap_block(driver, far)
                image = driver.screenshot("infinifield_refused_move")
                banner = driver.app.banner
                assert not banner.legal and banner.rule.startswith(
                    'infinifield: "Chase-and-capture"')
                assert close_to(driver.pixel_of(image, banner, dx=banner.width / 2 - 20),
                                theme.REFUSED, 12)
                assert session.state == state, "a refused tap changes nothing"
                refused_shown = True
            before = len(session.record)
            _tap_block(driver, chase_target(state, player))
            assert len(session.record) == before + 1
            ring = counter_ring(session.state)
            image = driver.screenshot("infinifield_after_move")
            lit = ring.index("lit") if "lit" in ring else ring.index("due")
            expected = theme.LED_LIT if ring[lit] == "lit" else theme.LED_DUE
            assert close_to(_ring_pixel(driver, image, lit), expected, 25)
        elif state.phase == "remove":
            allowed = removable_blocks(state.field, state.removed, occupied(state))
            image = driver.screenshot("infinifield_removal_due")
            assert close_to(_ring_pixel(driver, image, 4), theme.LED_DUE, 25), "X lit red"
            assert close_to(_edge_pixel(driver, image, allowed[0]), theme.REMOVABLE, 40)
            fixed = next(b.id for b in state.field.blocks
                         if b.id not in allowed and b.id not in state.removed
                         and state.pawn_on(b.id) is None)
            assert not close_to(_edge_pixel(driver, image, fixed, 0.3), theme.REMOVABLE, 60)
            assert driver.screen.hint == \
                f"Tap a highlighted block to remove it: {', '.join(allowed)}"
            assert clipped_labels(driver.screen) == []
            _tap_block(driver, allowed[0])
            assert allowed[0] in session.state.removed
            assert allowed[0] not in {v.id for v in driver.widget("board").views}
            removal_shown = True
        else:
            _check_round_end(driver, session.state)
            driver.tap(driver.find_button(f"{player} has built the new field",
                                          driver.widget("round_end_buttons")))
            assert driver.widget("board").parent is not None, "the new field is shown"
    assert session.finished and refused_shown and removal_shown
    assert driver.app.outputs.buzz == "victory"
    panel = driver.widget("panel")
    assert panel.mode == "over" and panel.headline.startswith("Game over. Winner: Ann, Ben.")
    assert "[b]A[/b]  Ann: 33" in driver.screen.scores
    image = driver.screenshot("infinifield_over")
    screen = driver.screen
    assert screen.round_end_title == "Match over: Ann, Ben won"
    assert "Ann: 33 points  ★" in screen.round_end_scores
    assert screen.ids.board.parent is None
    title = screen.ids.round_end_title
    assert share_of(_crop(image, title), theme.ACCENT, 40) > 0.03, "the title is drawn"
    assert clipped_labels(screen) == []


def test_a_capture_reaches_the_simulated_buzzer_and_ring(driver: AppDriver) -> None:
    """infinifield.md "Chase-and-capture" 6: a capture; docs/events.md: capture has a buzzer
    pattern of its own. The simulation panel mirrors the LEDs and buzzer."""
    start_game(driver, "Infinifield", players=2)
    session = driver.app.table.session
    assert session is not None
    for text in ("start Ben W1", "start Ann W2", "move Ben W1 Y1"):
        driver.tap(driver.find_button(text))
    _tap_block(driver, "Y1")
    assert session.history[-1] == "move Ann W2 Y1"
    assert "capture" in driver.app.outputs.recent
    driver.tap(driver.widget("sim_button"))
    assert driver.screen.name == "simulation"
    image = driver.screenshot("simulation_infinifield")
    assert driver.screen.buzz_text.startswith("Buzzer: ") and "capture" in driver.screen.buzz_text
    ring = driver.screen.ids.ring
    expected = counter_ring(session.state)
    for index, state in enumerate(expected):
        pixel = _led_pixel(ring, image, index)
        colour = {"off": theme.LED_OFF, "lit": theme.LED_LIT, "due": theme.LED_DUE}[state]
        assert close_to(pixel, colour, 25), (index, state, pixel)


def test_the_castle_shows_the_id_of_every_block(driver: AppDriver) -> None:
    """infinifield.md pictures 1-2 (a 3D field): a block partly under a bridging block
    keeps its id readable on its visible part (issue 15: the castle hid them)."""
    start_game(driver, "Infinifield", layout="castle (3D)", players=2)
    board = driver.widget("board")
    image = driver.screenshot("infinifield_castle_ids")
    covered = [view for view in board.views if board.spots[view.id].covered]
    assert covered, "the castle has blocks partly under others"
    for view in board.views:  # the topmost block at each id's spot is that block
        spot = board.spots[view.id]
        assert block_at(board.views, spot.x, spot.y) == view.id, view.id
        assert board.label_sizes[view.id] >= 12, view.id
    for view in covered:  # the id's ink is on screen at its spot, on the block's colour
        spot = board.spots[view.id]
        wx, wy = board.to_window(board.x + spot.x, board.y + spot.y)
        row = image.shape[0] - 1 - int(wy)
        patch = image[row - 6:row + 7, int(wx) - 9:int(wx) + 10]
        ink = (1, 1, 1, 1) if view.colour in ("red", "blue") else (0.1, 0.1, 0.12, 1)
        assert share_of(patch, ink, 60) > 0.08, f"{view.id}'s id is not drawn"
        assert share_of(patch, theme.BLOCK_COLOURS[view.colour], 40) > 0.2, view.id


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_round_end_panel_in_spanish_and_russian(driver: AppDriver, lang: str) -> None:
    """infinifield.md "Chase-and-capture" 6-8: a capture leaves one pawn, the round ends;
    the panel's words come from the catalogue and nothing on the screen is cut off."""
    from tests.app.harness import go_home

    try:
        driver.app.set_language(lang)
        start_game(driver, "Infinifield", players=2)
        session = driver.app.table.session
        assert session is not None
        for action in ("start Ben W1", "start Ann W2", "move Ben W1 Y1", "move Ann W2 Y1"):
            assert driver.app.propose(action, "touch").legal, action
        driver.frames(3)
        assert session.state.phase == "rebuild"
        screen = driver.screen
        tr = driver.app.tr
        assert screen.round_end_title == tr("field.round_won", round=1, winner="Ann")
        assert screen.round_end_next == tr("field.round_next", builder="Ben", round=2)
        image = driver.screenshot(f"infinifield_round_end_{lang}")
        assert clipped_labels(screen) == []
        assert too_small_buttons(driver) == []
        button = driver.widget("round_end_buttons").children[0]
        assert button.text == tr("field.rebuilt", builder="Ben")
        assert close_to(driver.pixel_of(image, button, dx=-button.width / 2 + 12),
                        theme.ACCENT, 45)
        driver.tap(button)
        assert session.history[-1] == "rebuild Ben"
        assert screen.ids.board.parent is not None
    finally:
        driver.app.set_language("en")
        driver.frames(2)
        go_home(driver)
