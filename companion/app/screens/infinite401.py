"""401 Infinite's referee screen: the board, the sides' cards, actions left, the actions."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty

from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinite401_view import side_summary
from companion.app.widgets import board401 as _board  # noqa: F401  (kv rules)


class Infinite401Screen(RefereeScreen):
    """Board on the left; turn, actions left, cards per side and the actions on the right.

    Attributes:
        turn_text: whose turn and how many actions are left.
        sides_text: hand, stack and deck per side (markup).
    """

    turn_text = StringProperty("")
    sides_text = StringProperty("")

    def refresh(self) -> None:
        """Redraw from the session."""
        super().refresh()
        app = App.get_running_app()
        session = app.table.session
        if session is None or session.game.name != "401" or \
                self.manager is None or self.manager.current != self.name:
            return
        state = session.state
        self.turn_text = app.tr("i401.turn", turn=state.turn + 1, side=state.to_move.title(),
                                actions=state.actions_left)
        self.sides_text = "\n".join(
            f"[b]{name.title()}[/b]  {side_summary(state, index)}"
            for index, name in enumerate(("blue", "red")))


load_kv_beside(__file__)
