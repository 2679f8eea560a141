"""Home: pick a game to start, or resume an unfinished one from its journal.

The unfinished games are listed newest started first, each with its players, the date it
was started and how many moves were made (chance, such as rolls and shuffles, is not a
move); each can be deleted after a confirmation (its journal moves to ``deleted/``).
"""

from __future__ import annotations

import time
from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.app import theme
from companion.app.game_setups import SETUPS
from companion.app.journal_shelf import ShelvedGame
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


SHOWN_GAMES = 8


class DeleteDialog(ModalView):
    """Asks "Delete <game>?" with Yes / No."""

    question = StringProperty("")
    path = StringProperty("")


class HomeScreen(Screen):
    """The game picker and the list of unfinished games."""

    def on_pre_enter(self, *_args: Any) -> None:
        """Rebuild the lists each time the screen is shown."""
        self.refresh()

    def refresh(self) -> None:
        """Fill the game tiles and the resume list (games nobody moved in are put away)."""
        app = App.get_running_app()
        games = self.ids.games
        if not games.children:  # the installed games do not change while the app runs
            for name in startable_games():
                game = load_game(name)
                button = BigButton(text=game.title, action=name, height=76, font_size="20sp")
                button.bind(on_release=lambda b: self.choose(b.action))
                games.add_widget(button)
        session = app.table.session
        keep = session.journal.path if session is not None and session.journal else None
        app.table.shelf.prune_empty(keep)
        shelf = self.ids.unfinished
        shelf.clear_widgets()
        for shelved in app.table.shelf.unfinished()[:SHOWN_GAMES]:
            button = BigButton(text=self.item_text(shelved), action=str(shelved.path),
                               height=68, font_size="16sp")
            button.bind(on_release=lambda b: self.resume(b.action))
            shelf.add_widget(button)
            delete = BigButton(text="✗", action=f"delete:{shelved.path}", height=68,
                               font_size="24sp", size_hint_x=None, width=theme.TOUCH_MIN_PX,
                               fill=theme.DANGER)
            delete.bind(on_release=lambda b: self.ask_delete(b.action.split(":", 1)[1]))
            shelf.add_widget(delete)
        self.ids.nothing_to_resume.opacity = 0 if shelf.children else 1

    def item_text(self, shelved: ShelvedGame) -> str:
        """``Infinifield · Ann, Ben`` over ``2026-11-26 07:40 · moves: 3``."""
        app = App.get_running_app()
        title = load_game(shelved.game).title
        players = ", ".join(shelved.players)
        date = time.strftime("%Y-%m-%d %H:%M", time.localtime(shelved.started))
        key = "home.resume_item" if players else "home.resume_item_solo"
        return app.tr(key, game=title, players=players, moves=shelved.moves, date=date)

    def ask_delete(self, path: str) -> DeleteDialog:
        """Ask before a game is put away."""
        app = App.get_running_app()
        shelved = next((g for g in app.table.shelf.unfinished() if str(g.path) == path), None)
        text = self.item_text(shelved).replace("\n", "  ·  ") if shelved else path
        dialog = DeleteDialog(question=app.tr("home.delete_question", game=text), path=path)
        dialog.open()
        return dialog

    def delete(self, path: str) -> None:
        """Put the game away (its journal moves to ``deleted/``); closes it if it is open."""
        from pathlib import Path

        app = App.get_running_app()
        session = app.table.session
        if session is not None and session.journal is not None and \
                session.journal.path == Path(path):
            app.table.close_game()
        app.table.shelf.delete(Path(path))
        self.refresh()

    def choose(self, game: str) -> None:
        """Go to the new-game screen for ``game``."""
        app = App.get_running_app()
        app.screen("newgame").prepare(game)
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
