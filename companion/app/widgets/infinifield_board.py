"""The Infinifield field drawn from the engine.

Blocks with colour and letter, pawns with their player's colour and initial, removable
blocks ringed in magenta when a removal is due (and named in the hint line). Every block's
id is written where the block shows: on a 3D field a block partly under a higher one gets
its id on its visible part (:func:`companion.app.views.infinifield_view.label_spots`).

A tap on a block proposes the phase's action for it (see
:func:`companion.app.views.infinifield_view.tap_action`).
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.uix.widget import Widget

from companion.app import theme
from companion.app.views.infinifield_view import (
    BlockView,
    LabelSpot,
    block_at,
    block_views,
    label_spots,
    tap_action,
)
from companion.games.infinifield.actions import Move, Start
from companion.session import Session

OUTLINE = (0.05, 0.05, 0.07, 1)
TARGET = (0.35, 0.95, 1.0, 1)
"""Outline of the blocks a legal action of this turn names (where the pawn may go)."""


def legal_targets(session: Session) -> set[str]:
    """The blocks the legal ``start``/``move`` actions lead to (read from the typed actions)."""
    targets = set()
    for action in session.legal_actions():
        if isinstance(action, Start):
            targets.add(action.block)
        elif isinstance(action, Move):
            targets.add(action.target)
    return targets


def _text_texture(text: str, size: float, colour: tuple[float, ...]) -> Any:
    label = CoreLabel(text=text, font_size=size, bold=True, color=colour)
    label.refresh()
    return label.texture


class InfinifieldBoard(Widget):
    """The field, redrawn from the session on every change.

    Events:
        on_propose(action, source): the phase's action for a tapped block, for the referee.
    """

    __events__ = ("on_propose",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.views: list[BlockView] = []
        self.spots: dict[str, LabelSpot] = {}
        self.label_sizes: dict[str, float] = {}
        self._spots_key: Any = None
        self._session: Session | None = None
        self.bind(pos=lambda *_: self._redraw(), size=lambda *_: self._redraw())

    def on_propose(self, action: str, source: str) -> None:
        """An action for the referee (bound by the screen)."""

    def refresh(self, session: Session) -> None:
        """Redraw from the session's state."""
        self._session = session
        self._redraw()

    def view_of(self, block: str) -> BlockView:
        """The drawn block ``block`` (for tests and the camera overlay)."""
        for view in self.views:
            if view.id == block:
                return view
        raise KeyError(f"block {block} is not on the field")

    def block_window_pos(self, block: str) -> tuple[float, float]:
        """Where block ``block``'s centre is, in window coordinates."""
        x, y = self.view_of(block).centre
        return self.to_window(self.x + x, self.y + y)

    def _redraw(self) -> None:
        self.canvas.clear()
        if self._session is None or self.width < 10:
            return
        state = self._session.state
        self.views = block_views(state, self.width, self.height)
        players = list(state.rules.players)
        targets = legal_targets(self._session)
        key = (tuple((v.id, v.outline, v.pawn) for v in self.views))
        if key != self._spots_key:
            self.spots = label_spots(self.views, pawn_radius=self._pawn_radius())
            self._spots_key = key
        with self.canvas:
            for view in self.views:  # bottom first: a raised block covers what it rests on
                self._draw_block(view)
                self._draw_highlight(view, view.id in targets)
            for view in self.views:  # ids last, each where its block shows
                self._draw_label(view)
            for view in self.views:
                if view.pawn is not None:
                    self._draw_pawn(view, players.index(view.pawn))

    def _pawn_radius(self) -> float:
        """The pawn disc's radius on the typical block (labels keep clear of it)."""
        widths = [max(p[0] for p in v.outline) - min(p[0] for p in v.outline)
                  for v in self.views]
        if not widths:
            return 0.0
        widths.sort()
        return max(14.0, min(34.0, widths[len(widths) // 2] * 0.62)) / 2 + 2

    def _draw_block(self, view: BlockView) -> None:
        points = [(self.x + x, self.y + y) for x, y in view.outline]
        if view.raised:
            Color(0, 0, 0, 0.45)
            shadow = [(x + 5, y - 5) for x, y in points]
            _polygon(shadow)
        Color(*theme.BLOCK_COLOURS.get(view.colour, (0.5, 0.5, 0.5, 1)))
        _polygon(points)
        flat = [c for p in points + points[:1] for c in p]
        Color(*OUTLINE)
        Line(points=flat, width=1.6)

    def _draw_highlight(self, view: BlockView, target: bool) -> None:
        if not (view.removable or target):
            return
        points = [(self.x + x, self.y + y) for x, y in view.outline]
        flat = [c for p in points + points[:1] for c in p]
        Color(*(theme.REMOVABLE if view.removable else TARGET))
        Line(points=flat, width=4 if view.removable else 2.5, joint="miter")

    def _draw_label(self, view: BlockView) -> None:
        xs = [p[0] for p in view.outline]
        size = max(12.0, min(26.0, (max(xs) - min(xs)) * 0.36))
        spot = self.spots.get(view.id)
        if spot is not None and (spot.covered or view.pawn is not None):
            size = max(12.0, min(size, spot.room * 1.3))
        elif view.pawn is not None:
            size *= 0.7
        ink = (1, 1, 1, 1) if view.colour in ("red", "blue") else (0.1, 0.1, 0.12, 1)
        texture = _text_texture(view.id, size, ink)
        x, y = (spot.x, spot.y) if spot is not None else view.centre
        if view.pawn is not None and (spot is None or not spot.covered):
            ys = [p[1] for p in view.outline]  # keep the small id inside its block
            half_w, half_h = texture.width / 2 + 2, texture.height / 2 + 1
            x = min(max(x, min(xs) + half_w), max(xs) - half_w)
            y = min(max(y, min(ys) + half_h), max(ys) - half_h)
        cx, cy = self.x + x, self.y + y
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size,
                  pos=(cx - texture.width / 2, cy - texture.height / 2))
        self.label_sizes[view.id] = size

    def _draw_pawn(self, view: BlockView, seat: int) -> None:
        points = [(self.x + x, self.y + y) for x, y in view.outline]
        xs = [p[0] for p in points]
        d = max(14.0, min(34.0, (max(xs) - min(xs)) * 0.62))
        cx, cy = self.x + view.centre[0], self.y + view.centre[1]
        Color(0, 0, 0, 1)
        Ellipse(pos=(cx - d / 2 - 2, cy - d / 2 - 2), size=(d + 4, d + 4))
        Color(*theme.player_colour(seat))
        Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d))
        texture = _text_texture(view.pawn[:1].upper() if view.pawn else "?", d * 0.6,
                                (0, 0, 0, 1))
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size,
                  pos=(cx - texture.width / 2, cy - texture.height / 2))

    def on_touch_up(self, touch: Any) -> bool:
        """A tap on a block proposes the phase's action for it."""
        if not self.collide_point(*touch.pos) or self._session is None:
            return False
        block = block_at(self.views, touch.x - self.x, touch.y - self.y)
        if block is None:
            return False
        action = tap_action(self._session.state, block)
        if action is not None:
            self.dispatch("on_propose", action, "touch")
        return True


def _polygon(points: list[tuple[float, float]]) -> None:
    vertices: list[float] = []
    for x, y in points:
        vertices.extend((x, y, 0, 0))
    Mesh(vertices=vertices, indices=list(range(len(points))), mode="triangle_fan")
