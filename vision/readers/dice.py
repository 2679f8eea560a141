"""Reading six-sided dice from above: where the dice are, and how many pips each shows.

:func:`read_die` reads one die given its box with the trained reader of
:mod:`vision.readers.dice_reader` (``vision/models/dice_reader.onnx``), or by
:func:`count_pips` when that model is not shipped. :mod:`vision.readers.dice_detect` finds the
dice in a photo with a trained detector; :func:`find_dice` below is the earlier training-free
finder (the benchmark's baseline, and the finder of the rendered trays of the desktop
simulation).

:func:`count_pips` needs no training. The crop is scaled to 80 px;
every pixel's CIELAB distance from the face colour (the median of the crop's centre) makes
a contrast map in which pips, dark or light, stand out; a white top-hat removes the slowly
varying side faces and tray, and OpenCV's blob detector finds round spots. A spot counts as a
pip when it is near the centre, clearly contrasted, ringed by face colour (a pip on a side
face or a die's edge is not) and about as big as the others. No pip found reads 1 (a logo).

:func:`find_dice` finds the dice in a tray photo: pixels far in colour from the local
background (a wide median blur) grouped into die-sized regions.

Example:
    >>> import numpy as np
    >>> img = np.full((60, 60, 3), 235, np.uint8)
    >>> import cv2
    >>> for x, y in ((20, 20), (40, 40)):
    ...     _ = cv2.circle(img, (x, y), 5, (20, 20, 20), -1)
    >>> count_pips(img, (5, 5, 55, 55))
    2
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.readers import dice_detect, dice_reader
from vision.readers.dice_detect import find_dice_net

CROP_PX = 80
TOPHAT_PX = 23


@dataclass(frozen=True)
class DieReading:
    """One die: its box ``(xmin, ymin, xmax, ymax)`` in pixels and its pip count 1-6."""

    box: tuple[int, int, int, int]
    pips: int


@lru_cache(maxsize=1)
def _blob_detector() -> cv2.SimpleBlobDetector:
    p = cv2.SimpleBlobDetector.Params()
    p.filterByColor = True
    p.blobColor = 255
    p.minThreshold, p.maxThreshold, p.thresholdStep = 20, 240, 10
    p.minRepeatability = 2
    p.filterByArea = True
    p.minArea, p.maxArea = 16, 700
    p.filterByCircularity = True
    p.minCircularity = 0.55
    p.filterByInertia = True
    p.minInertiaRatio = 0.35
    p.filterByConvexity = True
    p.minConvexity = 0.75
    p.minDistBetweenBlobs = 3
    return cv2.SimpleBlobDetector.create(p)


def _contrast(image: np.ndarray, box: tuple[int, int, int, int]
              ) -> tuple[np.ndarray, np.ndarray]:
    """The crop's distance-from-face map, raw and top-hat normalised to uint8."""
    x0, y0, x1, y1 = (int(v) for v in box)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 4 or y1 - y0 < 4:
        raise ValueError(f"die box {box} is empty or outside the {w}x{h} image")
    s = CROP_PX
    crop = cv2.resize(image[y0:y1, x0:x1], (s, s), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(crop.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    face = np.median(lab[s // 4:3 * s // 4, s // 4:3 * s // 4].reshape(-1, 3), axis=0)
    dist = np.sqrt((((lab - face) * np.array([0.7, 1.0, 1.0], np.float32)) ** 2).sum(axis=2))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (TOPHAT_PX, TOPHAT_PX))
    tophat = cv2.morphologyEx(dist, cv2.MORPH_TOPHAT, kernel)
    scale = 255.0 / max(8.0, float(np.percentile(tophat, 99.5)))
    return dist, np.clip(tophat * scale, 0, 255).astype(np.uint8)


def pip_centres(image: np.ndarray, box: tuple[int, int, int, int]
                ) -> list[tuple[float, float, float]]:
    """The pips found in a die's box: ``(x, y, radius)`` in the 80 px crop's pixels."""
    s = CROP_PX
    dist, contrast = _contrast(image, box)
    yy, xx = np.mgrid[0:s, 0:s]
    spots = []
    for kp in _blob_detector().detect(contrast):
        x, y = kp.pt
        r = max(kp.size / 2, 2.0)
        if np.hypot(x - s / 2, y - s / 2) >= s * 0.46:
            continue
        d2 = (xx - x) ** 2 + (yy - y) ** 2
        inside = dist[d2 <= (0.7 * r) ** 2]
        ring = dist[(d2 >= (r + 2) ** 2) & (d2 <= (1.7 * r + 3) ** 2)]
        if len(inside) == 0 or len(ring) == 0:
            continue
        pip, around = float(np.median(inside)), float(np.median(ring))
        if around < 0.45 * pip:
            spots.append((x, y, r, pip))
    if not spots:
        return []
    strongest = max(c for *_xyr, c in spots)
    spots = [t for t in spots if t[3] >= 0.45 * strongest]
    median_r = float(np.median([t[2] for t in spots]))
    return [(x, y, r) for x, y, r, _c in spots if 0.6 * median_r <= r <= 1.6 * median_r]


def count_pips(image: np.ndarray, box: tuple[int, int, int, int]) -> int:
    """The pip count (1-6) of the die in ``box``, by finding pips (no trained weights).

    Raises:
        ValueError: the box is empty or outside the image.
    """
    found = len(pip_centres(image, box))
    return 1 if found == 0 else min(found, 6)


def read_die(image: np.ndarray, box: tuple[int, int, int, int]) -> int:
    """The face (1-6) of the die in ``box`` = ``(xmin, ymin, xmax, ymax)`` pixels.

    The trained reader of :mod:`vision.readers.dice_reader` reads it when its model is shipped;
    otherwise :func:`count_pips` counts the pips.

    Raises:
        ValueError: the box is empty or outside the image.
    """
    h, w = image.shape[:2]
    x0, y0, x1, y1 = box
    if min(x1, w) - max(x0, 0) < 4 or min(y1, h) - max(y0, 0) < 4:
        raise ValueError(f"die box {box} is empty or outside the {w}x{h} image")
    if not dice_reader.MODEL.is_file():
        return count_pips(image, box)
    return dice_reader.read_faces(image, [box])[0]


def find_dice(image: np.ndarray, min_side: int = 18, max_side: int = 80,
              threshold: float = 18.0) -> list[tuple[int, int, int, int]]:
    """Boxes of the dice in a photo of a tray.

    Args:
        image: BGR photo.
        min_side: smallest die side in pixels.
        max_side: largest die side in pixels.
        threshold: CIELAB distance from the local background that marks a die pixel.

    Returns:
        ``(xmin, ymin, xmax, ymax)`` boxes, sorted left to right then top to bottom.
    """
    small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    lab8 = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    k = max_side | 1
    background = cv2.medianBlur(lab8, k if k <= 255 else 255).astype(np.float32)
    background[..., 0] *= 100.0 / 255.0
    background[..., 1:] -= 128.0
    dist = np.sqrt(((lab - background) ** 2 * np.array([0.5, 1, 1], np.float32)).sum(axis=2))
    mask = (dist > threshold).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # outer outlines of every region, also those inside a hole (dice inside the tray's rim)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    boxes = []
    for c, links in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=False):
        if links[3] != -1:
            continue
        x, y, w, h = cv2.boundingRect(c)
        if max(w, h) * 2 > max_side and max(w, h) * 2 <= 4 * max_side:
            parts = _split_touching(mask, c, min_side // 2)   # dice touching each other
        else:
            parts = [(x, y, w, h, cv2.contourArea(c))]
        for x, y, w, h, area in parts:
            x, y, w, h = 2 * x, 2 * y, 2 * w, 2 * h
            if not (min_side <= w <= max_side and min_side <= h <= max_side):
                continue
            if not 0.6 <= w / h <= 1.6 or area * 4 < 0.45 * w * h:
                continue
            boxes.append((x, y, x + w, y + h))
    return sorted(boxes)


def _split_touching(mask: np.ndarray, contour: np.ndarray, min_side: int
                    ) -> list[tuple[int, int, int, int, float]]:
    """Split a region of touching dice at the necks of its distance transform.

    Returns:
        ``(x, y, w, h, area)`` of each part, in ``mask``'s pixels.
    """
    x, y, w, h = cv2.boundingRect(contour)
    roi = np.zeros((h, w), np.uint8)
    cv2.drawContours(roi, [contour - np.array([x, y])], -1, 1, -1)
    roi &= mask[y:y + h, x:x + w]
    dt = cv2.distanceTransform(roi, cv2.DIST_L2, 3)
    peak = float(dt.max())
    if peak < min_side / 2:
        return []
    n, seeds = cv2.connectedComponents((dt > 0.6 * peak).astype(np.uint8))
    if n <= 2:
        return [(x, y, w, h, float(roi.sum()))]
    # each region pixel joins the nearest seed (by distance to the seed's pixels)
    ys, xs = np.nonzero(roi)
    centres = [np.argwhere(seeds == k) for k in range(1, n)]
    nearest = np.full(len(xs), -1)
    best = np.full(len(xs), np.inf)
    for k, pts in enumerate(centres):
        d = ((ys[:, None] - pts[None, :, 0]) ** 2 + (xs[:, None] - pts[None, :, 1]) ** 2).min(1)
        better = d < best
        best[better] = d[better]
        nearest[better] = k
    parts = []
    for k in range(n - 1):
        px, py = xs[nearest == k], ys[nearest == k]
        if len(px) == 0:
            continue
        parts.append((x + int(px.min()), y + int(py.min()), int(px.max() - px.min()) + 1,
                      int(py.max() - py.min()) + 1, float(len(px))))
    return parts


def read_dice(image: np.ndarray) -> list[DieReading]:
    """Find and read every die in a tray photo, in the order of their boxes.

    The trained detector and reader when their models are shipped (see
    :func:`vision.readers.dice_tray.read_tray` for a tray's region and reading order); otherwise
    :func:`find_dice` and :func:`count_pips`.

    Example:
        >>> read_dice(np.full((100, 100, 3), 200, np.uint8))
        []
    """
    boxes = find_dice_net(image) if dice_detect.MODEL.is_file() else find_dice(image)
    if dice_reader.MODEL.is_file():
        return [DieReading(b, f) for b, f in zip(boxes, dice_reader.read_boxes(image, boxes),
                                                 strict=True) if f is not None]
    return [DieReading(box, count_pips(image, box)) for box in boxes]


def box_iou(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """Intersection over union of two boxes.

    Example:
        >>> box_iou((0, 0, 10, 10), (5, 0, 15, 10))
        0.3333333333333333
    """
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0
