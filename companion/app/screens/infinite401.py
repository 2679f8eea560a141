"""401 Infinite's referee screen: the board, the turn, the hand of the side to act, actions.

Issue 15: the board takes the left of the screen at a size where every space is a
fingertip's target (over 48 px at 800x480: drawn turned a quarter, with coordinates along
its edges); the header counts turns from 1 (``state.turn`` is already the turn being
played) and names no side before the coin flip; the right side switches between the action
buttons and the hand of the side to act, each card with its reference-sheet text.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import NumericProperty, OptionProperty, StringProperty

from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinite401_view import hand_view, side_summary, turn_line
from companion.app.widgets import board401 as _board  # noqa: F401  (kv rules)
from companion.session import Session

BOARD_SHARE = 0.63
"""The share of the screen's width the board's panel takes."""


class Infinite401Screen(RefereeScreen):
    """Board on the left; the turn, then the actions or the hand (and cards per side).

    Attributes:
        turn_text: the turn, the side to act and its actions left (or the setup step).
        sides_text: hand, stack and deck per side (markup).
        hand_text: the side to act's hand, each card's name, type and text (markup).
        hand_tab_text: the Hand tab's label, with the number of cards.
        tab: ``actions`` or ``hand``: what the right side shows.
        board_width: the board panel's width in pixels.
    """

    turn_text = StringProperty("")
    sides_text = StringProperty("")
    hand_text = StringProperty("")
    hand_tab_text = StringProperty("")
    tab = OptionProperty("actions", options=["actions", "hand"])
    board_width = NumericProperty(500)

    def on_kv_post(self, base_widget: Any) -> None:
        """Keep both tab contents; only the chosen one is in the tree.

        A hidden widget would still take touches, so the other tab's is taken out.
        """
        super().on_kv_post(base_widget)
        self._tab_widgets = {"actions": self.ids.panel.__self__,
                             "hand": self.ids.hand_panel.__self__}
        self.bind(width=self._size_board)
        self._size_board()
        self.ids.panel.action_view = self.side_actions
        self.on_tab()

    def side_actions(self, actions: list[str]) -> tuple[str, list[tuple[str, str]]] | None:
        """The action list under "Red to play" (the side's name as a word of the language)."""
        app = App.get_running_app()
        session = app.table.session
        if session is None or session.game.name != "401" or not session.state.to_move:
            return None
        side = app.translator.label(f"term.401.side.{session.state.to_move}",
                                    session.state.to_move).title()
        return app.tr("game.turn", player=side), [
            (app.translator.action_label("401", action), action) for action in actions]

    def _size_board(self, *_args: Any) -> None:
        self.board_width = round(self.width * BOARD_SHARE)

    def on_tab(self, *_args: Any) -> None:
        """Show the chosen tab: the action buttons or the hand."""
        widgets = getattr(self, "_tab_widgets", None)
        if widgets is None:
            return
        area = self.ids.tab_area
        for name, widget in widgets.items():
            if name == self.tab and widget.parent is None:
                area.add_widget(widget)
            elif name != self.tab and widget.parent is not None:
                area.remove_widget(widget)
        if self.tab == "hand":
            self.ids.hand_scroll.scroll_y = 1

    def redraw(self, session: Session) -> None:
        """Redraw from the session."""
        app = App.get_running_app()
        state = session.state

        def side_name(side: str) -> str:
            return app.translator.label(f"term.401.side.{side}", side).title()

        self.turn_text = turn_line(state, app.tr, side_name)
        self.sides_text = "\n".join(
            f"[b]{side_name(name)}[/b]  {side_summary(state, index, app.tr)}"
            for index, name in enumerate(("blue", "red")))
        side = state.to_move
        cards = hand_view(state, side) if side else ()
        self.hand_tab_text = app.tr("i401.hand_tab", count=len(
            [card for card in cards if card.kind != "passive"])) if side \
            else app.tr("i401.hand_tab_none")
        if not side:
            self.tab = "actions"
        lines = [app.tr("i401.hand_of", side=side_name(side))] if side else []
        for card in cards:
            kind = f" ({card.kind})" if card.kind else ""
            lines.append(f"[b]{card.name}[/b]{kind}: {card.text}")
        lines.append(app.tr("i401.readings"))
        self.hand_text = "\n".join(lines)


load_kv_beside(__file__)
