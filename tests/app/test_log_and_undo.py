"""Issue 15 item 8: the event log says an undo in words and shows the undone row as undone,
keeps every detail and refusal across a resume, and never gives two actions one number."""

from __future__ import annotations

import pytest

from companion.app import theme
from tests.app.harness import AppDriver, close_to, go_home, start_game

pytestmark = pytest.mark.gui


def _log_rows(driver: AppDriver) -> list:  # type: ignore[type-arg]
    """The log's rows, newest first (as shown, top to bottom)."""
    driver.frames(2)
    return driver.screen.shown_rows()


def _undo_last(driver: AppDriver) -> None:
    driver.tap(driver.widget("undo_button"))
    dialog = next(w for w in driver.window.children if type(w).__name__ == "UndoDialog")
    driver.tap(dialog.ids.yes_button)
    driver.wait(0.3)


def test_undo_is_worded_and_the_undone_row_looks_undone(driver: AppDriver) -> None:
    """The undo row says "undo roll 2" / "took back roll 2" (not ``undone(action=...)``) with
    an amber UNDO badge; the roll it took back is dimmed and struck through."""
    start_game(driver, "Countdown")
    session = driver.app.table.session
    assert session is not None
    driver.app.propose("roll 2", "typed")
    driver.tap(driver.widget("log_button"))
    _undo_last(driver)
    assert session.history == []
    rows = _log_rows(driver)
    undo, undone = rows[0], rows[1]
    assert (undo.action, undo.detail, undo.badge) == ("undo roll 2", "took back roll 2", "UNDO")
    assert "undone(" not in driver.app.banner.reason
    assert undone.status == "undone" and undone.number == "1"
    assert "[s]" in undone.ids.text_label.text and undone.opacity < 1, "struck through"
    assert undone.detail.startswith("taken back")
    image = driver.screenshot("log_undo_worded")
    assert close_to(driver.pixel_of(image, undo.ids.badge, dx=-20), theme.ACCENT, 14)
    lit = driver.pixel_of(image, undone.ids.badge, dx=-20)
    assert not close_to(lit, theme.ACCEPTED, 40), "the undone row has no green OK badge"
    driver.app.propose("roll 3", "typed")
    driver.frames(3)
    rows = _log_rows(driver)
    assert (rows[0].number, rows[0].status) == ("1", "ok"), "the new roll is action 1 again"


def test_resumed_log_keeps_every_detail_and_refusal(driver: AppDriver) -> None:
    """After a resume (power cut, restart, the home screen) the log reads as before: each
    action's events, each refusal with its reason and rule, each undo."""
    start_game(driver, "Countdown")
    table = driver.app.table
    session = table.session
    assert session is not None
    for text in ("roll 9", "roll 4", "take Ann 9", "take Ann 3"):
        driver.app.propose(text, "typed")
    driver.app.table.undo()
    driver.app.propose("take Ann 2", "typed")
    driver.tap(driver.widget("log_button"))
    before = [(r.number, r.action, r.source, r.detail, r.status) for r in _log_rows(driver)]
    assert any(status == "refused" and "[countdown" in detail
               for _n, _a, _s, detail, status in before)
    path = session.journal.path  # type: ignore[union-attr]
    go_home(driver)
    table.close_game()
    driver.screen.refresh()
    driver.frames(3)
    item = next(b for b in driver.screen.ids.unfinished.children if b.action == str(path))
    driver.tap(item)
    driver.tap(driver.widget("log_button"))
    after = [(r.number, r.action, r.source, r.detail, r.status) for r in _log_rows(driver)]
    assert after == before
    driver.screenshot("log_after_resume")


def test_actions_seen_together_by_the_camera_get_their_own_numbers(
        driver: AppDriver) -> None:
    """Two moves read from one camera frame are recorded together: they are actions 1 and 2
    in the log, not "2, 2"."""
    start_game(driver, "Infinifield", players=2)
    table = driver.app.table
    session = table.session
    assert session is not None
    verdicts = [session.propose(text, source="camera")
                for text in ("start Ben W1", "start Ann W8")]
    for verdict in verdicts:
        table.record_external(verdict)
    driver.tap(driver.widget("log_button"))
    rows = _log_rows(driver)
    assert [(r.number, r.action) for r in rows] == [("2", "start Ann W8"),
                                                    ("1", "start Ben W1")]
    driver.screenshot("log_camera_numbers")
