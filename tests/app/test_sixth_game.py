"""Issue 16: a sixth game written only as its own package (the toy Pebbles of
``tests/games/toy_game.py``) is offered by the real app: a tile on the home screen, its
shipped setups, players and offered choice on the new-game screen, and the generic referee
screen once started, on which a tapped action reaches the referee."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.harness import AppDriver, go_home
from tests.games.toy_game import install_toy

pytestmark = pytest.mark.gui


def test_a_sixth_game_is_offered_set_up_and_refereed(driver: AppDriver, tmp_path: Path) -> None:
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    from companion.app.screens.game_generic import GenericGameScreen

    with install_toy(tmp_path):
        go_home(driver)
        _list_games_again(driver)
        driver.tap_text("Pebbles")
        assert driver.screen.name == "newgame" and driver.screen.game == "pebbles"
        assert driver.screen.layouts == ["small pile", "big pile"]
        labels = [w.text for w in driver.screen.ids.options.children
                  if isinstance(w, Label) and not isinstance(w, Button)]
        assert labels == ["opener"], "an option without a translation is shown by its name"
        driver.tap(driver.find_button("big pile", driver.screen.ids.layouts))
        driver.tap(driver.find_button("last", driver.screen.ids.options))
        fields = [w for w in driver.screen.ids.names.children if isinstance(w, TextInput)]
        assert len(fields) == 2, "2 to 4 players: two name fields to start with"
        driver.tap(driver.widget("start"))
        assert driver.screen.name == "game_pebbles", driver.screen.error
        assert isinstance(driver.screen, GenericGameScreen)
        session = driver.app.table.session
        assert session is not None and session.state.pile == 21
        assert session.game.current_actor(session.state) == "Ben", "opener = last"
        driver.tap_text("take Ben 3")
        assert session.history == ["take Ben 3"] and session.state.pile == 18
        journal = session.journal.path if session.journal else None
        driver.app.table.close_game()
        if journal is not None:
            driver.app.table.shelf.delete(journal)  # the toy's journal leaves with the toy
        go_home(driver)
    _list_games_again(driver)
    with pytest.raises(AssertionError):
        driver.find_button("Pebbles")


def _list_games_again(driver: AppDriver) -> None:
    """The home screen lists the installed games once (they do not change while the app
    runs): list them again, as a restart would, with the toy installed or gone."""
    driver.screen.ids.games.clear_widgets()
    driver.screen.refresh()
    driver.frames(3)  # laid out before a tap
