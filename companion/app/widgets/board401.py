"""The 401 Infinite board drawn from the engine: spaces, units with HP, the HP token.

Walls are dark, spawners show "S", base spaces are tinted with their side's colour *and*
lettered B or R; units are discs in their side's colour with their name and HP (and the
white/black number each seat reads on the indicator). Spaces some legal action names are
outlined in cyan; the selected unit's reachable spaces are filled cyan.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import StringProperty
from kivy.uix.widget import Widget

from companion.app.views.infinite401_view import (
    BoardView,
    board_view,
    move_action,
    move_targets,
    named_spaces,
)
from companion.session import Session

CELL_COLOURS = {"open": (0.80, 0.78, 0.72, 1), "wall": (0.22, 0.22, 0.25, 1),
                "spawner": (0.62, 0.50, 0.80, 1), "base-blue": (0.62, 0.74, 0.95, 1),
                "base-red": (0.95, 0.66, 0.62, 1)}
CELL_LETTERS = {"spawner": "S", "base-blue": "B", "base-red": "R"}
SIDE_COLOURS = {"blue": (0.16, 0.40, 0.92, 1), "red": (0.86, 0.18, 0.16, 1)}
TARGET = (0.35, 0.95, 1.0, 1)


def _texture(text: str, size: float, colour: tuple[float, ...], bold: bool = True) -> Any:
    label = CoreLabel(text=text, font_size=size, bold=bold, color=colour)
    label.refresh()
    return label.texture


class Board401(Widget):
    """The board; tap a unit of the side to move, then a highlighted space."""

    selected = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._session: Session | None = None
        self.view: BoardView | None = None
        self.bind(pos=lambda *_: self._redraw(), size=lambda *_: self._redraw(),
                  selected=lambda *_: self._redraw())

    def refresh(self, session: Session) -> None:
        """Redraw from the session (a selection of a unit that cannot move is dropped)."""
        self._session = session
        side = session.state.to_move
        if self.selected and not any(u.name == self.selected and u.side == side
                                     for u in session.state.units):
            self.selected = ""
        self._redraw()

    def cell_size(self) -> float:
        """The side of one space in pixels."""
        if self.view is None:
            return 0.0
        return min(self.width / self.view.width, self.height / self.view.height)

    def space_window_pos(self, space: tuple[int, int]) -> tuple[float, float]:
        """The centre of ``space`` in window coordinates."""
        x, y = self._origin()
        size = self.cell_size()
        return self.to_window(x + (space[0] + 0.5) * size, y + (space[1] + 0.5) * size)

    def _origin(self) -> tuple[float, float]:
        assert self.view is not None
        size = self.cell_size()
        return (self.x + (self.width - size * self.view.width) / 2,
                self.y + (self.height - size * self.view.height) / 2)

    def _legal(self) -> list[str]:
        assert self._session is not None
        game = self._session.game
        return [game.format_action(a) for a in self._session.legal_actions()]

    def _redraw(self) -> None:
        self.canvas.clear()
        if self._session is None or self.width < 10:
            return
        state = self._session.state
        self.view = view = board_view(state)
        legal = self._legal()
        named = named_spaces(legal)
        reach = move_targets(legal, state.to_move, self.selected) if self.selected else set()
        size = self.cell_size()
        ox, oy = self._origin()
        with self.canvas:
            for (c, r), kind in view.cells.items():
                x, y = ox + c * size, oy + r * size
                Color(*(TARGET if (c, r) in reach else CELL_COLOURS[kind]))
                Rectangle(pos=(x + 1, y + 1), size=(size - 2, size - 2))
                letter = CELL_LETTERS.get(kind)
                if letter:
                    texture = _texture(letter, size * 0.3, (0, 0, 0, 0.55))
                    Color(1, 1, 1, 1)
                    Rectangle(texture=texture, size=texture.size, pos=(x + 3, y + 2))
                if (c, r) in named and (c, r) not in reach:
                    Color(*TARGET)
                    Line(rectangle=(x + 2, y + 2, size - 4, size - 4), width=1.6)
            if view.token is not None:
                c, r = view.token
                Color(0.98, 0.80, 0.15, 1)
                d = size * 0.3
                Ellipse(pos=(ox + (c + 0.5) * size - d / 2, oy + (r + 0.85) * size - d / 2),
                        size=(d, d))
            for unit in view.units:
                c, r = unit.space
                cx, cy = ox + (c + 0.5) * size, oy + (r + 0.5) * size
                d = size * 0.84
                if unit.name == self.selected:
                    Color(1, 1, 1, 1)
                    Ellipse(pos=(cx - d / 2 - 3, cy - d / 2 - 3), size=(d + 6, d + 6))
                Color(*SIDE_COLOURS.get(unit.side, (0.5, 0.5, 0.5, 1)))
                Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d))
                Color(1, 1, 1, 1)
                hp = _texture(str(unit.hp), size * 0.42, (1, 1, 1, 1))
                Rectangle(texture=hp, size=hp.size, pos=(cx - hp.width / 2, cy - hp.height / 2))
                name = _texture(unit.name, size * 0.2, (1, 1, 1, 1))
                Rectangle(texture=name, size=name.size,
                          pos=(cx - name.width / 2, cy + d * 0.22))
                reads = _texture(f"w{unit.owner_reads} b{unit.opponent_reads}", size * 0.17,
                                 (1, 1, 1, 0.9), bold=False)
                Rectangle(texture=reads, size=reads.size,
                          pos=(cx - reads.width / 2, cy - d * 0.42))

    def on_touch_up(self, touch: Any) -> bool:
        """Select a unit of the side to move, or move the selected unit to the tapped space."""
        if self._session is None or self.view is None or not self.collide_point(*touch.pos):
            return False
        size = self.cell_size()
        ox, oy = self._origin()
        space = (int((touch.x - ox) // size), int((touch.y - oy) // size))
        if space not in self.view.cells:
            return False
        state = self._session.state
        mine = next((u for u in self.view.units
                     if u.space == space and u.side == state.to_move), None)
        if mine is not None:
            self.selected = "" if self.selected == mine.name else mine.name
            return True
        if self.selected:
            unit, self.selected = self.selected, ""
            App.get_running_app().propose(move_action(state.to_move, unit, space), "touch")
        return True
