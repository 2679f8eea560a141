"""Infinities: Defiance of Fate's referee screen.

Round and turn order, the leaders (Health, attribute tracks, gambit, Points), the action
dice of the turn (coloured by attribute, lettered by face), the hex map, and the actions.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty

from companion.app.dice_tools import DIE_KINDS
from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.screens.tools import DieFace
from companion.app.views.defiance_view import defiance_view
from companion.app.widgets import hexmap as _hexmap  # noqa: F401  (kv rules)
from companion.session import Session


class DefianceScreen(RefereeScreen):
    """Map and leaders on the left, dice and actions on the right.

    Attributes:
        order_text: round and turn order (the acting leader in bold).
        leaders_text: one line per leader (markup).
        choice_text: the choice the referee waits for (a timeline over its limit), or "".
    """

    order_text = StringProperty("")
    leaders_text = StringProperty("")
    choice_text = StringProperty("")

    def redraw(self, session: Session) -> None:
        """Redraw from the session."""
        app = App.get_running_app()
        view = defiance_view(session.state)
        order = " > ".join(f"[b][u]{p}[/u][/b]" if p == view.acting else p for p in view.order)
        self.order_text = app.tr("defiance.round", round=view.round, order=order or "-")
        self.choice_text = "" if view.choice is None else app.tr(
            "defiance.trim", leader=view.choice[0], count=view.choice[1], limit=view.choice[2])
        self.leaders_text = "\n".join(
            f"[b]{line.text()}[/b]" if line.acting else line.text() for line in view.leaders)
        self.ids.map.show(view, [seat.name for seat in session.state.seats])
        tray = self.ids.dice
        tray.clear_widgets()
        for kind, face, spent in view.dice:
            colour = (*DIE_KINDS[kind].colour, 0.35 if spent else 1)
            tray.add_widget(DieFace(text=face, fill=colour, size=(44, 44),
                                            font_size="22sp"))


load_kv_beside(__file__)
