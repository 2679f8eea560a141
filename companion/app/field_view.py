"""The set-up picture's geometry and what a tap on it means, without Kivy (issue 12).

:class:`SetupView` shows a :class:`~companion.app.field_capture.Capture` in a picture of a
given size: the part of the frame around the field, as large as fits, crop and scale fixed
per reading so nothing moves under a finger. Each block gets a mark (its colour and letter)
at least :data:`MARK_SPACING_PX` apart from every other, so each tap target is at least a
48 px disc at 800x480; :meth:`SetupView.hit` says what a tap means in each mode (blocks,
touching, levels, move) and :meth:`SetupView.tap` applies it to the draft; a long press in
blocks mode (:meth:`SetupView.hold`) adds a missed block where a mark or a top covers its
place. Points are screen px
from the picture's top-left, y down.

Example:
    >>> import numpy as np
    >>> from vision.camera_model import Intrinsics
    >>> from vision.readers.field3d import FieldReading, SeenBlock3D
    >>> from vision.geometry import square
    >>> from vision.layout import TableLayout
    >>> from vision.pose import TablePose
    >>> from companion.app.field_capture import Capture, FieldDraft
    >>> pose = TablePose.looking_down(Intrinsics.pinhole(560.0, (640, 480)), TableLayout(), 600)
    >>> blocks = tuple(SeenBlock3D(c, (280.0 + 41 * i, 225.0), 0.0, 1,
    ...                            square((280.0 + 41 * i, 225.0), 40.0, 0.0))
    ...                for i, c in enumerate(["white", "red"]))
    >>> draft = FieldDraft.from_reading(FieldReading(blocks, (), frozenset({(0, 1)}), False))
    >>> view = SetupView(Capture(np.zeros((480, 640, 3), np.uint8), pose, draft), 540, 400)
    >>> view.tap(*view.mark(1)).kind, draft.blocks[1].colour
    ('block', 'blue')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from companion.app.field_capture import NUDGE_MM, TURN_DEG, Capture, DraftBlock, DraftPawn
from vision.geometry import contains

TAP_RADIUS_PX = 28.0
"""A tap this close to a block's mark hits it (the nearest mark wins)."""

MARK_SPACING_PX = 50.0
"""Blocks' marks on screen are spread at least this far apart, so each one's target is a
disc of at least 48 px (a fingertip at 800x480)."""

MOVE_REACH_MM = 40.0
"""Move mode: a tap moves the selected block's centre at most this far (a block's width);
further away it does nothing (a block read that far off is dropped and added instead)."""

MAX_LEVEL = 3
"""Levels offered by touch (the reader looks as high)."""

HOLD_S = 0.6
"""A touch held this long without lifting is a long press (blocks mode: add a block there)."""


@dataclass(frozen=True)
class Hit:
    """What a tap on the set-up picture means.

    Attributes:
        kind: ``block`` (cycle its colour), ``level`` (one level up), ``select``
            (touching mode: the block whose neighbours are shown; move mode: the block
            to move; key -1 lets go), ``pair`` (toggle touching), ``add`` (a block the
            camera missed), ``move`` (the selected block's new place) or ``none``.
        key: the block's key (``block``, ``level``, ``select``, ``pair``: the neighbour
            tapped, ``move``).
        pair: the two blocks' keys (``pair``).
        at_mm: where on the table (``add``; ``move``: the block's new centre).
        level: the added block's level (``add``).
    """

    kind: str
    key: int = -1
    pair: tuple[int, int] = (-1, -1)
    at_mm: tuple[float, float] = (0.0, 0.0)
    level: int = 1


class SetupView:
    """The frame and the draft as shown in a ``width`` x ``height`` px picture.

    The picture shows the part of the frame around the field, as large as fits: its crop
    and scale are fixed when the view is made, so nothing moves while the players correct
    the field. Points are screen px from the picture's top-left, y down.
    """

    def __init__(self, capture: Capture, width: float, height: float,
                 margin_mm: float = 30.0) -> None:
        self.capture = capture
        self.width, self.height = float(width), float(height)
        frame_h, frame_w = capture.frame.shape[:2]
        draft = capture.draft
        pts = [self._top(b, corners=True) for b in draft.blocks.values()]
        if pts:
            allpx = np.concatenate(pts)
            lo, hi = allpx.min(axis=0), allpx.max(axis=0)
            px_per_mm = float(np.median([np.linalg.norm(p[0] - p[1]) for p in pts])
                              / draft.layout.block_mm)
            pad = margin_mm * px_per_mm
            x0, y0, x1, y1 = lo[0] - pad, lo[1] - pad, hi[0] + pad, hi[1] + pad
        else:
            x0, y0, x1, y1 = 0.0, 0.0, float(frame_w), float(frame_h)
        scale = min(self.width / max(x1 - x0, 1.0), self.height / max(y1 - y0, 1.0))
        scale = max(scale, min(self.width / frame_w, self.height / frame_h))
        cw, ch = self.width / scale, self.height / scale
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        x0 = float(np.clip(cx - cw / 2, 0, max(frame_w - cw, 0))) if cw <= frame_w \
            else (frame_w - cw) / 2
        y0 = float(np.clip(cy - ch / 2, 0, max(frame_h - ch, 0))) if ch <= frame_h \
            else (frame_h - ch) / 2
        self.scale = float(scale)
        self.origin = (float(x0), float(y0))
        """Frame px at the picture's top-left corner."""
        self._marks = {k: self._base_mark(k) for k in draft.blocks}
        self._spread(self._marks, set(self._marks))
        self.selected: int | None = None
        """Touching mode: the block whose neighbours are shown; move mode: the one moved."""

    # -- geometry --------------------------------------------------------------------------
    def _top(self, block: DraftBlock, corners: bool) -> np.ndarray:
        layout = self.capture.draft.layout
        z = block.level * layout.block_height_mm
        pts = block.outline(layout) if corners else np.array([block.centre])
        return np.asarray(self.capture.pose.project(
            [[float(x), float(y), z] for x, y in pts]))

    def to_screen(self, frame_px: np.ndarray) -> np.ndarray:
        """Frame pixels (N, 2) to picture px (y down)."""
        return (np.asarray(frame_px, np.float64) - self.origin) * self.scale

    def to_frame(self, x: float, y: float) -> np.ndarray:
        """A picture point to frame pixels."""
        return np.array([x / self.scale + self.origin[0], y / self.scale + self.origin[1]])

    def crop(self) -> tuple[int, int, int, int]:
        """The frame's pixels shown, ``(x0, y0, x1, y1)``, clipped to the frame."""
        frame_h, frame_w = self.capture.frame.shape[:2]
        x0, y0 = self.origin
        x1, y1 = x0 + self.width / self.scale, y0 + self.height / self.scale
        return (max(0, math.floor(x0)), max(0, math.floor(y0)),
                min(frame_w, math.ceil(x1)), min(frame_h, math.ceil(y1)))

    def outline(self, key: int) -> np.ndarray:
        """Block ``key``'s top face on screen (4, 2)."""
        return self.to_screen(self._top(self.capture.draft.blocks[key], corners=True))

    def _base_mark(self, key: int) -> np.ndarray:
        """A block's top centre on screen, or beside the block it carries.

        Toward the camera's nadir (where its side faces show), one mark further per level.
        """
        draft = self.capture.draft
        top, depth = draft.blocks[key], 0
        while True:
            above = draft.above(top.key) if top.present else []
            if not above:
                break
            top, depth = draft.blocks[above[0]], depth + 1
        centre = self.to_screen(self._top(top, corners=False))[0]
        if depth:
            nadir = self.capture.pose.camera_position()
            foot = self.to_screen(self.capture.pose.project([[nadir[0], nadir[1], 0.0]]))[0]
            direction = foot - centre
            norm = float(np.linalg.norm(direction))
            unit = direction / norm if norm > 1e-6 else np.array([0.0, 1.0])
            centre = centre + unit * MARK_SPACING_PX * depth
        return np.asarray(centre, np.float64)

    def _spread(self, marks: dict[int, np.ndarray], movable: set[int]) -> None:
        """Push marks closer than :data:`MARK_SPACING_PX` apart (only ``movable`` ones)."""
        keys = sorted(marks)
        for _round in range(60):
            moved = False
            for n, a in enumerate(keys):
                for b in keys[n + 1:]:
                    if a not in movable and b not in movable:
                        continue
                    d = marks[b] - marks[a]
                    dist = float(np.hypot(*d))
                    if dist >= MARK_SPACING_PX - 0.01:
                        continue
                    unit = d / dist if dist > 1e-6 else np.array(
                        [math.cos(a + b), math.sin(a + b)])
                    push = (MARK_SPACING_PX - dist) * unit
                    if a in movable and b in movable:
                        marks[a] -= push / 2
                        marks[b] += push / 2
                    elif b in movable:
                        marks[b] += push
                    else:
                        marks[a] -= push
                    moved = True
            for k in movable:
                marks[k] = np.clip(marks[k], [MARK_SPACING_PX / 2] * 2,
                                   [self.width - MARK_SPACING_PX / 2,
                                    self.height - MARK_SPACING_PX / 2])
            if not moved:
                break

    def _free_spot(self, want: np.ndarray) -> np.ndarray:
        """The point nearest ``want`` at least :data:`MARK_SPACING_PX` from every mark.

        Searched on rings 8 px apart, 24 directions each, inside the picture; ``want``
        itself where no such point is.
        """
        others = np.array(list(self._marks.values())) if self._marks else np.zeros((0, 2))
        half = MARK_SPACING_PX / 2
        for radius in np.arange(0.0, 4 * MARK_SPACING_PX, 8.0):
            for angle in np.linspace(0, 2 * math.pi, 1 if radius == 0 else 24, endpoint=False):
                p = want + radius * np.array([math.cos(angle), math.sin(angle)])
                inside = half <= p[0] <= self.width - half and half <= p[1] <= self.height - half
                if inside and (not len(others) or float(np.min(np.linalg.norm(
                        others - p, axis=1))) >= MARK_SPACING_PX):
                    return p
        return want

    def mark(self, key: int) -> tuple[float, float]:
        """Where block ``key``'s mark (its colour and letter: what a tap cycles) is drawn.

        Marks start on the blocks' top centres (see :meth:`_base_mark`) and are spread to be
        at least :data:`MARK_SPACING_PX` apart, once: a block added later (or assumed under
        a raised one) gets its mark at the nearest free spot, and the others stay put.
        """
        if key not in self._marks:
            self._marks[key] = self._free_spot(self._base_mark(key))
        x, y = self._marks[key]
        return (float(x), float(y))

    def anchor(self, key: int) -> tuple[float, float]:
        """Block ``key``'s top centre on screen (a mark spread away is joined to it)."""
        p = self.to_screen(self._top(self.capture.draft.blocks[key], corners=False))[0]
        return (float(p[0]), float(p[1]))

    def partners(self) -> list[int]:
        """The blocks that may be toggled touching the selected one (none selected: [])."""
        if self.selected is None:
            return []
        return sorted(b if a == self.selected else a
                      for a, b in self.capture.draft.pair_candidates() if self.selected in (a, b))

    def pawn_mark(self, pawn: DraftPawn) -> tuple[float, float]:
        """Where a pawn seen at set-up is drawn (its head above the block it stands on)."""
        draft = self.capture.draft
        level = draft.blocks[pawn.block].level if pawn.block in draft.blocks else 0
        z = level * draft.layout.block_height_mm + 22.0
        p = self.to_screen(self.capture.pose.project([[pawn.centre[0], pawn.centre[1], z]]))[0]
        return (float(p[0]), float(p[1]))

    def smallest_target_px(self) -> float:
        """The smallest distance between two blocks' marks.

        Each block's tap target is a disc of the smaller of twice :data:`TAP_RADIUS_PX`
        and this.
        """
        marks = [self.mark(k) for k in self.capture.draft.blocks]
        if len(marks) < 2:
            return float("inf")
        arr = np.array(marks)
        d = np.linalg.norm(arr[:, None] - arr[None], axis=2)
        d[np.diag_indices(len(arr))] = np.inf
        return float(d.min())

    # -- taps ------------------------------------------------------------------------------
    def hit(self, x: float, y: float, mode: str = "blocks") -> Hit:
        """What a tap at picture point ``(x, y)`` means in ``mode``.

        ``mode`` is ``blocks``, ``touching``, ``levels`` or ``move``.

        Levels: a tap on a block's mark puts it one level higher (after the highest, back on
        the table), where the same spot of the picture is at that height; a tap elsewhere
        adds a block at level 2 whose top shows there (blocks assumed under it if none).
        Blocks: the nearest block mark within :data:`TAP_RADIUS_PX`, else the highest block
        whose top face is under the finger, else, on the bare table, a missed block to add.
        Touching: a tap on a block's mark selects it (its neighbours are ringed); then a tap
        on a ringed neighbour toggles the pair, on the selected block lets it go, on another
        block selects that one. The targets are the blocks' marks, at least
        :data:`MARK_SPACING_PX` apart, even where four blocks meet at one corner.
        """
        draft = self.capture.draft
        marks = [(math.dist(self.mark(k), (x, y)), k) for k in draft.blocks]
        if mode == "move":
            return self._move_hit(x, y, marks)
        if mode == "levels":
            live = [(d, k) for d, k in marks if draft.blocks[k].present]
            near_live = min(live, default=None)
            if near_live is not None and near_live[0] <= TAP_RADIUS_PX:
                return Hit("level", key=near_live[1])
            return self._add_hit(x, y, 2)
        if mode == "touching":
            live = [(d, k) for d, k in marks if draft.blocks[k].present]
            hit = min(live, default=None)
            if hit is None or hit[0] > TAP_RADIUS_PX:
                return Hit("none")
            key = hit[1]
            if self.selected is not None and key in self.partners():
                return Hit("pair", key=key, pair=(min(self.selected, key), max(self.selected, key)))
            return Hit("select", key=-1 if key == self.selected else key)
        near = min(marks, default=None)
        if near and near[0] <= TAP_RADIUS_PX:
            return Hit("block", key=near[1])
        under = [b for b in draft.blocks.values() if b.present
                 and contains(self.outline(b.key), (x, y))]
        if under:
            return Hit("block", key=max(under, key=lambda b: b.level).key)
        return self._add_hit(x, y, 1)

    def _move_hit(self, x: float, y: float, marks: list[tuple[float, int]]) -> Hit:
        """Move mode: a tap on a block's mark selects it, elsewhere moves the selected one.

        With a block selected, a tap elsewhere (on its own mark too, where that is drawn on
        its top) is its top's new centre, at most :data:`MOVE_REACH_MM` from where it is.
        """
        draft = self.capture.draft
        live = [(d, k) for d, k in marks if draft.blocks[k].present]
        near = min(live, default=None)
        chosen = self.selected if self.selected is not None and \
            draft.blocks.get(self.selected) is not None and \
            draft.blocks[self.selected].present else None
        if near is not None and near[0] <= TAP_RADIUS_PX and (
                near[1] != chosen or math.dist(self.mark(near[1]), self.anchor(near[1])) > 6):
            return Hit("select", key=near[1])
        if chosen is None:
            return Hit("none")
        block = draft.blocks[chosen]
        to = self.capture.pose.to_plane(self.to_frame(x, y).reshape(1, 2),
                                        block.level * draft.layout.block_height_mm)[0]
        if math.dist(block.centre, to) > MOVE_REACH_MM:
            return Hit("none")
        return Hit("move", key=chosen, at_mm=(float(to[0]), float(to[1])))

    def move(self, key: int, centre_mm: tuple[float, float], angle: float | None = None
             ) -> None:
        """Move block ``key``'s centre to ``centre_mm``, turned to ``angle`` where given.

        See :meth:`FieldDraft.move_to`. Its mark goes with it, to the free spot nearest its
        top's new centre (the other marks stay where they are).
        """
        self.capture.draft.move_to(key, centre_mm, angle)
        self._marks.pop(key, None)
        self.mark(key)

    def nudge(self, dx: float, dy: float) -> bool:
        """Move the selected block :data:`NUDGE_MM` toward screen direction ``(dx, dy)``.

        The direction is the picture's (y down): the arrows move the block's top the way
        they point on screen, whatever the camera's angle. Returns whether a block moved.
        """
        draft = self.capture.draft
        key = self.selected
        if key is None or key not in draft.blocks or not draft.blocks[key].present:
            return False
        block = draft.blocks[key]
        norm = math.hypot(dx, dy)
        if norm < 1e-9:
            return False
        start = self.to_screen(self._top(block, corners=False))[0]
        ahead = start + 10.0 * np.array([dx, dy]) / norm
        z = block.level * draft.layout.block_height_mm
        pts = self.capture.pose.to_plane(
            np.array([self.to_frame(*start), self.to_frame(*ahead)]), z)
        step = np.asarray(pts[1], np.float64) - np.asarray(pts[0], np.float64)
        length = float(np.hypot(*step))
        if length < 1e-9:
            return False
        centre = np.asarray(block.centre, np.float64) + step / length * NUDGE_MM
        self.move(key, (float(centre[0]), float(centre[1])))
        return True

    def turn(self, clockwise: bool) -> bool:
        """Turn the selected block :data:`TURN_DEG` clockwise (or not) as seen on screen.

        Returns whether a block turned.
        """
        draft = self.capture.draft
        key = self.selected
        if key is None or key not in draft.blocks or not draft.blocks[key].present:
            return False
        block = draft.blocks[key]
        z = block.level * draft.layout.block_height_mm
        t = math.radians(block.angle)
        pts = [[block.centre[0], block.centre[1], z],
               [block.centre[0] + 10 * math.cos(t), block.centre[1] + 10 * math.sin(t), z],
               [block.centre[0] - 10 * math.sin(t), block.centre[1] + 10 * math.cos(t), z]]
        centre, along_x, along_y = self.to_screen(self.capture.pose.project(pts))
        ax, ay = along_x - centre
        bx, by = along_y - centre
        # the table's +angle turns x toward y; on screen (y down) clockwise is cross > 0
        screen_clockwise = ax * by - ay * bx > 0
        step = TURN_DEG if screen_clockwise == clockwise else -TURN_DEG
        self.move(key, block.centre, block.angle + step)
        return True

    def _add_hit(self, x: float, y: float, level: int) -> Hit:
        """A block to add whose top at ``level`` shows at picture point ``(x, y)``."""
        layout = self.capture.draft.layout
        frame_px = self.to_frame(x, y)
        on_table = self.capture.pose.to_plane(frame_px.reshape(1, 2),
                                              level * layout.block_height_mm)[0]
        if not (0 <= on_table[0] <= layout.width_mm and 0 <= on_table[1] <= layout.height_mm):
            return Hit("none")
        return Hit("add", at_mm=(float(on_table[0]), float(on_table[1])), level=level)

    def hold_hit(self, x: float, y: float, mode: str = "blocks") -> Hit:
        """What a long press (see :data:`HOLD_S`) at picture point ``(x, y)`` means.

        Blocks mode: a block the camera missed whose top is there at level 1, even where a
        mark or another block's top covers that point (a block hidden under a tower's top,
        or showing only beside a mark: a tap there would hit the mark or the top). ``none``
        where a block at level 1 already stands there. Other modes: what a tap means.
        """
        if mode != "blocks":
            return self.hit(x, y, mode)
        return self._add_hit(x, y, 1)

    def hold(self, x: float, y: float, mode: str = "blocks") -> Hit:
        """Apply a long press to the draft; returns what it hit (see :meth:`hold_hit`)."""
        return self._apply(self.hold_hit(x, y, mode))

    def tap(self, x: float, y: float, mode: str = "blocks") -> Hit:
        """Apply a tap to the draft; returns what it hit."""
        return self._apply(self.hit(x, y, mode))

    def _apply(self, hit: Hit) -> Hit:
        """Apply what a tap or a long press hit; returns it (``add``: with the new key)."""
        draft = self.capture.draft
        if hit.kind == "block":
            draft.cycle(hit.key)
        elif hit.kind == "level":
            block = draft.blocks[hit.key]
            level = block.level % MAX_LEVEL + 1
            height = draft.layout.block_height_mm
            seen = self.capture.pose.project([[block.centre[0], block.centre[1],
                                               block.level * height]])
            centre = self.capture.pose.to_plane(seen, level * height)[0]
            draft.set_level(hit.key, level, centre)
        elif hit.kind == "select":
            self.selected = None if hit.key < 0 else hit.key
        elif hit.kind == "move":
            self.move(hit.key, hit.at_mm)
        elif hit.kind == "pair":
            draft.toggle(*hit.pair)
        elif hit.kind == "add":
            key = draft.add_at(hit.at_mm, hit.level)
            if key is None:
                return Hit("none")
            block = draft.blocks[key]
            draft.blocks[key] = replace(block, colour=self.capture.colour_at(block.centre,
                                                                             block.level))
            return replace(hit, key=key)
        return hit
