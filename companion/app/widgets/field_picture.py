"""The camera's picture of the field with what was read drawn over it, corrected by touch.

Each block read shows its top face's outline where the camera sees it and a round mark
with its colour and letter (W, Y, R, B; a grey cross for *not a block*) and, above the
table, its level in an amber badge; a block the camera could not see (assumed under others)
a ``?`` in a white badge until its colour is changed; a block under another is marked beside
it, joined by a line. Blocks that break a field-building rule are
outlined red. Touching pairs are green lines between the blocks; in touching mode the block
tapped is ringed amber and each neighbour it may touch green (thick: they touch, thin: they
do not), and a tap on a neighbour toggles the pair. Pawns seen are
small rings in their colour. A touch acts when lifted (a tap) or, held :data:`HOLD_S`,
as a long press while still held. In blocks mode, where a long press adds a block, a touch
held on the picture shows a ring round the point touched (:data:`HOLD_RING_PX`, larger than
a fingertip, white on a dark edge so it shows on light and dark photos): its arc fills
clockwise from the top over :data:`HOLD_S`, and it goes when the finger lifts (a tap) or the
long press acts. Each finger gets its own ring; in the other modes, where a long press is a
tap, none is drawn. The rings are an overlay (``canvas.after``): nothing under them moves,
and a redraw of the picture keeps them. The picture's crop and scale are fixed per reading
(:class:`companion.app.field_capture.SetupView`), so nothing moves under a finger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.uix.widget import Widget

from companion.app import theme
from companion.app.field_capture import Capture
from companion.app.field_view import HOLD_S, SetupView

MARK_PX = 36.0
"""Diameter of a block's mark (its tap target is larger: see ``TAP_RADIUS_PX``)."""
BADGE_PX = 18.0
"""Diameter of the level badge on the mark of a block above the table (or in levels mode)."""
RING_GAP = 5.0
"""Touching mode: rings around the selected block's mark and its neighbours', this far out."""
OUTLINE = (0.95, 0.95, 0.95, 0.9)
BROKEN = (1.0, 0.25, 0.2, 1)
TOUCHING = (0.25, 0.95, 0.35, 1)
DROPPED = (0.45, 0.45, 0.48, 1)
HOLD_RING_PX = 28.0
"""Radius of the ring round a touch held in blocks mode (it shows round a fingertip)."""
HOLD_RING_HZ = 30.0
"""How often a held touch's ring is redrawn as it fills."""
PAWN_COLOURS = {"green": (0.2, 0.8, 0.3, 1), "magenta": (0.9, 0.2, 0.8, 1),
                "cyan": (0.2, 0.85, 0.95, 1), "orange": (1.0, 0.55, 0.1, 1)}


def picture_texture(capture: Capture, view: SetupView) -> Texture:
    """The part of the frame the view shows, at the view's size, as a Kivy texture."""
    width, height = max(1, round(view.width)), max(1, round(view.height))
    x0, y0 = view.origin
    shift = np.array([[view.scale, 0.0, -x0 * view.scale], [0.0, view.scale, -y0 * view.scale]])
    shown = cv2.warpAffine(capture.frame, shift, (width, height), flags=cv2.INTER_AREA
                           if view.scale < 1 else cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(30, 24, 20))
    rgb = cv2.cvtColor(shown, cv2.COLOR_BGR2RGB)[::-1].copy()  # Kivy's rows go up
    texture = Texture.create(size=(width, height), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture


def _letter(text: str, colour: tuple[float, ...], size: float = 17) -> Any:
    label = CoreLabel(text=text, font_size=size, bold=True, color=colour)
    label.refresh()
    return label.texture


class FieldPicture(Widget):
    """The set-up picture: taps and long presses in picture px (y down from the top).

    ``on_tap(x, y)`` gets taps, ``on_hold(x, y)`` long presses (a touch held
    :data:`HOLD_S`); in blocks mode a held touch shows a filling ring (:attr:`rings`).

    Attributes:
        view: what is shown (``None`` before a reading).
        mode: ``blocks``, ``touching``, ``levels`` or ``move`` (the selected block ringed).
        broken: keys of blocks that break a rule (outlined red).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: SetupView | None = None
        self.mode = "blocks"
        self.broken: set[int] = set()
        self.on_tap: Callable[[float, float], Any] | None = None
        self.on_hold: Callable[[float, float], Any] | None = None
        self._pressed: dict[Any, tuple[tuple[float, float], Any]] = {}
        self._held_since: dict[Any, float] = {}  # blocks mode: touches that show a ring
        self._ring_angles: dict[Any, float] = {}
        self._ring_tick: Any = None
        self._ring_group = InstructionGroup()
        self.canvas.after.add(self._ring_group)
        self._texture: Texture | None = None
        self._letters: dict[tuple[str, tuple[float, ...]], Any] = {}
        self._tower_asks: set[int] = set()
        self.bind(pos=lambda *_: self.redraw(), size=lambda *_: self.redraw())

    def show(self, capture: Capture | None) -> None:
        """Show a new reading (fixing its crop and scale at the widget's size)."""
        if capture is None or self.width < 10 or self.height < 10:
            self.view, self._texture = None, None
        else:
            self.view = SetupView(capture, self.width, self.height)
            self._texture = picture_texture(capture, self.view)
        self.redraw()

    def window_point(self, x: float, y: float) -> tuple[float, float]:
        """A picture point (px, y down) in window coordinates."""
        return self.to_window(self.x + x, self.top - y)

    def on_touch_down(self, touch: Any) -> bool:
        """A touch on the picture: a tap or a long press at the point touched.

        Lifted before :data:`HOLD_S`, a tap; held that long, a long press (at once, while
        still held).
        """
        if not self.collide_point(*touch.pos) or self.view is None:
            return bool(super().on_touch_down(touch))
        touch.grab(self)
        point = (touch.x - self.x, self.top - touch.y)
        self._pressed[touch.uid] = (point, Clock.schedule_once(
            lambda _dt: self._held(touch.uid), HOLD_S))
        if self.mode == "blocks":  # only there does a long press do more than a tap
            self._held_since[touch.uid] = Clock.get_time()
            if self._ring_tick is None:
                self._ring_tick = Clock.schedule_interval(lambda _dt: self._draw_rings(),
                                                          1 / HOLD_RING_HZ)
            self._draw_rings()
        return True

    def _held(self, uid: Any) -> None:
        pressed = self._pressed.pop(uid, None)
        if self._held_since.pop(uid, None) is not None:
            self._draw_rings()
        if pressed is not None and self.on_hold is not None:
            self.on_hold(*pressed[0])

    def on_touch_up(self, touch: Any) -> bool:
        """The end of a touch begun on the picture: a tap, unless it was a long press."""
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        pressed = self._pressed.pop(touch.uid, None)
        if self._held_since.pop(touch.uid, None) is not None:
            self._draw_rings()
        if pressed is not None:
            pressed[1].cancel()
            if self.on_tap is not None:
                self.on_tap(*pressed[0])
        return True

    # -- drawing ---------------------------------------------------------------------------
    def _pt(self, p: tuple[float, float] | np.ndarray) -> tuple[float, float]:
        return (self.x + float(p[0]), self.top - float(p[1]))

    @property
    def rings(self) -> dict[Any, float]:
        """The rings drawn now: touch uid -> how far its arc is filled (degrees, 0-360)."""
        return dict(self._ring_angles)

    def _draw_rings(self) -> None:
        """Draw a ring round each touch held in blocks mode, filled as long as it is held.

        A faint dark track round the point, and over it a white arc on a dark edge, clockwise
        from the top, to 360 degrees at :data:`HOLD_S`. Runs at :data:`HOLD_RING_HZ` while a
        ring shows, and stops when none does.
        """
        group = self._ring_group
        group.clear()
        self._ring_angles.clear()
        if self.mode != "blocks" or self.view is None:
            self._held_since.clear()
        if not self._held_since:
            if self._ring_tick is not None:
                self._ring_tick.cancel()
                self._ring_tick = None
            return
        now = Clock.get_time()
        edge = theme.HOLD_RING_EDGE
        for uid, since in self._held_since.items():
            x, y = self._pt(self._pressed[uid][0])
            angle = min(360.0, max(0.0, 360.0 * (now - since) / HOLD_S))
            self._ring_angles[uid] = angle
            group.add(Color(*edge[:3], edge[3] * 0.4))
            group.add(Line(circle=(x, y, HOLD_RING_PX), width=2.5))
            if angle < 1:
                continue
            group.add(Color(*edge))
            group.add(Line(circle=(x, y, HOLD_RING_PX, 0, angle), width=4))
            group.add(Color(*theme.HOLD_RING))
            group.add(Line(circle=(x, y, HOLD_RING_PX, 0, angle), width=2))

    def redraw(self) -> None:
        """Draw the picture and the field as it stands now (and any held touch's ring)."""
        self._draw_field()
        self._draw_rings()

    def _draw_field(self) -> None:
        self.canvas.clear()
        view = self.view
        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            if view is None or self._texture is None:
                return
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=self.pos, size=(view.width, view.height))
            draft = view.capture.draft
            for block in draft.blocks.values():
                if block.present:
                    self._outline(view, block.key)
            self._pairs(view)
            for pawn in draft.pawns:
                Color(*PAWN_COLOURS.get(pawn.colour, OUTLINE))
                x, y = self._pt(view.pawn_mark(pawn))
                Line(circle=(x, y, 9), width=2.5)
            self._tower_asks = {b.key for b in draft.tower_asks()}
            for key in draft.blocks:
                self._mark(view, key)
            self._rings(view)

    def _outline(self, view: SetupView, key: int) -> None:
        points = [self._pt(p) for p in view.outline(key)]
        Color(*(BROKEN if key in self.broken else OUTLINE))
        Line(points=[c for p in points + points[:1] for c in p],
             width=2.2 if key in self.broken else 1.2)

    def _pairs(self, view: SetupView) -> None:
        """Touching pairs in green; pairs a level apart the camera could not tell in amber.

        An amber pair read as touching is drawn as thick as a green one, one read apart
        thin; both stay amber until the players toggle them.
        """
        draft = view.capture.draft
        touching = draft.live_touching()
        unsure = set(draft.unsure_pairs())
        for a, b in sorted(touching | unsure):
            selected = view.selected in (a, b) and self.mode == "touching"
            if (a, b) in unsure:
                Color(*theme.ACCENT)
                width = (4.0 if selected else 3.0) if (a, b) in touching else 1.6
            else:
                Color(*TOUCHING)
                width = 3.0 if selected else 1.6
            Line(points=[*self._pt(view.anchor(a)), *self._pt(view.anchor(b))], width=width)

    def _rings(self, view: SetupView) -> None:
        """Touching mode: the selected block ringed in amber, its neighbours in green.

        A thick ring: they touch; a thin one: they do not.
        """
        if self.mode not in ("touching", "move") or view.selected is None \
                or view.selected not in view.capture.draft.blocks:
            return
        touching = view.capture.draft.live_touching()
        r = MARK_PX / 2 + RING_GAP
        x, y = self._pt(view.mark(view.selected))
        Color(*theme.ACCENT)
        Line(circle=(x, y, r), width=4)
        if self.mode == "move":  # move mode: the block the arrows and taps move
            return
        for other in view.partners():
            x, y = self._pt(view.mark(other))
            pair = (min(other, view.selected), max(other, view.selected))
            Color(*TOUCHING)
            Line(circle=(x, y, r), width=4 if pair in touching else 1.2)

    def _mark(self, view: SetupView, key: int) -> None:
        block = view.capture.draft.blocks[key]
        x, y = self._pt(view.mark(key))
        ax, ay = self._pt(view.anchor(key))
        if abs(ax - x) + abs(ay - y) > 6:
            Color(*(OUTLINE if block.present else DROPPED))
            Line(points=[ax, ay, x, y], width=1.2)
        r = MARK_PX / 2
        Color(0.05, 0.05, 0.07, 1)
        Ellipse(pos=(x - r - 2, y - r - 2), size=(MARK_PX + 4, MARK_PX + 4))
        if block.colour is None:
            Color(*DROPPED)
            Ellipse(pos=(x - r, y - r), size=(MARK_PX, MARK_PX))
            Color(0.95, 0.3, 0.25, 1)
            d = r * 0.5
            Line(points=[x - d, y - d, x + d, y + d], width=2.5)
            Line(points=[x - d, y + d, x + d, y - d], width=2.5)
            return
        Color(*theme.BLOCK_COLOURS[block.colour])
        Ellipse(pos=(x - r, y - r), size=(MARK_PX, MARK_PX))
        ink = (0.08, 0.08, 0.1, 1) if block.colour in ("white", "yellow") else (1, 1, 1, 1)
        letter = self._letters.get((block.colour, ink))
        if letter is None:
            letter = self._letters[(block.colour, ink)] = _letter(block.colour[0].upper(), ink)
        w, h = letter.size
        Color(1, 1, 1, 1)
        Rectangle(texture=letter, pos=(x - w / 2, y - h / 2), size=(w, h))
        if block.level > 1 or self.mode == "levels":
            self._level_badge(x + r * 0.8, y + r * 0.8, block.level)
        if block.seen == "assumed" and block.colour == block.read_as:
            self._guess_badge(x - r * 0.8, y + r * 0.8)
        elif block.key in self._tower_asks:
            self._tower_badge(x - r * 0.8, y + r * 0.8)

    def _guess_badge(self, x: float, y: float) -> None:
        """A ``?`` in a small white disc at the mark's other corner.

        The camera did not see this block (hidden under others): its colour is a guess.
        """
        ink = (0.08, 0.08, 0.1, 1)
        sign = self._letters.get(("?", ink))
        if sign is None:
            sign = self._letters[("?", ink)] = _letter("?", ink, 13)
        Color(0.97, 0.97, 0.97, 1)
        Ellipse(pos=(x - BADGE_PX / 2, y - BADGE_PX / 2), size=(BADGE_PX, BADGE_PX))
        w, h = sign.size
        Color(1, 1, 1, 1)
        Rectangle(texture=sign, pos=(x - w / 2, y - h / 2), size=(w, h))

    def _tower_badge(self, x: float, y: float) -> None:
        """A ``+`` in a small amber disc at the mark's other corner.

        The camera could not tell whether a block of this one's colour stands on it
        (:meth:`companion.app.field_capture.FieldDraft.tower_asks`).
        """
        ink = (0.08, 0.08, 0.1, 1)
        sign = self._letters.get(("+", ink))
        if sign is None:
            sign = self._letters[("+", ink)] = _letter("+", ink, 15)
        Color(*theme.ACCENT)
        Ellipse(pos=(x - BADGE_PX / 2, y - BADGE_PX / 2), size=(BADGE_PX, BADGE_PX))
        w, h = sign.size
        Color(1, 1, 1, 1)
        Rectangle(texture=sign, pos=(x - w / 2, y - h / 2), size=(w, h))

    def _level_badge(self, x: float, y: float, level: int) -> None:
        """The block's level in a small amber disc at its mark's corner."""
        ink = (0.08, 0.08, 0.1, 1)
        digit = self._letters.get((str(level), ink))
        if digit is None:
            digit = self._letters[(str(level), ink)] = _letter(str(level), ink, 13)
        Color(*theme.ACCENT)
        Ellipse(pos=(x - BADGE_PX / 2, y - BADGE_PX / 2), size=(BADGE_PX, BADGE_PX))
        w, h = digit.size
        Color(1, 1, 1, 1)
        Rectangle(texture=digit, pos=(x - w / 2, y - h / 2), size=(w, h))
