"""Analysis by synthesis: render a reading of the field as the camera sees it, score it.

A candidate reading (blocks with level, outline and colour) is a set of solid boxes, each
from its bottom (``40 (level - 1)`` mm) to its top. Every frame pixel's ray (camera model,
lens distortion undone) is cast through them: the box it meets nearest the camera, and
whether on its top or on a side face, is what that pixel shows; the table where it meets
none (:meth:`FrameEvidence.render`). The frame says what each pixel shows too, as a
symbol: its palette class after white balance (a block colour kept through shade and glare
by its hue, as :class:`~vision.readers.table_views.TableViews` classifies), the table, or
nothing known (a pawn, a hand, a shadow too deep to tell), which weighs for no reading.
The score of a reading is the log-likelihood of the symbols given what it predicts
(:data:`TOP_PROB`, :data:`SIDE_PROB`, :data:`WHITE_SIDE_PROB`, :data:`TABLE_PROB`): side
faces are looser than tops (shade, faces seen edge-on), a white side as likely the table's
grey as white. Readings are compared on a window of the frame around the blocks that
differ (:meth:`FrameEvidence.score`), each box cast only against the pixels it covers, so a
local change costs a few thousand pixels.

Used by :mod:`vision.readers.refine3d` to correct the set-up reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.palette import UNKNOWN
from vision.readers.table_views import TableViews

TABLE = -1
"""Label of a pixel whose ray meets no box."""

TOP_PROB = {"same": 0.85, "table": 0.04, "other": 0.03}
"""What a top face of colour c is classified as: c; the table (a bevel, blur at its edge);
each other block colour (glare, a colour's tail). Pixels of no known class are left out."""

SIDE_PROB = {"same": 0.6, "table": 0.2, "other": 0.06}
"""What a side face of colour c is classified as: c (its hue kept through shade), the table
(a face in deep shade, seen edge-on, blurred with the table), another colour (a
neighbour's edge)."""

WHITE_SIDE_PROB = {"same": 0.45, "table": 0.4, "other": 0.05}
"""A white block's side face: shaded, it is grey like many tables, so either is likely."""

TABLE_PROB = {"table": 0.88, "white": 0.04, "other": 0.025}
"""What the table shows: the table, white (the markers' paper is masked out, but glare),
each block colour (a block's blurred edge, coloured light)."""

DARK_SHARE = 0.6
"""A pixel classified as the table but darker than this share of the table's brightness is
a shadow (on the table, or a block's face in deep shade): it tells nothing."""

TOLERANCE_PX = 1
"""Pixels a predicted label may be off and still explain a pixel (see
:meth:`FrameEvidence.log_likelihood`)."""


@dataclass(frozen=True)
class Box:
    """A block as a solid: its footprint (4, 2) in table mm, bottom and top heights, colour."""

    outline: np.ndarray
    bottom: float
    top: float
    colour: str


def _likelihoods(names: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Log-likelihood tables over the symbols (block colours, table, unknown).

    Returns ``top[c, s]``, ``side[c, s]`` and ``table[s]``; the unknown symbol scores 0
    under every label (it says nothing).
    """
    n = len(names)
    top = np.ones((n, n + 2))
    side = np.ones((n, n + 2))
    for c, name in enumerate(names):
        probs = WHITE_SIDE_PROB if name == "white" else SIDE_PROB
        for s in range(n):
            top[c, s] = TOP_PROB["same"] if s == c else TOP_PROB["other"]
            side[c, s] = probs["same"] if s == c else probs["other"]
        top[c, n] = TOP_PROB["table"]
        side[c, n] = probs["table"]
    table = np.array([TABLE_PROB["white"] if name == "white" else TABLE_PROB["other"]
                      for name in names] + [TABLE_PROB["table"]])
    return np.log(top), np.log(side), np.append(np.log(table), 0.0)


class FrameEvidence:
    """What each frame pixel of a region shows (a symbol) and where its ray runs.

    Args:
        views: the frame's views (palette, white balance, camera).
        roi: ``(x0, y0, x1, y1)`` frame pixels to cover (end exclusive).
    """

    def __init__(self, views: TableViews, roi: tuple[int, int, int, int]) -> None:
        h, w = views.frame.shape[:2]
        x0, y0, x1, y1 = roi
        self.x0, self.y0 = max(0, x0), max(0, y0)
        self.x1, self.y1 = min(w, x1), min(h, y1)
        self.views = views
        pose = views.pose
        ys, xs = np.mgrid[self.y0:self.y1, self.x0:self.x1]
        px = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
        self.shape = xs.shape
        self.ground = pose.to_plane(px, 0.0).reshape(*self.shape, 2)
        self.camera = pose.camera_position()
        self.names = tuple(views.palette.classes[k].name
                           for k in views.palette.of_kind("block"))
        self.symbols = self._symbols(px)
        self.top_ll, self.side_ll, self.table_ll = _likelihoods(self.names)

    def _symbols(self, px: np.ndarray) -> np.ndarray:
        """Per pixel: block colour index, ``len(names)`` for the table, +1 for unknown."""
        views = self.views
        palette = views.palette
        frame = views.frame[self.y0:self.y1, self.x0:self.x1].reshape(-1, 3)
        gain = views.gain_at(self.ground.reshape(-1, 2))
        bgr = np.clip(frame.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        cls = palette.classify(bgr.reshape(-1, 1, 3)).reshape(-1)
        unknown = cls == UNKNOWN
        if unknown.any():
            cls[unknown] = views._by_hue(bgr[unknown])
        if any(c.name == "white" for c in palette.classes):
            whites = cls == palette.index("white")
            if whites.any():
                hue = views._by_hue(bgr[whites])
                cls[whites] = np.where(hue == UNKNOWN, cls[whites], hue)
        cls[views.skin_of(bgr.reshape(-1, 1, 3)).reshape(-1)] = UNKNOWN
        # the table in a block's shadow, or a block's face in deep shade: dark, no colour
        table = float(sum(views.table_balanced_bgr))
        dark = bgr.astype(np.float32).sum(axis=1) < DARK_SHARE * table
        cls[dark & np.isin(cls, palette.of_kind("table"))] = UNKNOWN
        n = len(self.names)
        lut = np.full(256, n + 1, np.uint8)
        for k, c in enumerate(palette.classes):
            if c.kind == "block":
                lut[k] = self.names.index(c.name)
            elif c.kind == "table":
                lut[k] = n
        return lut[cls].reshape(self.shape)

    def forget(self, mask: np.ndarray) -> None:
        """Take the pixels of ``mask`` (this region's shape) as telling nothing."""
        self.symbols[mask] = len(self.names) + 1

    def window(self, boxes: Sequence[Box], pad_px: int = 2) -> tuple[slice, slice]:
        """Rows and columns (of this region) the boxes cover in the frame, padded."""
        pose = self.views.pose
        corners = np.array([[x, y, z] for b in boxes for x, y in b.outline
                            for z in (b.bottom, b.top)])
        px = pose.project(corners)
        lo = np.floor(px.min(axis=0)).astype(int) - pad_px
        hi = np.ceil(px.max(axis=0)).astype(int) + pad_px + 1
        r0, r1 = max(0, lo[1] - self.y0), min(self.shape[0], hi[1] - self.y0)
        c0, c1 = max(0, lo[0] - self.x0), min(self.shape[1], hi[0] - self.x0)
        return slice(r0, max(r0, r1)), slice(c0, max(c0, c1))

    def spans(self, boxes: Sequence[Box]) -> np.ndarray:
        """Each box's extent in this region's pixels: (N, 4) rows and columns, end exclusive."""
        if not boxes:
            return np.zeros((0, 4), int)
        corners = np.array([[x, y, z] for b in boxes for x, y in b.outline
                            for z in (b.bottom, b.top)])
        px = self.views.pose.project(corners).reshape(len(boxes), -1, 2)
        lo = np.floor(px.min(axis=1)).astype(int) - 1
        hi = np.ceil(px.max(axis=1)).astype(int) + 2
        return np.column_stack([lo[:, 1] - self.y0, hi[:, 1] - self.y0,
                                lo[:, 0] - self.x0, hi[:, 0] - self.x0])

    def render(self, boxes: Sequence[Box], rows: slice, cols: slice) -> np.ndarray:
        """Labels of a window: ``2 i`` box ``i``'s top, ``2 i + 1`` its side, ``TABLE``.

        Each box is cast only against the pixels of its own extent in the frame.
        """
        ground = self.ground[rows, cols]
        h, w = ground.shape[:2]
        labels = np.full((h, w), TABLE, np.int32)
        nearest = np.full((h, w), -np.inf)
        cam = self.camera
        spans = self.spans(boxes)
        for i, box in enumerate(boxes):
            r0, r1, c0, c1 = spans[i]
            r0, r1 = max(r0, rows.start) - rows.start, min(r1, rows.stop) - rows.start
            c0, c1 = max(c0, cols.start) - cols.start, min(c1, cols.stop) - cols.start
            if r0 >= r1 or c0 >= c1:
                continue            # the box shows nowhere in the window
            sub = ground[r0:r1, c0:c1].reshape(-1, 2)
            t_exit, on_top = _ray_box(sub, cam[None, :2] - sub, cam[2], box)
            t_exit = t_exit.reshape(r1 - r0, c1 - c0)
            hit = t_exit > nearest[r0:r1, c0:c1]
            nearest[r0:r1, c0:c1] = np.where(hit, t_exit, nearest[r0:r1, c0:c1])
            labels[r0:r1, c0:c1] = np.where(
                hit, 2 * i + (~on_top).reshape(hit.shape).astype(np.int32),
                labels[r0:r1, c0:c1])
        return labels

    def log_likelihood(self, boxes: Sequence[Box], labels: np.ndarray, rows: slice,
                       cols: slice) -> float:
        """Log-likelihood of the window's symbols given its labels (see :meth:`pixel_ll`)."""
        return float(self.pixel_ll(boxes, labels, rows, cols).sum())

    def best_ll(self) -> np.ndarray:
        """Each pixel's log-likelihood under the label that explains it best."""
        every = np.vstack([self.top_ll, self.side_ll, self.table_ll[None]])
        return np.asarray(every.max(axis=0)[self.symbols])

    def pixel_ll(self, boxes: Sequence[Box], labels: np.ndarray, rows: slice,
                 cols: slice) -> np.ndarray:
        """Log-likelihood of each pixel of the window's symbols given its labels.

        A pixel predicted to show the table within :data:`TOLERANCE_PX` of a block is
        scored by the likelier of the two: a reading's outlines are good to a millimetre or
        so, and the groove between two touching blocks, a pixel of table in the render,
        is their blurred colours in the frame.
        """
        sym = self.symbols[rows, cols]
        colour = np.array([self.names.index(b.colour) for b in boxes] + [0], np.int64)

        def scored(lab: np.ndarray, sym: np.ndarray) -> np.ndarray:
            c = colour[np.where(lab >= 0, lab // 2, len(boxes))]
            return np.asarray(np.where(lab < 0, self.table_ll[sym], np.where(
                lab % 2 == 1, self.side_ll[c, sym], self.top_ll[c, sym])))

        ll = scored(labels, sym)
        r = TOLERANCE_PX
        if r > 0:
            k = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
            border = (labels < 0) & (cv2.dilate((labels >= 0).astype(np.uint8), k) > 0)
            ys, xs = np.nonzero(border)
            h, w = sym.shape
            best = ll[ys, xs]
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    near = labels[np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)]
                    best = np.maximum(best, scored(near, sym[ys, xs]))
            ll[ys, xs] = best
        return ll

    def colour_scores(self, labels: np.ndarray, box: int, rows: slice, cols: slice
                      ) -> np.ndarray:
        """Log-likelihood of box ``box``'s pixels for each block colour (``names`` order)."""
        sym = self.symbols[rows, cols].ravel()
        lab = labels.ravel()
        n = len(self.names) + 2
        tops = np.bincount(sym[lab == 2 * box], minlength=n)
        sides = np.bincount(sym[lab == 2 * box + 1], minlength=n)
        return np.asarray(self.top_ll @ tops + self.side_ll @ sides, np.float64)

    def score(self, boxes: Sequence[Box], rows: slice, cols: slice) -> float:
        """Log-likelihood of a window of the frame given the boxes."""
        if rows.stop <= rows.start or cols.stop <= cols.start:
            return 0.0
        return self.log_likelihood(boxes, self.render(boxes, rows, cols), rows, cols)


def _ray_box(ground: np.ndarray, d: np.ndarray, cam_h: float, box: Box
             ) -> tuple[np.ndarray, np.ndarray]:
    """Where rays leave a box toward the camera, and whether through its top.

    A ray runs from its table point ``ground`` (t = 0) to the camera (t = 1): at ``t`` it
    is at ``ground + t d`` and ``t cam_h`` up. Returns ``t`` at which it leaves the box
    (``-inf`` where it misses) and whether the top face is where it leaves.
    """
    t_lo = np.full(len(ground), box.bottom / cam_h)
    t_top = box.top / cam_h
    t_hi = np.full(len(ground), t_top)
    poly = np.asarray(box.outline, np.float64)
    centre = poly.mean(axis=0)
    for k in range(len(poly)):
        a, b = poly[k], poly[(k + 1) % len(poly)]
        n = np.array([b[1] - a[1], a[0] - b[0]])
        if n @ (centre - a) > 0:
            n = -n                              # outward
        num = (a - ground) @ n                  # inside while n.(p - a) < 0
        den = d @ n
        with np.errstate(divide="ignore", invalid="ignore"):
            t = num / den
        t_lo = np.where(den < 0, np.maximum(t_lo, t), t_lo)
        t_hi = np.where(den > 0, np.minimum(t_hi, t), t_hi)
        t_hi = np.where((den == 0) & (num < 0), -np.inf, t_hi)
    hit = t_lo < t_hi
    return np.where(hit, t_hi, -np.inf), hit & (t_hi >= t_top - 1e-9)
