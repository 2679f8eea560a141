"""The Defiance of Fate hex map: the placed tiles (named), and each leader's pawn.

Pawns are discs in their player's seat colour *and* carry the player's initial.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.uix.widget import Widget

from companion.app import theme
from companion.app.views.defiance_view import DefianceView, hex_centre

TILE = (0.30, 0.42, 0.36, 1)
TILE_FLIPPED = (0.42, 0.34, 0.50, 1)
RIFT = (0.55, 0.30, 0.62, 1)


def _texture(text: str, size: float, colour: tuple[float, ...]) -> Any:
    label = CoreLabel(text=text, font_size=size, bold=True, color=colour)
    label.refresh()
    return label.texture


class HexMap(Widget):
    """Draws the tiles and pawns of a :class:`DefianceView`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: DefianceView | None = None
        self.seats: list[str] = []
        self.bind(pos=lambda *_: self.redraw(), size=lambda *_: self.redraw())

    def show(self, view: DefianceView, seats: list[str]) -> None:
        """Draw ``view``; ``seats`` orders the players (their colours)."""
        self.view, self.seats = view, seats
        self.redraw()

    def layout(self) -> tuple[float, float, float]:
        """The hex radius and the pixel offset of hex (0, 0)."""
        assert self.view is not None
        unit = [hex_centre(pos, 1.0) for _, pos, _ in self.view.tiles] or [(0.0, 0.0)]
        xs, ys = [p[0] for p in unit], [p[1] for p in unit]
        span_x, span_y = max(xs) - min(xs) + 2, max(ys) - min(ys) + 2.2
        size = min(self.width / span_x, self.height / span_y, 60.0)
        ox = self.center_x - (max(xs) + min(xs)) / 2 * size
        oy = self.center_y - (max(ys) + min(ys)) / 2 * size
        return size, ox, oy

    def pawn_window_pos(self, player: str) -> tuple[float, float]:
        """Where ``player``'s pawn is drawn, in window coordinates."""
        assert self.view is not None
        size, ox, oy = self.layout()
        pos = dict(self.view.pawns)[player]
        x, y = hex_centre(pos, size)
        return self.to_window(ox + x, oy + y)

    def redraw(self) -> None:
        """Draw the tiles and the pawns."""
        self.canvas.clear()
        if self.view is None or self.width < 10:
            return
        size, ox, oy = self.layout()
        with self.canvas:
            for name, pos, flipped in self.view.tiles:
                x, y = hex_centre(pos, size)
                corners = [(ox + x + size * 0.96 * math.cos(math.radians(60 * i + 30)),
                            oy + y + size * 0.96 * math.sin(math.radians(60 * i + 30)))
                           for i in range(6)]
                Color(*(RIFT if name == "rift" else TILE_FLIPPED if flipped else TILE))
                vertices = [c for corner in corners for c in (*corner, 0, 0)]
                Mesh(vertices=vertices, indices=list(range(6)), mode="triangle_fan")
                Color(0.05, 0.05, 0.07, 1)
                Line(points=[c for corner in (*corners, corners[0]) for c in corner], width=1.4)
                label = _texture(name[:10], max(9.0, size * 0.22), (1, 1, 1, 0.85))
                Color(1, 1, 1, 1)
                Rectangle(texture=label, size=label.size,
                          pos=(ox + x - label.width / 2, oy + y + size * 0.35))
            for player, pos in self.view.pawns:
                x, y = hex_centre(pos, size)
                seat = self.seats.index(player) if player in self.seats else 0
                d = size * 0.7
                others = [p for p, q in self.view.pawns if q == pos]
                shift = (others.index(player) - (len(others) - 1) / 2) * d * 0.7
                cx, cy = ox + x + shift, oy + y - size * 0.1
                Color(0, 0, 0, 1)
                Ellipse(pos=(cx - d / 2 - 2, cy - d / 2 - 2), size=(d + 4, d + 4))
                Color(*theme.player_colour(seat))
                Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d))
                initial = _texture(player[:1].upper(), d * 0.6, (0, 0, 0, 1))
                Color(1, 1, 1, 1)
                Rectangle(texture=initial, size=initial.size,
                          pos=(cx - initial.width / 2, cy - initial.height / 2))
