"""Reading the faces of dice given their boxes with a small trained network (OpenCV DNN).

Each die's box, grown by :data:`PAD` of its side, is cut out at the network's crop size
(:data:`READER_PX` pixels unless the model's ``.json`` beside it says ``crop_px``) and
standardised per colour channel (so the die's colour and the light do not matter, only the
contrast of pips to face); the network (``vision/models/dice_reader.onnx``, trained on a GPU by
:mod:`vision.devtools.dice_reader_gpu`; on the CPU by
:mod:`vision.devtools.dice_reader_train`) gives the logits of the six faces and of "not a
die" (what the detector may take for one). All the dice of a tray
go through in one batch, each in :data:`VIEWS` views (by default as it lies and turned a
quarter turn; the views' probabilities are averaged), on one thread of OpenCV's DNN module:
no BLAS, so a busy CPU costs no more than its share. The network may be several readers
averaged in one graph (:mod:`vision.devtools.dice_reader_ensemble`); the runtime is the same.

Example:
    >>> import numpy as np
    >>> crops = reader_crops(np.zeros((60, 60, 3), np.uint8), [(10, 10, 50, 50)])
    >>> crops.shape
    (1, 3, 40, 40)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.readers.dice_detect import load_onnx, one_thread

MODEL = Path(__file__).parents[1] / "models" / "dice_reader.onnx"
READER_PX = 40
PAD = 0.15
"""The crop is the die's box grown by this fraction of its side on every side."""
VIEWS = 2
"""How many views of each die the network reads, their probabilities averaged: its quarter
turns (2: none and one; 4: all four) and, with 8, each of those mirrored. A face reads the
same in every view; the network's errors do not."""
NOT_A_DIE = 0.5
"""A box whose "not a die" probability is above this is no die (the reader's veto on the
detector: the lid's grey discs, a rim's corner)."""

Box = tuple[int, int, int, int]


def reader_crop(image: np.ndarray, box: Sequence[float], angle: float = 0.0,
                scale: float = 1.0, shift: tuple[float, float] = (0.0, 0.0),
                size: int = READER_PX, pad: float = PAD) -> np.ndarray:
    """One die as the network sees it: (3, 40, 40) float32, standardised per channel.

    Args:
        image: BGR photo.
        box: ``(xmin, ymin, xmax, ymax)`` in pixels.
        angle: rotation in degrees (training augmentation).
        scale: zoom (training augmentation).
        shift: offset as a fraction of the crop (training augmentation).
        size: the crop's side in pixels (the issue-7 networks take the same 40).
        pad: the margin around the box, as a share of its longer side on each edge.

    Raises:
        ValueError: the box is empty.
    """
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * (1 + 2 * pad)
    if side <= 0:
        raise ValueError(f"die box {tuple(box)} is empty")
    cx, cy = (x0 + x1) / 2 + shift[0] * side, (y0 + y1) / 2 + shift[1] * side
    m = cv2.getRotationMatrix2D((cx, cy), angle, size / side * scale)
    m[0, 2] += size / 2 - cx
    m[1, 2] += size / 2 - cy
    # warpAffine samples bilinearly (it takes INTER_AREA as INTER_LINEAR)
    crop = cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32) / 255.0
    crop = (crop - crop.mean(axis=(0, 1))) / (crop.std(axis=(0, 1)) + 0.05)
    return np.ascontiguousarray(crop.transpose(2, 0, 1))


def reader_crops(image: np.ndarray, boxes: Sequence[Sequence[float]], size: int = READER_PX
                 ) -> np.ndarray:
    """The crops of all ``boxes`` as one batch (N, 3, size, size)."""
    if not boxes:
        return np.zeros((0, 3, size, size), np.float32)
    return np.stack([reader_crop(image, b, size=size) for b in boxes])


@lru_cache(maxsize=4)
def crop_px(model: Path = MODEL) -> int:
    """The crop side the network ``model`` was trained on.

    Its ``.json`` beside it (``{"crop_px": 56}``, written by the trainer) says so; without
    one, :data:`READER_PX`.

    Raises:
        ValueError: the ``.json`` is unreadable or its ``crop_px`` is not a size from 16 to
            128.
    """
    side = Path(model).with_suffix(".json")
    if not side.is_file():
        return READER_PX
    try:
        px = json.loads(side.read_text(encoding="utf-8"))["crop_px"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{side}: expected {{\"crop_px\": <pixels>}} ({exc})") from exc
    if not isinstance(px, int) or not 16 <= px <= 128:
        raise ValueError(f"{side}: crop_px must be a whole number of pixels 16-128, not {px!r}")
    return px


@lru_cache(maxsize=2)
def reader_net(path: Path = MODEL) -> cv2.dnn.Net:
    """The shipped reader network.

    Raises:
        ValueError: the model file is missing or not a network OpenCV can read.
    """
    return load_onnx(path, "the dice reader")


def views_of(crops: np.ndarray, views: int = VIEWS) -> np.ndarray:
    """The batch ``crops`` (N, 3, s, s) in ``views`` views, view by view (views * N, ...).

    Raises:
        ValueError: ``views`` is not 1, 2, 4 or 8.
    """
    if views not in (1, 2, 4, 8):
        raise ValueError(f"views must be 1, 2, 4 or 8, not {views}")
    turned = [np.rot90(crops, k, axes=(2, 3)) for k in range(min(views, 4))]
    if views == 8:
        turned += [t[:, :, :, ::-1] for t in turned]
    return np.ascontiguousarray(np.concatenate(turned))


def class_probabilities(image: np.ndarray, boxes: Sequence[Sequence[float]],
                        model: Path = MODEL, views: int = VIEWS) -> np.ndarray:
    """Probabilities (N, 7) of the faces 1-6 (columns 0-5) and of "not a die" (column 6).

    Raises:
        ValueError: a box is empty, the views are not 1, 2, 4 or 8, or the model is missing
            or unreadable.
    """
    crops = reader_crops(image, boxes, crop_px(model))
    if not len(crops):
        return np.zeros((0, 7), np.float32)
    batch = views_of(crops, views)
    net = reader_net(model)
    with one_thread():
        net.setInput(batch)
        logits = net.forward().reshape(len(batch), -1)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    return p.reshape(views, len(crops), -1).mean(axis=0)


def face_probabilities(image: np.ndarray, boxes: Sequence[Sequence[float]],
                       model: Path = MODEL) -> np.ndarray:
    """Probabilities (N, 6) of the faces 1-6 of the dice in ``boxes``, given they are dice.

    Raises:
        ValueError: a box is empty, or the model is missing or unreadable.
    """
    p = class_probabilities(image, boxes, model)[:, :6]
    return p / np.maximum(p.sum(axis=1, keepdims=True), 1e-9)


def read_boxes(image: np.ndarray, boxes: Sequence[Sequence[float]], model: Path = MODEL
               ) -> list[int | None]:
    """Each box's face (1-6), or ``None`` where the reader says it holds no die.

    Raises:
        ValueError: a box is empty, or the model is missing or unreadable.
    """
    p = class_probabilities(image, boxes, model)
    return [None if row.shape[0] > 6 and row[6] > NOT_A_DIE else int(row[:6].argmax()) + 1
            for row in p]


def read_faces(image: np.ndarray, boxes: Sequence[Sequence[float]], model: Path = MODEL
               ) -> list[int]:
    """The face (1-6) of each die in ``boxes``, in the same order.

    Raises:
        ValueError: a box is empty, or the model is missing or unreadable.
    """
    return [int(i) + 1 for i in face_probabilities(image, boxes, model).argmax(axis=1)]
