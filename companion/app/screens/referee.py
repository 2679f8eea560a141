"""What every game's referee screen shares: the header, the action panel, the redraw.

A game screen subclasses :class:`RefereeScreen` and adds, in its own ``.kv``, a board
widget with the id ``board`` that has a ``refresh(session)`` method, and draws the rest of
what it shows in :meth:`RefereeScreen.redraw`. The screen redraws whenever the app's
``revision`` changes (a verdict, an undo, a language switch), and only while it is the
screen shown for the open game.

Widgets never call the app: one that proposes an action (the action panel, a board) raises
``on_propose(action, source)``, and the screen passes every such event of its widgets to the
referee (:meth:`RefereeScreen.propose`).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.app.kvload import load_kv_beside
from companion.app.widgets import action_panel as _action_panel  # noqa: F401  (kv rules)
from companion.session import Session


def proposing_widgets(screen: Widget) -> list[Widget]:
    """The widgets of ``screen`` that raise ``on_propose``.

    Those in its tree, and those named in its ids (a panel swapped out of the tree counts).
    """
    found: dict[int, Widget] = {}
    for widget in [*screen.walk(restrict=True), *screen.ids.values()]:
        if isinstance(widget, Widget) and widget is not screen \
                and widget.is_event_type("on_propose"):
            found[id(widget)] = widget
    return list(found.values())


class RefereeScreen(Screen):
    """Base of the game screens.

    Attributes:
        game_title: the game's title for the header.
    """

    game_title = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        """Redraw whenever something changes at the table; hear the widgets' proposals."""
        App.get_running_app().bind(revision=lambda *_: self.refresh())
        for widget in proposing_widgets(self):
            widget.bind(on_propose=self.propose)

    def propose(self, _widget: Any, action: str, source: str) -> None:
        """Pass an action a widget raised (``on_propose``) to the referee."""
        App.get_running_app().propose(action, source)

    def on_pre_enter(self, *_args: Any) -> None:
        """Redraw before showing, unless nothing changed since it was last drawn.

        Coming back from the log or the dice, the screen then shows at once.
        """
        app = App.get_running_app()
        if getattr(self, "_drawn", None) != (app.revision, app.table.session):
            self.refresh()

    def refresh(self) -> None:
        """Redraw the header, the board, the action panel and the game's own parts."""
        app = App.get_running_app()
        session = app.table.session
        if session is None or self.manager is None or self.manager.current != self.name:
            return
        self.game_title = session.game.title
        board = self.ids.get("board")
        if board is not None:
            board.refresh(session)
        self.ids.panel.refresh()
        self._drawn = (app.revision, session)
        if self.name == f"game_{session.game.name}":
            self.redraw(session)

    def redraw(self, session: Session) -> None:
        """Draw what the game's screen adds (scores, hands, rings) from ``session``.

        Called after the header, board and panel, only while this screen is shown for the
        open game (a screen left over from another game is not drawn).
        """

    def ask_undo(self) -> None:
        """Open the log, where undo is confirmed."""
        App.get_running_app().go("log")


load_kv_beside(__file__)
