"""Infinifield's referee screen: the field, the counter ring, scores, and the actions."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty

from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinifield_view import counter_ring
from companion.app.widgets import infinifield_board as _board  # noqa: F401  (kv rules)
from companion.app.widgets import led_ring as _ring  # noqa: F401  (kv rules)


class InfinifieldScreen(RefereeScreen):
    """Field on the left; counter ring, round and scores, actions on the right.

    Attributes:
        scores: one line per player (initial, name, points or rounds won, out or not).
        round_text: the round number and the field builder.
        hint: what to do now (e.g. "tap a highlighted block to remove it").
    """

    scores = StringProperty("")
    round_text = StringProperty("")
    hint = StringProperty("")

    def refresh(self) -> None:
        """Redraw the field, ring, scores and actions."""
        super().refresh()
        app = App.get_running_app()
        session = app.table.session
        if session is None or session.game.name != "infinifield" or \
                self.manager is None or self.manager.current != self.name:
            return
        state = session.state
        self.ids.ring.states = counter_ring(state)
        out = dict(state.out)
        lines = []
        for name, score in state.scores().items():
            mark = "  ✗" if name in out else ""
            lines.append(f"[b]{name[:1]}[/b]  {name}: {score}{mark}")
        self.scores = "\n".join(lines)
        self.round_text = app.tr("game.round", round=state.round)
        self.hint = app.tr("game.removable") if state.phase == "remove" else ""


load_kv_beside(__file__)
