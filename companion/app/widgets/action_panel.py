"""The action panel of every game screen: who acts, and buttons for what may happen next.

The buttons come from the engine's ``legal_actions`` (never from rules written here),
grouped by verb. When the engine waits for chance, the panel offers the companion's draw
(which stands: it cannot be undone), named for what chance does in this game now - "Roll
the dice", "Shuffle the deck", "Flip a coin" (:func:`companion.app.verdict_text.chance_kind`)
- and, for dice and coins, a field to type what the physical ones show (which can be
corrected with undo). A shuffle's order is never typed or shown here: it is hidden
information. Once the game is over it shows the outcome.

A game screen may present the listed actions its own way (``action_view``: Infinidungeon's
reroll choices best first, in words); every button still proposes the engine's notation.
Whenever the list changes, it opens scrolled to the top.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.app import theme
from companion.app.kvload import load_kv_beside
from companion.app.verdict_text import chance_kind
from companion.app.widgets.common import BigButton
from companion.app.widgets.dice_keypad import DiceKeypad
from companion.games.core import CHANCE

MAX_BUTTONS = 60
"""More legal actions than this are reached by typing or by the board, not by buttons."""

ActionView = Callable[[list[str]], "tuple[str, list[tuple[str, str]]] | None"]
"""A screen's presentation of the listed actions: ``(headline, [(label, action), ...])`` in
the order to show, or ``None`` for the plain list."""

TYPED_CHANCE = ("roll", "flip")
"""Chance the players may settle with physical things and type in: dice and coins."""


def _fit_height(button: BigButton, texture_size: Any) -> None:
    """Make ``button`` tall enough for every line of its label (never under a fingertip)."""
    button.height = max(theme.TOUCH_MIN_PX, texture_size[1] + 16)


class ActionPanel(BoxLayout):
    """Buttons for the legal actions of the open game.

    Attributes:
        mode: ``choose`` (buttons), ``chance`` (roll / enter dice) or ``over``.
        verb: the verb whose actions are listed.
        headline: who acts, or the outcome.
        chance_prefix: what a typed physical roll is prefixed with (``roll``).
        action_filter: a game screen's rewrite of the listed actions (Infinity puts the
            measured distance into its attacks), or ``None``.
        action_view: a game screen's presentation of the listed actions (labels, order and
            headline), or ``None``.
        chance_kind: what chance does now: ``roll``, ``shuffle``, ``flip`` or ``reveal``.

    Events:
        on_propose(action, source): a tapped action (``touch``) or a typed roll (``typed``)
            for the referee; the screen holding the panel passes it on.
    """

    __events__ = ("on_propose",)

    action_filter: Callable[[list[str]], list[str]] | None = None
    action_view: ActionView | None = None
    chance_kind = StringProperty("roll")

    mode = StringProperty("choose")
    verb = StringProperty("")
    headline = StringProperty("")
    chance_prefix = StringProperty("roll")
    show_verbs = BooleanProperty(True)

    def on_kv_post(self, base_widget: Any) -> None:
        """Keep the optional rows; they are in the tree only while they are used.

        A hidden (zero-height or disabled) widget would still swallow touches, so rows that
        do not apply are taken out of the layout instead.
        """
        self._rows = {"verbs": self.ids.verbs.__self__, "chance": self.ids.chance_box.__self__}
        self._typed_rows = [self.ids.physical_hint.__self__, self.ids.physical_row.__self__]
        self._keypad = self.ids.keypad_button.__self__
        self._shown_actions: list[tuple[str, str]] = []
        self._place()

    def _place(self) -> None:
        wanted = {"verbs": self.mode == "choose" and self.show_verbs,
                  "chance": self.mode == "chance"}
        for name, row in self._rows.items():
            if wanted[name] and row.parent is None:
                self.add_widget(row, index=1)  # between the headline and the action list
            elif not wanted[name] and row.parent is not None:
                self.remove_widget(row)
        box = self._rows["chance"]
        typed = self.chance_kind in TYPED_CHANCE
        for row in self._typed_rows:
            if typed and row.parent is None:
                box.add_widget(row, index=0)
            elif not typed and row.parent is not None:
                box.remove_widget(row)
        keypad = self.chance_kind == "roll"
        row = self._typed_rows[1]
        if keypad and self._keypad.parent is None:
            row.add_widget(self._keypad, index=1)
        elif not keypad and self._keypad.parent is not None:
            self._keypad.parent.remove_widget(self._keypad)

    def on_chance_kind(self, *_args: Any) -> None:
        """Offer typing only for what the players can settle by hand (dice, coins)."""
        if hasattr(self, "_rows"):
            self._place()

    def on_mode(self, *_args: Any) -> None:
        """Show only the rows of the current mode."""
        if hasattr(self, "_rows"):
            self._place()

    def on_show_verbs(self, *_args: Any) -> None:
        """Show the verb row only when there is more than one verb."""
        if hasattr(self, "_rows"):
            self._place()

    def refresh(self) -> None:
        """Rebuild from the controller's session."""
        app = App.get_running_app()
        session = app.table.session
        if session is None:
            return
        outcome = session.outcome
        if outcome is not None:
            self.mode = "over"
            detail = outcome.detail or outcome.termination
            self.headline = app.tr("game.over", winners=", ".join(outcome.winners),
                                   detail=detail) if outcome.winners \
                else app.tr("game.over_no_winner", detail=detail)
            self._fill([])
            return
        actor = session.game.current_actor(session.state)
        if actor == CHANCE:
            self.chance_kind = chance_kind(session.game, session.state)
            self.mode = "chance"
            self.headline = app.tr("game.chance" if self.chance_kind == "roll"
                                   else f"game.chance_{self.chance_kind}")
            self._fill([])
            return
        self.mode = "choose"
        self.headline = app.tr("game.turn", player=app.translator.actor(actor))
        grouped = app.table.actions_by_verb()
        if self.verb not in grouped:
            self.verb = next(iter(grouped), "")
        self._fill_verbs(list(grouped))
        actions = grouped.get(self.verb, [])
        if self.action_filter is not None:
            actions = self.action_filter(actions)
        view = self.action_view(actions) if self.action_view is not None else None
        if view is not None:
            self.headline, labelled = view
            self._fill_labelled(labelled[:MAX_BUTTONS])
            return
        self._fill(actions[:MAX_BUTTONS])

    def _fill_verbs(self, verbs: list[str]) -> None:
        row = self._rows["verbs"]
        row.clear_widgets()
        self.show_verbs = len(verbs) > 1
        if not self.show_verbs:
            return
        for verb in verbs:
            game = App.get_running_app().table.require_session().game.name
            button = BigButton(text=App.get_running_app().translator.verb(game, verb),
                               action=verb, selected=verb == self.verb,
                               font_size="17sp")
            button.bind(on_release=lambda b: self.choose_verb(b.action))
            row.add_widget(button)

    def _fill(self, actions: list[str]) -> None:
        app = App.get_running_app()
        game = app.table.session.game.name if app.table.session is not None else ""
        self._fill_labelled([(app.translator.action_label(game, text), text)
                             for text in actions])

    def _fill_labelled(self, labelled: list[tuple[str, str]]) -> None:
        grid = self.ids.actions
        grid.clear_widgets()
        for label, action in labelled:
            button = BigButton(text=label, action=action, font_size="18sp")
            button.bind(on_release=lambda b: self.propose(b.action))
            button.bind(texture_size=_fit_height)  # a long label grows its button
            grid.add_widget(button)
        if labelled != self._shown_actions:
            self.ids.action_scroll.scroll_y = 1  # a new list opens at its top
        self._shown_actions = list(labelled)

    def choose_verb(self, verb: str) -> None:
        """List the actions of ``verb``."""
        self.verb = verb
        self.refresh()

    def propose(self, text: str) -> None:
        """Propose the tapped action."""
        self.dispatch("on_propose", text, "touch")

    def on_propose(self, action: str, source: str) -> None:
        """An action for the referee (bound by the screen)."""

    def roll(self) -> None:
        """Let the companion roll."""
        App.get_running_app().roll()

    def open_keypad(self) -> DiceKeypad:
        """Key in what the physical dice show without a keyboard."""
        keypad = DiceKeypad(on_enter=self._keyed)
        keypad.open()
        return keypad

    def _keyed(self, typed: str) -> None:
        self.ids.physical.text = typed
        self.enter_physical()

    def enter_physical(self, *_args: Any) -> None:
        """Propose what the physical dice show, as typed (``3 5 6`` -> ``roll 3 5 6``)."""
        field = self.ids.physical
        typed = field.text.strip()
        if not typed:
            return
        first = typed.split()[0]
        if self.chance_kind == "flip":
            text = typed if first == "flip" else f"flip {typed.lower()}"
        else:
            text = typed if not first.isdigit() else f"{self.chance_prefix} {typed}"
        field.text = ""
        self.dispatch("on_propose", text, "typed")


load_kv_beside(__file__)
