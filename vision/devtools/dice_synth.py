"""Dice trays made from real photos: the detector's training scenes (OpenCV compositing).

From each training photo, :func:`prepare` cuts the dice out (their mask: where the photo
differs from the tray with the dice painted out, inside the labelled box) and keeps the empty
tray (the dice inpainted away). :func:`compose` then builds a scene with exact boxes:

* the real photo, or an empty tray from another photo;
* the tray tinted to another colour (felt green, wine, navy, black, brown, sand ...), its
  shading and texture kept;
* real dice of the training photos pasted on it, turned by quarter turns and mirrored, some
  of them touching a die already there or pressed against the frame's edge;
* scale, quarter turns, mirror, brightness, contrast, blur, noise and JPEG.

Only photos of the training part of the split are ever used.

Example:
    >>> import numpy as np
    >>> from vision.devtools.dice_data import LabelledDie
    >>> img = np.full((120, 120, 3), 200, np.uint8)
    >>> img[40:70, 40:70] = 30
    >>> photo = prepare(img, [LabelledDie((40, 40, 70, 70), 1)])
    >>> scene = compose([photo], np.random.default_rng(0), size=96)
    >>> scene.image.shape, all(len(b) == 4 for b in scene.boxes)
    ((96, 96, 3), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.devtools.dice_data import LabelledDie

TRAY_COLOURS = ((60, 110, 40), (40, 40, 120), (110, 50, 20), (30, 30, 30), (40, 70, 110),
                (150, 180, 200), (90, 90, 90), (200, 200, 200), (70, 30, 80), (20, 90, 150),
                (120, 140, 40), (230, 225, 215))
"""BGR tray colours a scene's tray is tinted to (green felt, wine, navy, black, brown ...)."""

Box = tuple[float, float, float, float]


@dataclass
class Cutout:
    """One die cut out of a photo: its pixels, its mask (0-1 float) and its pip count."""

    pixels: np.ndarray
    alpha: np.ndarray
    pips: int


@dataclass
class Photo:
    """A training photo: the image, its labelled dice, the empty tray and the dice cut out."""

    image: np.ndarray
    dice: list[LabelledDie]
    tray: np.ndarray
    dice_mask: np.ndarray
    cutouts: list[Cutout]


@dataclass
class Scene:
    """A composed scene: the BGR image and each die's box ``(x0, y0, x1, y1)``."""

    image: np.ndarray
    boxes: list[Box]


def _rounded(h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    u = (xx + 0.5) / w * 2 - 1
    v = (yy + 0.5) / h * 2 - 1
    return ((np.abs(u) ** 6 + np.abs(v) ** 6) <= 1).astype(np.uint8)


def prepare(image: np.ndarray, dice: list[LabelledDie]) -> Photo:
    """Cut out the dice of a labelled photo and paint them out of the tray."""
    h, w = image.shape[:2]
    boxes_mask = np.zeros((h, w), np.uint8)
    for d in dice:
        x0, y0, x1, y1 = d.box
        pad = max(2, (x1 - x0) // 8)
        boxes_mask[max(0, y0 - pad):y1 + pad, max(0, x0 - pad):x1 + pad] = 255
    tray = cv2.inpaint(image, boxes_mask, 5, cv2.INPAINT_TELEA)
    diff = cv2.GaussianBlur(
        np.abs(image.astype(np.int16) - tray.astype(np.int16)).max(axis=2).astype(np.uint8),
        (3, 3), 0)
    dice_mask = np.zeros((h, w), np.float32)
    cutouts = []
    for d in dice:
        x0, y0, x1, y1 = (max(0, d.box[0]), max(0, d.box[1]), min(w, d.box[2]),
                          min(h, d.box[3]))
        if x1 - x0 < 6 or y1 - y0 < 6:
            continue
        box_shape = _rounded(y1 - y0, x1 - x0)
        m = ((diff[y0:y1, x0:x1] > 18).astype(np.uint8)) & box_shape
        m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(m)
        if contours:
            cv2.drawContours(filled, [cv2.convexHull(max(contours, key=cv2.contourArea))],
                             -1, 1, -1)
        if filled.sum() < 0.45 * m.size:
            filled = box_shape
        alpha = cv2.GaussianBlur(filled.astype(np.float32), (3, 3), 0)
        dice_mask[y0:y1, x0:x1] = np.maximum(dice_mask[y0:y1, x0:x1], alpha)
        cutouts.append(Cutout(image[y0:y1, x0:x1].copy(), alpha, d.pips))
    return Photo(image, list(dice), tray, dice_mask, cutouts)


def _tint(image: np.ndarray, keep: np.ndarray, colour: tuple[int, int, int],
          rng: np.random.Generator) -> np.ndarray:
    """The tray (where ``keep`` is 0) tinted to ``colour``, its shading kept."""
    f = image.astype(np.float32)
    grey = f.mean(axis=2, keepdims=True)
    shade = grey / max(1.0, float(np.median(grey)))
    tinted = np.clip(shade * np.array(colour, np.float32) * rng.uniform(0.8, 1.15), 0, 255)
    k = keep[..., None]
    return (k * f + (1 - k) * tinted).astype(np.uint8)


def _overlaps(box: Box, boxes: list[Box], limit: float) -> bool:
    for b in boxes:
        ix = max(0.0, min(box[2], b[2]) - max(box[0], b[0]))
        iy = max(0.0, min(box[3], b[3]) - max(box[1], b[1]))
        small = min((box[2] - box[0]) * (box[3] - box[1]), (b[2] - b[0]) * (b[3] - b[1]))
        if ix * iy > limit * small:
            return True
    return False


def _turned(cut: Cutout, rng: np.random.Generator) -> Cutout:
    """The cut-out die by a random number of quarter turns, maybe mirrored."""
    turns = int(rng.integers(4))
    pixels, alpha = np.rot90(cut.pixels, turns), np.rot90(cut.alpha, turns)
    if rng.random() < 0.5:
        pixels, alpha = pixels[:, ::-1], alpha[:, ::-1]
    return Cutout(pixels, alpha, cut.pips)


def _paste(image: np.ndarray, mask: np.ndarray, cut: Cutout, x: int, y: int) -> Box:
    pixels, alpha = cut.pixels, cut.alpha
    h, w = alpha.shape
    a = alpha[..., None]
    region = image[y:y + h, x:x + w].astype(np.float32)
    image[y:y + h, x:x + w] = (a * pixels + (1 - a) * region).astype(np.uint8)
    mask[y:y + h, x:x + w] = np.maximum(mask[y:y + h, x:x + w], alpha)
    return (float(x), float(y), float(x + w), float(y + h))


def compose(photos: list[Photo], rng: np.random.Generator, size: int = 320,
            window: int | None = None) -> Scene:
    """One training scene with the box of every die in it.

    Args:
        photos: the prepared training photos.
        rng: the random source.
        size: the network's input side: a whole photo fits it at zoom 1.
        window: the side of the part of that view returned (default ``size``); training
            on windows costs less and teaches the same die sizes.
    """
    photo = photos[int(rng.integers(len(photos)))]
    real = rng.random() < 0.5
    if real:
        image = photo.image.copy()
        boxes: list[Box] = [tuple(float(v) for v in d.box) for d in photo.dice]  # type: ignore[misc]
        mask = photo.dice_mask.copy()
    else:
        image, boxes, mask = photo.tray.copy(), [], np.zeros(photo.tray.shape[:2], np.float32)
    if rng.random() < 0.45:
        colour = TRAY_COLOURS[int(rng.integers(len(TRAY_COLOURS)))]
        image = _tint(image, mask, colour, rng)
    h, w = image.shape[:2]
    cutouts = [c for p in photos for c in p.cutouts]
    extra = int(rng.integers(0, 6 if real else 18))
    for _ in range(extra):
        cut = _turned(cutouts[int(rng.integers(len(cutouts)))], rng)
        ch, cw = cut.alpha.shape
        for _try in range(8):
            if boxes and rng.random() < 0.4:      # touching a die already there
                b = boxes[int(rng.integers(len(boxes)))]
                side = int(rng.integers(4))
                gap = rng.uniform(-0.08, 0.03) * cw
                x = int(b[2] + gap) if side == 0 else int(b[0] - cw - gap) if side == 1 else \
                    int(rng.uniform(b[0] - cw / 2, b[2] - cw / 2))
                y = int(b[3] + gap) if side == 2 else int(b[1] - ch - gap) if side == 3 else \
                    int(rng.uniform(b[1] - ch / 2, b[3] - ch / 2))
            elif rng.random() < 0.15:              # against the frame's edge
                x = int(rng.choice([0, w - cw])) if rng.random() < 0.5 else \
                    int(rng.integers(0, w - cw))
                y = int(rng.integers(0, h - ch)) if x in (0, w - cw) else \
                    int(rng.choice([0, h - ch]))
            else:
                x, y = int(rng.integers(0, w - cw)), int(rng.integers(0, h - ch))
            if 0 <= x <= w - cw and 0 <= y <= h - ch and not _overlaps(
                    (x, y, x + cw, y + ch), boxes, 0.12):
                boxes.append(_paste(image, mask, cut, x, y))
                break
    return _camera(image, boxes, rng, size, window or size)


def _camera(image: np.ndarray, boxes: list[Box], rng: np.random.Generator, view: int,
            size: int) -> Scene:
    """Zoom, place, turn by quarter turns and mirror the scene, then spoil it like a camera.

    A whole photo fits ``view`` pixels at zoom 1; the ``size`` pixels around a random point
    are returned.
    """
    h, w = image.shape[:2]
    full = view / max(h, w)
    scale = full * float(np.exp(rng.uniform(np.log(0.8), np.log(2.6))))
    cx = rng.uniform(0.2, 0.8) * w if scale * max(h, w) > size * 1.05 else w / 2
    cy = rng.uniform(0.2, 0.8) * h if scale * max(h, w) > size * 1.05 else h / 2
    m = np.array([[scale, 0, size / 2 - scale * cx], [0, scale, size / 2 - scale * cy]])
    out = cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA if scale < 1
                         else cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=(128, 128, 128))
    placed = []
    for x0, y0, x1, y1 in boxes:
        a = (scale * x0 + m[0, 2], scale * y0 + m[1, 2], scale * x1 + m[0, 2],
             scale * y1 + m[1, 2])
        c = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2)
        if 0 <= c[0] < size and 0 <= c[1] < size:
            placed.append(a)
    turns = int(rng.integers(4))
    for _ in range(turns):            # a quarter turn counter-clockwise: (x, y) -> (y, S - x)
        out = np.rot90(out)
        placed = [(y0, size - x1, y1, size - x0) for x0, y0, x1, y1 in placed]
    if rng.random() < 0.5:
        out = out[:, ::-1]
        placed = [(size - x1, y0, size - x0, y1) for x0, y0, x1, y1 in placed]
    f = out.astype(np.float32) * rng.uniform(0.6, 1.3) + rng.uniform(-25, 25)
    f = (f - f.mean()) * rng.uniform(0.75, 1.2) + f.mean()
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.2))
    f += rng.normal(0, rng.uniform(0, 5), f.shape)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        _ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
        out = np.asarray(cv2.imdecode(enc, cv2.IMREAD_COLOR))
    return Scene(np.ascontiguousarray(out), placed)
