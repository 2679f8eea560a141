"""The five LEDs of the turn-counter ring, drawn as the printed 5-turn counter circle.

Positions 1-4 and X go round clockwise; each LED carries its label (the second cue), and the
X LED turns red (and larger) when a block must be removed.
"""

from __future__ import annotations

import math

from kivy.graphics import Color, Ellipse, Line
from kivy.properties import ListProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.app import theme
from companion.app.simulated_outputs import RING_POSITIONS

STATE_COLOURS = {"off": theme.LED_OFF, "lit": theme.LED_LIT, "due": theme.LED_DUE}


class LedRing(Widget):
    """Draws the ring.

    Attributes:
        states: one of ``off``/``lit``/``due`` per position, in :data:`RING_POSITIONS` order.
    """

    states = ListProperty(["off"] * len(RING_POSITIONS))

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._labels = [Label(text=name, bold=True, font_size="18sp", color=(0, 0, 0, 1))
                        for name in RING_POSITIONS]
        for label in self._labels:
            self.add_widget(label)
        self.bind(pos=self._redraw, size=self._redraw, states=self._redraw)

    def led_centres(self) -> list[tuple[float, float]]:
        """Where each LED is drawn (window coordinates of this widget's parent)."""
        radius = min(self.width, self.height) * 0.36
        cx, cy = self.center
        centres = []
        for index in range(len(RING_POSITIONS)):
            angle = math.pi / 2 - index * 2 * math.pi / len(RING_POSITIONS)
            centres.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        return centres

    def led_diameter(self) -> float:
        """The diameter of an LED that is not calling for a removal."""
        return min(self.width, self.height) * 0.20

    def _redraw(self, *_args: object) -> None:
        self.canvas.before.clear()
        size = self.led_diameter()
        centres = self.led_centres()
        with self.canvas.before:
            Color(*theme.PANEL_LIGHT)
            radius = min(self.width, self.height) * 0.36
            Line(circle=(self.center_x, self.center_y, radius), width=3)
            for (x, y), state in zip(centres, self.states, strict=False):
                grow = 1.25 if state == "due" else 1.0
                Color(*STATE_COLOURS.get(state, theme.LED_OFF))
                d = size * grow
                Ellipse(pos=(x - d / 2, y - d / 2), size=(d, d))
        for label, (x, y), state in zip(self._labels, centres, self.states, strict=False):
            label.size = (size, size)
            label.center = (x, y)
            label.color = (0, 0, 0, 1) if state != "off" else (0.8, 0.8, 0.8, 1)
