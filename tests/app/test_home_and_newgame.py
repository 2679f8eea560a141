"""Issue 15 item 10: players named in every game; unfinished games with a date, deleted
after a confirmation, put away when nobody moved; a list that keeps its order; moves that
count moves, not rolls and shuffles."""

from __future__ import annotations

import pytest

from companion.app import theme
from companion.app.journal_shelf import seat_names
from tests.app.harness import AppDriver, close_to, go_home, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def _name_fields(driver: AppDriver) -> list:  # type: ignore[type-arg]
    from kivy.uix.textinput import TextInput

    return [w for w in reversed(driver.screen.ids.names.children) if isinstance(w, TextInput)]


def _new_game(driver: AppDriver, title: str, names: list[str], layout: str | None = None,
              shot: str | None = None) -> None:
    go_home(driver)
    driver.tap_text(title)
    if layout is not None:
        driver.tap(driver.find_button(layout, driver.screen.ids.layouts))
    fields = _name_fields(driver)
    assert len(fields) == len(names), f"{title}: {len(fields)} name fields"
    for field, name in zip(fields, names, strict=True):
        driver.type_into(field, name)
    if shot:
        driver.screenshot(shot)
        assert too_small_buttons(driver) == []
    driver.tap(driver.widget("start"))
    assert driver.screen.name.startswith("game_"), driver.screen.error


def test_players_are_named_in_every_game(driver: AppDriver) -> None:
    """401 (red and blue sides), Infinity (the armies' players) and Defiance (the game
    file's players, teams too) take the names typed on the new-game screen."""
    _new_game(driver, "401 Infinite", ["Zoe", "Max"], shot="new_game_401_names")
    session = driver.app.table.session
    assert session is not None and session.journal is not None
    assert seat_names(session.journal.path) == {"red": "Zoe", "blue": "Max"}

    _new_game(driver, "Infinity (N3 introductory rules)", ["Zoe", "Max"])
    session = driver.app.table.session
    assert session is not None
    assert session.game.current_actor(session.state) == "Zoe", "the first army is Zoe's"
    assert '"Max"' in "".join(text for _name, text in session.sources.values())

    _new_game(driver, "Infinities: Defiance of Fate", ["Zoe", "Max", "Ivy", "Kai"],
              layout="skirmish teams", shot="new_game_defiance_names")
    session = driver.app.table.session
    assert session is not None
    assert set(session.setup.players) == {"Zoe", "Max", "Ivy", "Kai"}

    go_home(driver)
    driver.tap_text("Infinity (N3 introductory rules)")
    driver.type_into(_name_fields(driver)[1], "Zoe Two")
    driver.type_into(_name_fields(driver)[0], "Zoe")
    driver.tap(driver.widget("start"))
    assert driver.screen.name == "newgame"
    assert driver.screen.error == "A name is one word of up to 20 letters."
    driver.tap(driver.find_button("<"))


def _delete_dialog(driver, seconds: float = 3.0):
    """The dialog asking whether to delete, once it is open (frames run meanwhile)."""
    import time

    end = time.monotonic() + seconds
    while True:
        found = [w for w in driver.window.children if type(w).__name__ == "DeleteDialog"]
        if found or time.monotonic() > end:
            assert found, "no dialog asks before deleting"
            return found[0]
        driver.frames(1)


def _until_closed(driver, dialog, seconds: float = 3.0) -> None:
    """Run frames until ``dialog`` has left the window (its closing animation included)."""
    import time

    end = time.monotonic() + seconds
    while dialog in driver.window.children and time.monotonic() < end:
        driver.frames(1)
    driver.wait(0.1)
    assert dialog not in driver.window.children, "the dialog stays open"


def test_unfinished_games_show_a_date_keep_their_order_and_are_deleted_after_asking(
        driver: AppDriver) -> None:
    """Each unfinished game shows when it started; resuming one does not move it; delete
    asks first, and "No" keeps it."""
    start_game(driver, "Infinifield", players=2)
    driver.app.propose("start Ben W1")
    first = driver.app.table.session.journal.path  # type: ignore[union-attr]
    start_game(driver, "Infinifield", players=2)
    driver.app.propose("start Ben W5")
    second = driver.app.table.session.journal.path  # type: ignore[union-attr]
    go_home(driver)
    shelf = driver.screen.ids.unfinished

    def order() -> list[str]:
        return [b.action for b in reversed(shelf.children) if not b.action.startswith("del")]

    before = order()
    assert before.index(str(second)) < before.index(str(first)), "newest started first"
    item = next(b for b in shelf.children if b.action == str(first))
    assert item.text.split("\n")[1][:4].isdigit(), f"a date: {item.text!r}"
    driver.tap(item)
    driver.app.propose("start Ann W8")
    go_home(driver)
    assert order() == before, "playing a game does not reorder the list"
    image = driver.screenshot("home_dates_delete")
    delete = next(b for b in shelf.children if b.action == f"delete:{first}")
    assert close_to(driver.pixel_of(image, delete, dx=-20), theme.DANGER, 14)
    driver.tap(delete)
    dialog = _delete_dialog(driver)
    driver.screenshot("home_delete_asks")
    driver.tap(dialog.ids.keep_button)
    _until_closed(driver, dialog)
    assert str(first) in order() and first.exists()
    driver.tap(next(b for b in shelf.children if b.action == f"delete:{first}"))
    dialog = _delete_dialog(driver)
    driver.tap(dialog.ids.delete_button)
    driver.wait(0.3)
    assert str(first) not in order() and not first.exists()
    assert (first.parent / "deleted" / first.name).exists(), "kept aside, not destroyed"
    assert driver.app.table.session is None, "the deleted game was the open one"


def test_games_nobody_moved_in_are_put_away_and_moves_count_moves(driver: AppDriver) -> None:
    """A game opened and left with no move does not stay on the list; rolls and shuffles
    (chance) are not moves."""
    start_game(driver, "Infinifield", players=2)
    empty = driver.app.table.session.journal.path  # type: ignore[union-attr]
    start_game(driver, "Infinidungeon")
    driver.app.roll()  # the room deck is shuffled: chance, not a move
    dungeon = driver.app.table.session
    assert dungeon is not None and len(dungeon.record) == 1
    go_home(driver)
    actions = [b.action for b in driver.screen.ids.unfinished.children]
    assert str(empty) not in actions and not empty.exists()
    item = next(b for b in driver.screen.ids.unfinished.children
                if b.action == str(dungeon.journal.path))  # type: ignore[union-attr]
    assert item.text.endswith("moves: 0"), item.text
    driver.tap(item)
    legal = driver.app.table.legal_texts()
    driver.app.propose(legal[0])
    go_home(driver)
    item = next(b for b in driver.screen.ids.unfinished.children
                if b.action == str(dungeon.journal.path))  # type: ignore[union-attr]
    assert item.text.endswith("moves: 1"), item.text
