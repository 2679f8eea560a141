"""Infinifield's referee screen: the field, the counter ring, scores, and the actions.

Issue 15: while a removal is due the hint line names the blocks that may go ("Tap a
highlighted block to remove it: W3, Y2"). Between rounds the old field gives way to a
round-end panel (who won the round, the scores, who builds the next field and what to do,
with the rebuild button); after the last round the same panel says who won the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.properties import StringProperty

from companion.app.kvload import load_kv_beside
from companion.app.screens.field_setup_choice import rebuild_camera_button
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinifield_view import RoundEnd, counter_ring, removable_names, round_end
from companion.app.widgets import infinifield_board as _board  # noqa: F401  (kv rules)
from companion.app.widgets import led_ring as _ring  # noqa: F401  (kv rules)
from companion.app.widgets.common import BigButton
from companion.games.infinifield import GAME
from companion.games.infinifield.actions import Action, Rebuild
from companion.games.infinifield.state import Phase
from companion.session import Session


class InfinifieldScreen(RefereeScreen):
    """Field on the left; counter ring, round and scores, actions on the right.

    Attributes:
        scores: one line per player (initial, name, points or rounds won, out or not).
        round_text: the round number and the field builder.
        hint: what to do now (e.g. "tap a highlighted block to remove it: W3, Y2").
        round_end_title: the round-end panel's title (who won the round or the match).
        round_end_scores: the scores on that panel (markup).
        round_end_next: who builds the next field and what to do (or how to play again).
    """

    scores = StringProperty("")
    round_text = StringProperty("")
    hint = StringProperty("")
    round_end_title = StringProperty("")
    round_end_scores = StringProperty("")
    round_end_next = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        """Keep the board and the round-end panel; only one of them is in the tree."""
        super().on_kv_post(base_widget)
        self._field_widgets = {"board": self.ids.board.__self__,
                               "round_end": self.ids.round_end_panel.__self__}
        self._show("board")

    def _show(self, which: str) -> None:
        area = self.ids.field_area
        for name, widget in self._field_widgets.items():
            if name == which and widget.parent is None:
                area.add_widget(widget)
            elif name != which and widget.parent is not None:
                area.remove_widget(widget)

    def redraw(self, session: Session) -> None:
        """Redraw the field (or the round-end panel), ring, scores and actions."""
        app = App.get_running_app()
        state = session.state
        self.ids.ring.states = counter_ring(state)
        out = dict(state.out)
        lines = []
        for name, score in state.scores().items():
            mark = "  ✗" if name in out else ""
            lines.append(f"[b]{name[:1]}[/b]  {name}: {score}{mark}")
        self.scores = "\n".join(lines)
        self.round_text = app.tr("game.round", round=state.round)
        blocks = removable_names(state)
        self.hint = app.tr("field.removable_blocks", blocks=", ".join(blocks)) if blocks \
            else app.tr("game.removable") if state.phase == Phase.REMOVE else ""
        ending = round_end(state)
        if ending is None:
            self._show("board")
            return
        self._show("round_end")
        self._fill_round_end(ending, session.legal_actions())

    def _fill_round_end(self, ending: RoundEnd, actions: Sequence[Action]) -> None:
        app = App.get_running_app()
        winners = ", ".join(ending.winners)
        if ending.match_over:
            self.round_end_title = app.tr("field.match_won", winners=winners)
            self.round_end_next = app.tr("field.match_next")
        else:
            self.round_end_title = app.tr("field.round_won", round=ending.round,
                                          winner=winners)
            self.round_end_next = app.tr("field.round_next", builder=ending.builder,
                                         round=ending.round + 1)
        unit = "field.points" if ending.scoring == "points" else "field.rounds_won"
        self.round_end_scores = "\n".join(
            f"[b]{name[:1]}[/b]  {name}: {app.tr(unit, count=score)}"
            + ("  ★" if name in ending.winners else "") for name, score in ending.scores)
        buttons = self.ids.round_end_buttons
        buttons.clear_widgets()
        for action in actions:
            text = GAME.format_action(action)
            same_layout = isinstance(action, Rebuild) and action.field is None \
                and action.player == ending.builder
            button = BigButton(text=app.tr("field.rebuilt", builder=ending.builder)
                               if same_layout
                               else app.translator.action_label("infinifield", text),
                               action=text, fill=(0.98, 0.74, 0.18, 0.9),
                               color=(0.1, 0.1, 0.1, 1))
            button.bind(on_release=lambda b: app.propose(b.action, "touch"))
            buttons.add_widget(button)
        if not ending.match_over:  # issue 12: the new field read from the camera
            buttons.add_widget(rebuild_camera_button(ending.builder), len(buttons.children))


load_kv_beside(__file__)
