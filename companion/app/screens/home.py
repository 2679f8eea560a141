"""Home: pick a game to start, or resume an unfinished one from its journal."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.app.game_setups import SETUPS
from companion.app.kvload import load_kv_beside
from companion.app.widgets.common import BigButton
from companion.games.registry import available_games, load_game


def startable_games() -> list[str]:
    """The games whose engine is installed and which the app knows how to set up."""
    return [name for name in available_games() if name in SETUPS] + \
        [name for name in SETUPS if name not in available_games() and _loads(name)]


def _loads(name: str) -> bool:
    try:
        load_game(name)
    except (ImportError, LookupError):
        return False
    return True


class HomeScreen(Screen):
    """The game picker and the list of unfinished games."""

    def on_pre_enter(self, *_args: Any) -> None:
        """Rebuild the lists each time the screen is shown."""
        self.refresh()

    def refresh(self) -> None:
        """Fill the game tiles and the resume list."""
        app = App.get_running_app()
        games = self.ids.games
        games.clear_widgets()
        for name in startable_games():
            game = load_game(name)
            button = BigButton(text=game.title, action=name, height=76, font_size="20sp")
            button.bind(on_release=lambda b: self.choose(b.action))
            games.add_widget(button)
        shelf = self.ids.unfinished
        shelf.clear_widgets()
        for shelved in app.table.shelf.unfinished()[:6]:
            title = load_game(shelved.game).title
            players = ", ".join(shelved.players)
            text = app.tr("home.resume_item", game=title, players=players,
                          actions=shelved.actions) if players else \
                app.tr("home.resume_item_solo", game=title, actions=shelved.actions)
            button = BigButton(text=text, action=str(shelved.path), height=64,
                               font_size="17sp")
            button.bind(on_release=lambda b: self.resume(b.action))
            shelf.add_widget(button)
        self.ids.nothing_to_resume.opacity = 0 if shelf.children else 1

    def choose(self, game: str) -> None:
        """Go to the new-game screen for ``game``."""
        app = App.get_running_app()
        app.screens.get_screen("newgame").prepare(game)
        app.go("newgame")

    def resume(self, path: str) -> None:
        """Resume the game recorded at ``path``."""
        from pathlib import Path

        app = App.get_running_app()
        session = app.table.session
        if session is None or session.journal is None or session.journal.path != Path(path):
            app.table.close_game()  # its journal is released before another one is opened
            app.table.resume(Path(path))
        app.open_game_screen()


load_kv_beside(__file__)
