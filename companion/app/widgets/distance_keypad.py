"""A numeric keypad for a measured distance in inches (digits, a decimal point, delete).

Enter hands the typed number to ``on_enter``; a text that is not a number is kept on the
pad (nothing is proposed from it).
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from companion.app import theme
from companion.app.kvload import load_kv_beside
from companion.app.widgets.common import BigButton

DISTANCE_KEYS = ("7", "8", "9", "del", "4", "5", "6", "clear", "1", "2", "3", ".", "0",
                 "enter")
"""The keys row by row (4 per row; Enter spans the last row's rest)."""
WORD_KEYS = {"del": "keypad.del", "clear": "keypad.clear", "enter": "keypad.enter"}


def parse_inches(text: str) -> float | None:
    """The typed distance, or ``None`` if it is not a number of inches above 0.

    Example:
        >>> parse_inches("7.5"), parse_inches("."), parse_inches("0")
        (7.5, None, None)
    """
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 < value < 1000 else None


class DistanceKeypad(ModalView):
    """The keypad; ``on_enter(inches)`` is called with the distance keyed in.

    Attributes:
        text: the digits keyed so far.
    """

    text = StringProperty("")

    def __init__(self, on_enter: Callable[[float], object], **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._on_enter = on_enter
        app = App.get_running_app()
        for key in DISTANCE_KEYS:
            label = app.tr(WORD_KEYS[key]) if key in WORD_KEYS else key
            button = BigButton(text=label, action=key, font_size="24sp")
            if key == "enter":
                button.fill = theme.ACCEPTED
            button.bind(on_release=lambda b: self.press(b.action))
            self.ids.distance_keys.add_widget(button)

    def press(self, key: str) -> None:
        """Apply one key.

        Example: keys ``7``, ``.``, ``5`` give ``"7.5"``; a second ``.`` is ignored.
        """
        if key == "del":
            self.text = self.text[:-1]
        elif key == "clear":
            self.text = ""
        elif key == "enter":
            inches = parse_inches(self.text)
            if inches is not None:
                self.dismiss()
                self._on_enter(inches)
        elif key == "." and "." in self.text:
            return
        elif len(self.text) < 6:
            self.text += key


load_kv_beside(__file__)
