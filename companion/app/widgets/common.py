"""Buttons, panels and headers every screen uses (styles in ``common.kv``).

Every tappable widget is at least :data:`companion.app.theme.TOUCH_MIN_PX` high.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.app import theme
from companion.app.kvload import load_kv_beside


class BigButton(Button):
    """A flat, rounded button sized for a fingertip.

    Attributes:
        fill: the button's colour.
        action: what the button does, in notation (game action buttons) or as a key.
    """

    fill = ColorProperty(list(theme.BUTTON))
    action = StringProperty("")
    selected = BooleanProperty(False)


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
