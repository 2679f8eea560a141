"""Buttons, panels and headers every screen uses (styles in ``common.kv``).

Every tappable widget is at least :data:`companion.app.theme.TOUCH_MIN_PX` high.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.app import theme
from companion.app.kvload import load_kv_beside

MIN_FONT_SHARE = 0.6
"""Text is shrunk to no less than this share of its designed size to fit."""


def text_width(text: str, font_size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn on one line in the app font at ``font_size`` px."""
    from kivy.core.text import Label as CoreLabel

    return float(CoreLabel(font_size=font_size, bold=bold).get_extents(text)[0])


class FitsText:
    """Shrinks a label's font so that each word fits on one line in its width.

    Never below :data:`MIN_FONT_SHARE` of its designed size; with ``fit_whole`` the whole
    text must fit on one line. So no word breaks in the middle and no title wraps.

    Attributes:
        designed_font_size: the size the ``.kv`` rule asked for (``font_size`` is the one used).
    """

    designed_font_size = NumericProperty(0)
    fit_whole = False
    fit_margin = 14
    min_font_share = MIN_FONT_SHARE

    def _fit_bindings(self) -> None:
        me: Any = self
        self._fitting = False
        me.bind(text=self._fit, width=self._fit, font_size=self._designed)

    def _designed(self, _widget: Any, size: float) -> None:
        if not self._fitting:
            self.designed_font_size = size
            self._fit()

    def _fit(self, *_args: Any) -> None:
        me: Any = self
        text: str = me.text
        width: float = me.width - self.fit_margin
        designed: float = self.designed_font_size or me.font_size
        if not text or width <= 20:
            return
        pieces = [text] if self.fit_whole else text.split()
        longest = max(pieces, key=len) if pieces else ""
        wanted = designed
        if longest and len(longest) * designed * 0.8 > width:  # surely fits: no need to measure
            drawn = text_width(longest, designed, me.bold)
            if drawn > width:
                wanted = max(designed * self.min_font_share, designed * width / drawn)
                wanted = float(int(wanted))  # whole pixels: each size opens the font again
        if wanted != me.font_size:
            self._fitting = True
            me.font_size = wanted
            self._fitting = False


class BigButton(FitsText, Button):
    """A flat, rounded button sized for a fingertip.

    A long word shrinks its text rather than breaking in the middle ("Перебросить").

    Attributes:
        fill: the button's colour.
        action: what the button does, in notation (game action buttons) or as a key.
    """

    fill = ColorProperty(list(theme.BUTTON))
    action = StringProperty("")
    selected = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.designed_font_size = self.font_size
        self._fit_bindings()
        self._fit()


class FitLabel(FitsText, Label):
    """A one-line label (a title) whose font shrinks to fit its width instead of wrapping."""

    fit_whole = True
    fit_margin = 4

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.designed_font_size = self.font_size
        self._fit_bindings()
        self._fit()


class Panel(BoxLayout):
    """A rounded, slightly lighter area grouping related widgets."""

    fill = ColorProperty(list(theme.PANEL))


class Caption(Label):
    """Left-aligned text that wraps to its width."""


class Header(BoxLayout):
    """The top bar of a screen: a back button, a title and room for more buttons."""

    title = StringProperty("")
    back_to = StringProperty("home")


load_kv_beside(__file__)
