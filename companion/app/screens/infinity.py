"""Infinity's referee screen.

Round and Order pool, troopers with Wounds, and the exact odds of the declared exchange
before its dice are rolled.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty

from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinity_view import infinity_view

PIPS_FONT = "DejaVuSans"
"""Kivy's bundled font with the filled and hollow circles of the Wound pips."""


class InfinityScreen(RefereeScreen):
    """Troopers and odds on the left, actions on the right.

    Attributes:
        turn_text: round, active player, Orders left.
        troopers_text: one line per visible trooper (markup), by player.
        odds_text: the declared exchange's odds, or empty.
    """

    turn_text = StringProperty("")
    troopers_text = StringProperty("")
    odds_text = StringProperty("")

    def refresh(self) -> None:
        """Redraw from the session."""
        super().refresh()
        app = App.get_running_app()
        session = app.table.session
        if session is None or session.game.name != "infinity" or \
                self.manager is None or self.manager.current != self.name:
            return
        view = infinity_view(session.state)
        self.turn_text = app.tr("infinity.turn", round=view.round, rounds=view.rounds,
                                player=view.active, orders=view.orders)
        lines = []
        hidden = dict(view.hidden)
        for player in dict.fromkeys(t.owner for t in view.troopers) | dict.fromkeys(hidden):
            lines.append(f"[b]{player}[/b]")
            for trooper in (t for t in view.troopers if t.owner == player):
                pips = trooper.text().replace(
                    trooper.text().split("  ")[1], f"[font={PIPS_FONT}]"
                    f"{trooper.text().split('  ')[1]}[/font]", 1)
                lines.append(f"   [s]{pips}[/s]" if trooper.status == "removed" else
                             f"   {pips}")
            if hidden.get(player):
                lines.append("   " + app.tr("infinity.hidden", count=hidden[player]))
        self.troopers_text = "\n".join(lines)
        self.odds_text = "\n".join(view.odds)


load_kv_beside(__file__)
