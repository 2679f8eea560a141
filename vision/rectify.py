"""Top-down view of the table and its white balance from the markers' paper.

The frame is warped to the table plane at ``px_per_mm`` (one pixel per millimetre by
default), so every later step measures in millimetres directly. The white paper around the
four corner markers is the table's own white reference: its colour at each corner gives a
per-channel gain that is interpolated across the table, which undoes dimmer, warmer and
uneven light before colours are classified.

Example:
    >>> from vision.render import SceneSpec, render_scene
    >>> from vision.calibration import calibrate
    >>> scene = render_scene(SceneSpec(seed=2, lighting="warm"))
    >>> top = rectify(scene.image, calibrate(scene.image))
    >>> top.image.shape
    (450, 600, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.layout import TableLayout

WHITE_TARGET = 236.0
"""The level the markers' paper is brought to."""
PAPER_RING_MM = (1.5, 4.5)
"""The ring around each marker (from its edge, mm) sampled as white paper."""


@dataclass(frozen=True)
class TopView:
    """A rectified, white-balanced view of the table.

    Attributes:
        image: BGR uint8, one pixel per ``1 / px_per_mm`` mm, origin at the table's corner.
        px_per_mm: scale of ``image``.
        paper_bgr: the paper's colour measured at each table marker (before balancing).
    """

    image: np.ndarray
    px_per_mm: float
    paper_bgr: dict[int, tuple[float, float, float]]


@lru_cache(maxsize=8)
def _paper_masks(layout: TableLayout, px_per_mm: float
                 ) -> tuple[tuple[tuple[int, int, int, int], np.ndarray], ...]:
    """Per marker: its paper ring's box ``(x0, y0, x1, y1)`` in the top view and the mask."""
    w, h = int(layout.width_mm * px_per_mm), int(layout.height_mm * px_per_mm)
    rings = []
    for marker_id in layout.marker_ids:
        (x0, y0), _, (x1, y1), _ = layout.marker_corners_mm(marker_id)
        a, b = PAPER_RING_MM
        bx0, by0 = max(0, int((x0 - b) * px_per_mm)), max(0, int((y0 - b) * px_per_mm))
        bx1, by1 = min(w, int((x1 + b) * px_per_mm) + 1), min(h, int((y1 + b) * px_per_mm) + 1)
        mask = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        cv2.rectangle(mask, (int((x0 - b) * px_per_mm) - bx0, int((y0 - b) * px_per_mm) - by0),
                      (int((x1 + b) * px_per_mm) - bx0, int((y1 + b) * px_per_mm) - by0), 255, -1)
        cv2.rectangle(mask, (int((x0 - a) * px_per_mm) - bx0, int((y0 - a) * px_per_mm) - by0),
                      (int((x1 + a) * px_per_mm) - bx0, int((y1 + a) * px_per_mm) - by0), 0, -1)
        rings.append(((bx0, by0, bx1, by1), mask))
    return tuple(rings)


def marker_keepout(layout: TableLayout, px_per_mm: float, pad_mm: float = 8.0) -> np.ndarray:
    """A mask (255 = ignore) over the corner markers and their paper, in the top view."""
    w, h = int(layout.width_mm * px_per_mm), int(layout.height_mm * px_per_mm)
    mask = np.zeros((h, w), np.uint8)
    for marker_id in layout.marker_ids:
        (x0, y0), _, (x1, y1), _ = layout.marker_corners_mm(marker_id)
        cv2.rectangle(mask, (int((x0 - pad_mm) * px_per_mm), int((y0 - pad_mm) * px_per_mm)),
                      (int((x1 + pad_mm) * px_per_mm), int((y1 + pad_mm) * px_per_mm)), 255, -1)
    return mask


def _gain_field(layout: TableLayout, px_per_mm: float, gains: dict[int, np.ndarray],
                size: tuple[int, int]) -> np.ndarray:
    """Per-pixel gains, bilinear through the marker centres (extrapolated linearly)."""
    w, h = size
    centres = {i: np.asarray(layout.marker_corners_mm(i)).mean(axis=0) * px_per_mm
               for i in layout.marker_ids}
    tl, tr, br, bl = layout.marker_ids
    g = {i: gains.get(i) for i in layout.marker_ids}
    known = [v for v in g.values() if v is not None]
    mean = np.mean(known, axis=0)
    for i in g:
        if g[i] is None:
            g[i] = mean
    step = 8
    xs = (np.arange(0, w, step, dtype=np.float32) - centres[tl][0]) / (
        centres[tr][0] - centres[tl][0])
    ys = (np.arange(0, h, step, dtype=np.float32) - centres[tl][1]) / (
        centres[bl][1] - centres[tl][1])
    u, v = np.meshgrid(xs, ys)
    u, v = u[..., None], v[..., None]
    coarse = ((1 - u) * (1 - v) * g[tl] + u * (1 - v) * g[tr] + u * v * g[br]
              + (1 - u) * v * g[bl]).astype(np.float32)
    coarse = np.clip(coarse, 0.5, 4.0)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)


def rectify(frame: np.ndarray, calib: Calibration, px_per_mm: float = 1.0,
            balance: bool = True) -> TopView:
    """Warp ``frame`` to the table plane and white-balance it from the markers' paper.

    Args:
        frame: a BGR camera frame.
        calib: the table calibration (pixels to mm).
        px_per_mm: scale of the top view.
        balance: correct colours from the paper around the markers.

    Returns:
        The :class:`TopView`.
    """
    layout = calib.layout
    w, h = int(layout.width_mm * px_per_mm), int(layout.height_mm * px_per_mm)
    to_view = np.diag([px_per_mm, px_per_mm, 1.0]) @ calib.homography
    image = cv2.warpPerspective(frame, to_view, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    paper: dict[int, tuple[float, float, float]] = {}
    gains: dict[int, np.ndarray] = {}
    for marker_id, ((x0, y0, x1, y1), mask) in zip(layout.marker_ids,
                                                   _paper_masks(layout, px_per_mm), strict=True):
        mean = cv2.mean(image[y0:y1, x0:x1], mask=mask)[:3]
        if min(mean) > 20:
            paper[marker_id] = (float(mean[0]), float(mean[1]), float(mean[2]))
            gains[marker_id] = WHITE_TARGET / np.asarray(mean, np.float32)
    if balance and gains:
        field = _gain_field(layout, px_per_mm, gains, (w, h))
        image = cv2.multiply(image.astype(np.float32), field)
        image = np.clip(image, 0, 255).astype(np.uint8)
    return TopView(image, px_per_mm, paper)
