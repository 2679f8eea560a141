"""The app's shell on a real 800x480 window: home, languages, touch targets, screenshots."""

from __future__ import annotations

import pytest

from companion.app import theme
from companion.app.game_setups import SETUPS
from companion.games.registry import available_games, load_game
from tests.app.harness import AppDriver, close_to, go_home, share_of, too_small_buttons

pytestmark = pytest.mark.gui


def test_window_is_800x480_and_home_lists_every_installed_game(driver: AppDriver) -> None:
    """Issue 9 "Home: pick a game": one tile per installed engine the app can set up."""
    go_home(driver)
    assert tuple(driver.window.size) == (800, 480)
    image = driver.screenshot("home")
    assert image.shape[:2] == (480, 800)
    titles = {button.text for button in driver.screen.ids.games.children}
    expected = {load_game(name).title for name in available_games() if name in SETUPS}
    assert expected <= titles and "Infinifield" in titles
    assert share_of(image, theme.BACKGROUND, 6) > 0.02, "the dark table background shows"
    tile = driver.find_button("Infinifield")
    assert close_to(driver.pixel_of(image, tile, dx=-tile.width / 3), theme.BUTTON, 12)
    assert too_small_buttons(driver) == []
    driver.tap(tile)
    assert driver.screen.name == "newgame"
    image = driver.screenshot("new_game")
    two = driver.find_button("2", driver.screen.ids.counts)
    assert two.selected and close_to(driver.pixel_of(image, two, dx=-two.width / 3),
                                     theme.ACCENT, 12)
    assert [field.text for field in reversed(driver.screen.ids.names.children)] == \
        ["Ann", "Ben"]
    driver.tap(driver.find_button("4", driver.screen.ids.counts))
    assert len(driver.screen.ids.names.children) == 4
    rounds = driver.find_button("rounds", driver.screen.ids.options)
    driver.tap(rounds)
    assert rounds.selected and driver.screen.chosen == {"scoring": "rounds"}
    assert not driver.find_button("points", driver.screen.ids.options).selected
    driver.screenshot("new_game_options")
    assert too_small_buttons(driver) == []
    driver.tap(driver.find_button("<"))


def test_languages_switch_every_label_and_are_remembered(driver: AppDriver) -> None:
    """Issue 9 "Languages: English, Spanish and Russian, chosen in settings"."""
    go_home(driver)
    driver.tap(driver.widget("settings_button"))
    assert driver.screen.name == "settings"
    driver.tap(driver.widget("lang_ru"))
    assert driver.app.lang == "ru"
    russian = driver.screenshot("settings_ru")
    assert driver.widget("lang_ru").selected
    assert close_to(driver.pixel_of(russian, driver.widget("lang_ru"), dx=-60), theme.ACCENT, 12)
    driver.tap(driver.find_button("<"))
    assert driver.screen.name == "home"
    assert driver.widget("settings_button").text == "Настройки"
    assert driver.widget("tools_button").text == "Кубики"
    driver.screenshot("home_ru")
    driver.tap(driver.widget("settings_button"))
    driver.tap(driver.widget("lang_es"))
    driver.tap(driver.find_button("<"))
    assert driver.widget("settings_button").text == "Ajustes"
    driver.screenshot("home_es")
    saved = (driver.app.options.data_dir / "settings.json").read_text()
    assert '"language": "es"' in saved
    driver.tap(driver.widget("settings_button"))
    driver.tap(driver.widget("lang_en"))
    assert driver.widget("sound").text == "Sound on"
    driver.tap(driver.widget("sound"))
    assert driver.widget("sound").text == "Sound off" and not driver.app.outputs.sound
    driver.tap(driver.widget("sound"))
    assert driver.app.outputs.sound
    driver.screenshot("settings")
    assert too_small_buttons(driver) == []
    go_home(driver)
    assert driver.widget("settings_button").text == "Settings"


def test_home_resumes_an_unfinished_game_from_its_journal(driver: AppDriver) -> None:
    """Issue 9 "Home: ... or resume the unfinished one (the journal)"."""
    from tests.app.harness import start_game

    start_game(driver, "Infinifield", players=3)
    driver.tap(driver.find_button("start Ben W1"))
    path = driver.app.table.session.journal.path  # type: ignore[union-attr]
    go_home(driver)
    assert driver.app.banner.parent is None, "a verdict stays with its game"
    item = next(b for b in driver.screen.ids.unfinished.children if b.action == str(path))
    assert item.text.startswith("Infinifield  ·  Ann, Ben, Cat\n")
    assert item.text.endswith("  ·  moves: 1")
    driver.screenshot("home_unfinished")
    driver.tap(item)
    session = driver.app.table.session
    assert driver.screen.name == "game_infinifield" and session is not None
    assert session.history == ["start Ben W1"] and session.journal.path == path  # type: ignore[union-attr]
    assert driver.widget("board").view_of("W1").pawn == "Ben"


def test_one_game_screen_at_a_time_and_plain_screens_built_when_needed(
        driver: AppDriver) -> None:
    """Issue 15 item 13 (memory): opening another game takes the previous game's screen
    down, nothing of the app still calls into it, and the new game's screen is drawn."""
    from tests.app.harness import start_game

    start_game(driver, "Infinifield", players=2)
    old = driver.screen
    start_game(driver, "Infinidungeon")
    names = [name for name in driver.app.screens.screen_names if name.startswith("game_")]
    assert names == ["game_infinidungeon"]
    observers = [callback for prop in ("revision", "lang")
                 for callback in driver.app.get_property_observers(prop)]
    assert not any(getattr(cell, "cell_contents", None) is old
                   for callback in observers
                   for cell in getattr(callback, "__closure__", None) or ()), \
        "the released screen is still called on every change"
    image = driver.screenshot("one_game_screen")
    assert share_of(image, theme.PANEL, 8) > 0.05, "the new game's panels are drawn"
    driver.tap(driver.widget("home_button"))
    driver.tap(driver.widget("settings_button"))
    driver.tap(driver.find_button("<"))
    driver.wait(0.6)
    assert "settings" not in driver.app.screens.screen_names, "settings are rebuilt on demand"
