"""A keypad for what physical dice show, so a touchscreen needs no keyboard.

The keys fit the dice the game waits for, found from the engine
(:func:`companion.app.dice_tools.keypad_kind`): 1-6 for six-sided dice, one tap per die (the
pad puts the space between dice itself); digits and "next die" for larger numbered dice;
F, P, T and 0 for the action dice; every key when the dice are unknown. Delete takes back
the last key, Cancel closes without entering anything, and Enter proposes the roll exactly
as typing it would. A roll the referee refuses stays on the pad, with the reason, to be
corrected.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from companion.app import theme
from companion.app.dice_tools import KEYPADS, ONE_TAP_KINDS, WORD_KEYS, keypad_kind
from companion.app.kvload import load_kv_beside
from companion.app.widgets.common import BigButton


class DiceKeypad(ModalView):
    """The keypad; ``on_enter(text)`` is called with what was keyed in.

    Attributes:
        text: the faces keyed so far, separated by spaces.
        kind: the keypad's dice (``d6``, ``numbered``, ``action`` or ``any``).
        problem: why the referee refused the last roll entered (kept to be corrected).
    """

    text = StringProperty("")
    kind = StringProperty("any")
    problem = StringProperty("")

    def __init__(self, on_enter: Callable[[str], object], kind: str | None = None,
                 **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._on_enter = on_enter
        app = App.get_running_app()
        session = app.table.session
        if kind is None:
            kind = keypad_kind(session.game, session.state) if session is not None else "any"
        self.kind = kind
        columns, keys = KEYPADS[kind]
        self.ids.keypad_keys.cols = columns
        for key in keys:
            label = app.tr(f"keypad.{key}") if key in WORD_KEYS else key
            button = BigButton(text=label, action=key,
                               font_size="17sp" if key in WORD_KEYS else "26sp")
            if key == "enter":
                button.fill = theme.ACCEPTED
            elif key == "cancel":
                button.fill = theme.DANGER
            button.bind(on_release=lambda b: self.press(b.action))
            self.ids.keypad_keys.add_widget(button)
        rows = -(-len(keys) // columns)
        self.height = 20 + 36 + 12 + 44 + rows * theme.TOUCH_MIN_PX + (rows - 1) * 6

    def press(self, key: str) -> None:
        """Apply one key.

        Example: on a d6 pad, keys ``1``, ``2``, ``5`` give ``"1 2 5"``; on the numbered pad,
        ``1``, ``2``, ``space``, ``5`` give ``"12 5"``.
        """
        self.problem = ""
        if key == "space":
            if self.text and not self.text.endswith(" "):
                self.text += " "
        elif key == "del":
            self.text = self.text[:-1].rstrip() if self.kind in ONE_TAP_KINDS \
                else self.text[:-1]
        elif key == "cancel":
            self.dismiss()
        elif key == "enter":
            self.enter()
        elif self.kind in ONE_TAP_KINDS and self.text and not self.text.endswith(" "):
            self.text += " " + key
        else:
            self.text += key

    def enter(self) -> None:
        """Propose what was keyed in; close unless the referee refused it."""
        typed = self.text.strip()
        if not typed:
            return
        app = App.get_running_app()
        before = app.table.last_verdict
        self._on_enter(typed)
        after = app.table.last_verdict
        if after is not None and after is not before and not after.legal \
                and app.table.session is not None:
            self.problem = app.table.detail(after, app.lang)
            return
        self.dismiss()


load_kv_beside(__file__)
