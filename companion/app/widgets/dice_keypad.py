"""A keypad for what physical dice show, so a touchscreen needs no keyboard.

Digits for numbered dice (d6, d20), the action dice's faces F, P, T and 0, a space between
dice, delete, and Enter (which proposes the roll, exactly as typing it would).
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from companion.app import theme
from companion.app.dice_tools import KEYPAD_KEYS, WORD_KEYS
from companion.app.kvload import load_kv_beside
from companion.app.widgets.common import BigButton


class DiceKeypad(ModalView):
    """The keypad; ``on_enter(text)`` is called with what was keyed in.

    Attributes:
        text: the faces keyed so far, separated by spaces.
    """

    text = StringProperty("")

    def __init__(self, on_enter: Callable[[str], object], **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._on_enter = on_enter
        app = App.get_running_app()
        for key in KEYPAD_KEYS:
            label = app.tr(f"keypad.{key}") if key in WORD_KEYS else key
            button = BigButton(text=label, action=key, font_size="24sp")
            if key == "enter":
                button.fill = theme.ACCEPTED
            button.bind(on_release=lambda b: self.press(b.action))
            self.ids.keypad_keys.add_widget(button)

    def press(self, key: str) -> None:
        """Apply one key.

        Example: keys ``1``, ``2``, ``space``, ``5`` give ``"12 5"``.
        """
        if key == "space":
            if self.text and not self.text.endswith(" "):
                self.text += " "
        elif key == "del":
            self.text = self.text[:-1]
        elif key == "enter":
            typed = self.text.strip()
            self.dismiss()
            if typed:
                self._on_enter(typed)
        else:
            self.text += key


load_kv_beside(__file__)
