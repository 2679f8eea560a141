"""The 401 Infinite board drawn from the engine: spaces, units with HP, the HP token.

Walls are dark, spawners show "S", base spaces are tinted with their side's colour *and*
lettered B or R; units are rounded squares in their side's colour with their name, HP and the
white/black number each seat reads on the indicator (issue 15: at least 12 px). Spaces some
legal action names are outlined in cyan; the selected unit's reachable spaces are filled
cyan. Column letters and row numbers run along two edges, so "c5" can be found.

On a landscape screen the 7 x 9 board is drawn turned a quarter to the right (row 1, Blue's
base, on the left; column a on top) whenever that gives bigger spaces: at 800x480 a space is
then over 48 px, a fingertip's target. A refusal that carries the straight line it tested
(``line``, ``line_spaces`` and ``space`` in its params, see ``docs/401-infinite.md``
"Straight lines") is drawn as a red line with the crossed spaces outlined and the blocking
space ringed.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.widget import Widget

from companion.app.views.infinite401_view import (
    BoardView,
    board_view,
    move_action,
    move_targets,
    named_spaces,
    refused_line,
)
from companion.session import Session

CELL_COLOURS = {"open": (0.80, 0.78, 0.72, 1), "wall": (0.22, 0.22, 0.25, 1),
                "spawner": (0.62, 0.50, 0.80, 1), "base-blue": (0.62, 0.74, 0.95, 1),
                "base-red": (0.95, 0.66, 0.62, 1)}
CELL_LETTERS = {"spawner": "S", "base-blue": "B", "base-red": "R"}
SIDE_COLOURS = {"blue": (0.16, 0.40, 0.92, 1), "red": (0.86, 0.18, 0.16, 1)}
TARGET = (0.35, 0.95, 1.0, 1)
REFUSED_LINE = (1.0, 0.10, 0.35, 1)
COORD_COLOUR = (0.85, 0.88, 0.92, 1)
MARGIN_PX = 18
"""Room along two edges for the coordinates."""
MIN_TEXT_PX = 12
"""No text on the board is smaller than this (unit names, indicator readings)."""


def _texture(text: str, size: float, colour: tuple[float, ...], bold: bool = True) -> Any:
    label = CoreLabel(text=text, font_size=max(size, MIN_TEXT_PX), bold=bold, color=colour)
    label.refresh()
    return label.texture


class Board401(Widget):
    """The board; tap a unit of the side to move, then a highlighted space.

    Attributes:
        selected: the selected unit's name.
        turned: whether the board is drawn a quarter turn to the right (landscape).

    Events:
        on_propose(action, source): a move tapped on the board, for the referee.
    """

    __events__ = ("on_propose",)

    selected = StringProperty("")
    turned = BooleanProperty(False)

    def on_propose(self, action: str, source: str) -> None:
        """An action for the referee (bound by the screen)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._session: Session | None = None
        self.view: BoardView | None = None
        self.text_sizes: dict[str, float] = {}
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

    # -- geometry --------------------------------------------------------------------------
    def _grid(self) -> tuple[int, int]:
        """Columns and rows of spaces across and up the screen."""
        assert self.view is not None
        return (self.view.height, self.view.width) if self.turned \
            else (self.view.width, self.view.height)

    def _fit(self) -> None:
        assert self.view is not None
        room_w, room_h = self.width - MARGIN_PX, self.height - MARGIN_PX
        upright = min(room_w / self.view.width, room_h / self.view.height)
        turned = min(room_w / self.view.height, room_h / self.view.width)
        self.turned = turned > upright

    def cell_size(self) -> float:
        """The side of one space in pixels."""
        if self.view is None:
            return 0.0
        across, up = self._grid()
        return min((self.width - MARGIN_PX) / across, (self.height - MARGIN_PX) / up)

    def _screen_cell(self, space: tuple[int, int]) -> tuple[int, int]:
        """Which cell across and up the screen shows ``space``."""
        assert self.view is not None
        column, row = space
        return (row, self.view.width - 1 - column) if self.turned else (column, row)

    def _space_of(self, cell: tuple[int, int]) -> tuple[int, int]:
        assert self.view is not None
        across, up = cell
        return (self.view.width - 1 - up, across) if self.turned else (across, up)

    def _origin(self) -> tuple[float, float]:
        across, up = self._grid()
        size = self.cell_size()
        return (self.x + MARGIN_PX + (self.width - MARGIN_PX - size * across) / 2,
                self.y + MARGIN_PX + (self.height - MARGIN_PX - size * up) / 2)

    def _centre(self, space: tuple[int, int]) -> tuple[float, float]:
        ox, oy = self._origin()
        size = self.cell_size()
        across, up = self._screen_cell(space)
        return ox + (across + 0.5) * size, oy + (up + 0.5) * size

    def space_window_pos(self, space: tuple[int, int]) -> tuple[float, float]:
        """The centre of ``space`` in window coordinates."""
        return self.to_window(*self._centre(space))

    def _legal(self) -> list[Any]:
        assert self._session is not None
        return list(self._session.legal_actions())

    # -- drawing ---------------------------------------------------------------------------
    def _redraw(self) -> None:
        self.canvas.clear()
        if self._session is None or self.width < 10:
            return
        state = self._session.state
        self.view = view = board_view(state)
        self._fit()
        legal = self._legal()
        named = named_spaces(legal)
        reach = move_targets(legal, state.to_move, self.selected) if self.selected else set()
        size = self.cell_size()
        with self.canvas:
            for space, kind in view.cells.items():
                cx, cy = self._centre(space)
                x, y = cx - size / 2, cy - size / 2
                Color(*(TARGET if space in reach else CELL_COLOURS[kind]))
                Rectangle(pos=(x + 1, y + 1), size=(size - 2, size - 2))
                letter = CELL_LETTERS.get(kind)
                if letter:
                    texture = _texture(letter, size * 0.28, (0, 0, 0, 0.6))
                    Color(1, 1, 1, 1)
                    Rectangle(texture=texture, size=texture.size, pos=(x + 3, y + 2))
                if space in named and space not in reach:
                    Color(*TARGET)
                    Line(rectangle=(x + 2, y + 2, size - 4, size - 4), width=1.6)
            self._draw_coordinates(size)
            if view.token is not None:
                cx, cy = self._centre(view.token)
                Color(0.98, 0.80, 0.15, 1)
                d = size * 0.3
                Ellipse(pos=(cx + size * 0.2 - d / 2, cy + size * 0.2 - d / 2), size=(d, d))
            for unit in view.units:
                self._draw_unit(unit, size)
            self._draw_refused_line(size)

    def _draw_coordinates(self, size: float) -> None:
        assert self.view is not None
        ox, oy = self._origin()
        across, up = self._grid()
        for index in range(across):  # along the bottom edge
            space = self._space_of((index, 0))
            text = str(space[1] + 1) if self.turned else chr(ord("a") + space[0])
            texture = _texture(text, 14, COORD_COLOUR)
            Color(1, 1, 1, 1)
            Rectangle(texture=texture, size=texture.size,
                      pos=(ox + (index + 0.5) * size - texture.width / 2,
                           oy - MARGIN_PX + (MARGIN_PX - texture.height) / 2))
        for index in range(up):  # along the left edge
            space = self._space_of((0, index))
            text = chr(ord("a") + space[0]) if self.turned else str(space[1] + 1)
            texture = _texture(text, 14, COORD_COLOUR)
            Color(1, 1, 1, 1)
            Rectangle(texture=texture, size=texture.size,
                      pos=(ox - MARGIN_PX + (MARGIN_PX - texture.width) / 2,
                           oy + (index + 0.5) * size - texture.height / 2))
        self.text_sizes["coordinates"] = 14

    def _draw_unit(self, unit: Any, size: float) -> None:
        cx, cy = self._centre(unit.space)
        d = size - 6
        if unit.name == self.selected:
            Color(1, 1, 1, 1)
            RoundedRectangle(pos=(cx - d / 2 - 3, cy - d / 2 - 3), size=(d + 6, d + 6),
                             radius=[d * 0.3])
        Color(*SIDE_COLOURS.get(unit.side, (0.5, 0.5, 0.5, 1)))
        RoundedRectangle(pos=(cx - d / 2, cy - d / 2), size=(d, d), radius=[d * 0.25])
        name = _texture(unit.name, size * 0.26, (1, 1, 1, 1))
        hp = _texture(str(unit.hp), size * 0.36, (1, 1, 1, 1))
        reads = _texture(f"w{unit.owner_reads} b{unit.opponent_reads}", size * 0.24,
                         (1, 1, 1, 1), bold=False)
        Color(1, 1, 1, 1)
        Rectangle(texture=name, size=name.size,
                  pos=(cx - name.width / 2, cy + hp.height / 2 - 3))
        Rectangle(texture=hp, size=hp.size, pos=(cx - hp.width / 2, cy - hp.height / 2))
        Rectangle(texture=reads, size=reads.size,
                  pos=(cx - reads.width / 2, cy - hp.height / 2 - reads.height + 3))
        self.text_sizes.update(name=max(size * 0.26, MIN_TEXT_PX),
                               reads=max(size * 0.24, MIN_TEXT_PX))

    def _draw_refused_line(self, size: float) -> None:
        """The straight line a refused ability tested, if the last refusal carries it."""
        app = App.get_running_app()
        verdict = getattr(getattr(app, "table", None), "last_verdict", None)
        if verdict is None or verdict.legal or not verdict.params:
            return
        spaces, blocked = refused_line(verdict.params)
        if len(spaces) < 2:
            return
        Color(*REFUSED_LINE)
        points = [c for space in (spaces[0], spaces[-1]) for c in self._centre(space)]
        Line(points=points, width=3)
        for space in spaces[1:-1]:
            cx, cy = self._centre(space)
            Line(rectangle=(cx - size / 2 + 4, cy - size / 2 + 4, size - 8, size - 8), width=1.4)
        if blocked is not None:
            cx, cy = self._centre(blocked)
            Line(circle=(cx, cy, size * 0.46), width=3)

    def space_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The space under the point ``(x, y)`` (widget coordinates), if any."""
        if self.view is None:
            return None
        size = self.cell_size()
        ox, oy = self._origin()
        across, up = self._grid()
        cell = (int((x - ox) // size), int((y - oy) // size))
        if not (0 <= cell[0] < across and 0 <= cell[1] < up) or x < ox or y < oy:
            return None
        return self._space_of(cell)

    def on_touch_up(self, touch: Any) -> bool:
        """Select a unit of the side to move, or move the selected unit to the tapped space."""
        if self._session is None or self.view is None or not self.collide_point(*touch.pos):
            return False
        space = self.space_at(touch.x, touch.y)
        if space is None or space not in self.view.cells:
            return False
        state = self._session.state
        mine = next((u for u in self.view.units
                     if u.space == space and u.side == state.to_move), None)
        if mine is not None:
            self.selected = "" if self.selected == mine.name else mine.name
            return True
        if self.selected:
            unit, self.selected = self.selected, ""
            self.dispatch("on_propose", move_action(state.to_move, unit, space), "touch")
        return True
