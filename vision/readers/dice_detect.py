"""Finding every die in a tray photo with a small trained single-stage network (OpenCV DNN).

The network (``vision/models/dice_detector.onnx``, trained by
:mod:`vision.devtools.dice_detector_train`) looks at the frame (or the tray's part of it)
scaled so its longer side is :data:`INPUT_PX` and padded to a square, and gives on a grid of
``INPUT_PX / 4`` cells a heat map of die centres, each die's width and height and the
centre's offset inside its cell (the CenterNet recipe). A die is a local maximum of the heat
above :data:`SCORE`; its box follows from the size and offset. It runs with OpenCV's DNN
module on one thread, no BLAS and no other runtime.

Example:
    >>> import numpy as np
    >>> find_dice_net(np.full((200, 300, 3), 200, np.uint8))
    []
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODEL = Path(__file__).parents[1] / "models" / "dice_detector.onnx"
INPUT_PX = 320
STRIDE = 4
SCORE = 0.35
"""Heat a die's centre must reach; chosen on the tune photos, never on the held-out ones."""
MEAN, STD = 0.5, 0.25
"""Pixels (BGR, 0-1) enter the network as ``(value - MEAN) / STD``."""
PAD_VALUE = 128

Box = tuple[int, int, int, int]
_LOCK = threading.Lock()


@contextmanager
def one_thread() -> Iterator[None]:
    """Run OpenCV (and so its DNN module) on one thread inside the block.

    On a busy two-core Pi a second worker thread only waits for a core; one thread keeps a
    read's time steady. The previous setting is restored afterwards.
    """
    with _LOCK:
        before = cv2.getNumThreads()
        cv2.setNumThreads(1)
        try:
            yield
        finally:
            cv2.setNumThreads(before)


@lru_cache(maxsize=2)
def detector(path: Path = MODEL) -> cv2.dnn.Net:
    """The shipped detector network.

    Raises:
        ValueError: the model file is missing or not a network OpenCV can read.
    """
    return load_onnx(path, "the dice detector")


def load_onnx(path: Path, what: str) -> cv2.dnn.Net:
    """An ONNX network run by OpenCV's own CPU backend (no BLAS, no thread pool).

    Raises:
        ValueError: naming ``what`` when the file is missing, or the file when OpenCV cannot
            read it.
    """
    if not path.is_file():
        raise ValueError(f"{path}: {what}'s model is missing")
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise ValueError(f"{path}: not a network OpenCV can read ({exc})") from exc
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
    return net


def letterbox(image: np.ndarray, size: int = INPUT_PX) -> tuple[np.ndarray, float]:
    """``image`` scaled so its longer side is ``size``, padded to a square.

    The padding is at the bottom and right; returns the square and the scale (network
    pixels per image pixel).
    """
    h, w = image.shape[:2]
    scale = size / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    out = np.full((size, size, 3), PAD_VALUE, np.uint8)
    out[:nh, :nw] = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    return out, scale


def to_blob(square: np.ndarray) -> np.ndarray:
    """A letterboxed BGR image as the network's input (1, 3, size, size) float32."""
    x = (square.astype(np.float32) / 255.0 - MEAN) / STD
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])


def decode(out: np.ndarray, score: float = SCORE) -> list[tuple[float, float, float, float, float]]:
    """Boxes ``(x0, y0, x1, y1, heat)`` in network pixels from the output (1, 5, g, g).

    Channel 0 is the centre heat (a logit), 1-2 the width and height in cells, 3-4 the
    centre's offset in its cell.
    """
    heat = 1.0 / (1.0 + np.exp(-out[0, 0]))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= score)
    found = []
    for gy, gx in zip(*np.nonzero(peaks), strict=True):
        w, h = out[0, 1, gy, gx] * STRIDE, out[0, 2, gy, gx] * STRIDE
        cx = (gx + out[0, 3, gy, gx]) * STRIDE
        cy = (gy + out[0, 4, gy, gx]) * STRIDE
        found.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, float(heat[gy, gx])))
    return _suppress(found)


def _suppress(found: list[tuple[float, float, float, float, float]]
              ) -> list[tuple[float, float, float, float, float]]:
    """Drop a box whose centre lies inside a hotter box (one die, two peaks)."""
    kept: list[tuple[float, float, float, float, float]] = []
    for box in sorted(found, key=lambda b: -b[4]):
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if not any(k[0] + 0.25 * (k[2] - k[0]) < cx < k[2] - 0.25 * (k[2] - k[0])
                   and k[1] + 0.25 * (k[3] - k[1]) < cy < k[3] - 0.25 * (k[3] - k[1])
                   for k in kept):
            kept.append(box)
    return kept


def find_dice_net(image: np.ndarray, score: float = SCORE, model: Path = MODEL
                  ) -> list[Box]:
    """Boxes ``(xmin, ymin, xmax, ymax)`` of the dice in a BGR photo, sorted.

    Raises:
        ValueError: the image is empty, or the model is missing or unreadable.
    """
    if image.ndim != 3 or image.shape[0] < 8 or image.shape[1] < 8:
        raise ValueError(f"an image of {image.shape} is too small to hold dice")
    square, scale = letterbox(image)
    net = detector(model)
    with one_thread():
        net.setInput(to_blob(square))
        out = net.forward()
    h, w = image.shape[:2]
    boxes = []
    for x0, y0, x1, y1, _heat in decode(out, score):
        box = (max(0, round(x0 / scale)), max(0, round(y0 / scale)),
               min(w, round(x1 / scale)), min(h, round(y1 / scale)))
        if box[2] - box[0] >= 4 and box[3] - box[1] >= 4:
            boxes.append(box)
    return sorted(boxes)
