"""How high a block top stands, from the picture around it: a small network's opinion.

At 640x480 a level adds a pixel or two to a top's size and, where neighbours hide the
column, the side faces that would show the height are out of view: the hand-made cues
(:mod:`vision.readers.levels3d`) then leave a top's level to the noise of measuring it.
This module cuts, for each top found, the view of the first level's plane around it
(:func:`level_patch`: turned so the camera's nadir is up, where the side faces smear to,
at :data:`MM_PER_PX`), with two planes saying how far a level smears there and how much
of the table a frame pixel spans, and a small convolutional network trained on the
photoreal renders' ground truth (:mod:`vision.devtools.level_train`) gives the
probabilities of the first, second and third level. The table runs the exported network
with OpenCV's DNN module; torch is only for training.

Example:
    >>> PATCH_PX, round(MM_PER_PX * PATCH_PX)
    (80, 120)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.pose import TablePose

PATCH_PX = 80
"""Side of a patch (pixels)."""

MM_PER_PX = 1.5
"""Table millimetres per patch pixel: 120 mm across, room for a tower's side faces three
levels high beside its top."""

LEVELS = 3
"""Levels the network tells apart (1, 2, 3)."""

MODEL = Path(__file__).resolve().parent.parent / "models" / "level_net.onnx"
"""The shipped network (trained by :mod:`vision.devtools.level_train`)."""

SMEAR_SCALE = 40.0
"""The smear plane holds how far (mm, in the first level's plane) a point a level higher
moves along its ray, divided by this."""

PIXEL_SCALE = 2.0
"""The pixel plane holds how many table millimetres a frame pixel spans, divided by this."""


def _axes(pose: TablePose, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors toward the camera's nadir (the patch's up) and across it."""
    to_nadir = pose.camera_position()[:2] - centre
    dist = float(np.linalg.norm(to_nadir))
    up = to_nadir / dist if dist > 1.0 else np.array([0.0, -1.0])
    return up, np.array([-up[1], up[0]])


def level_patch(frame: np.ndarray, pose: TablePose, centre: Sequence[float],
                height_mm: float) -> np.ndarray:
    """The network's input for a top seen at ``centre`` (mm) in the plane ``height_mm`` up.

    Five planes of ``PATCH_PX`` square, float32: the view's blue, green and red (0-1), the
    smear of one level there (:data:`SMEAR_SCALE`) and the frame pixel's size on the table
    (:data:`PIXEL_SCALE`), each of the last two one value all over.
    """
    c = np.asarray(centre, np.float64)
    up, across = _axes(pose, c)
    steps = (np.arange(PATCH_PX) - PATCH_PX / 2 + 0.5) * MM_PER_PX
    cols, rows = np.meshgrid(steps, steps)
    pts = c[None, None] + cols[..., None] * across[None, None] - rows[..., None] * up[None, None]
    flat = np.concatenate([pts.reshape(-1, 2), np.full((PATCH_PX * PATCH_PX, 1), height_mm)],
                          axis=1)
    px = pose.project(flat).astype(np.float32).reshape(PATCH_PX, PATCH_PX, 2)
    view = cv2.remap(frame, px[..., 0], px[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    # the point a level above this one, seen in this plane: how far a level smears here
    above = pose.to_plane(pose.project([[c[0], c[1], 2 * height_mm]]), height_mm)[0]
    smear = float(np.linalg.norm(above - c))
    beside = pose.project([[c[0] + 10.0, c[1], height_mm], [c[0] - 10.0, c[1], height_mm]])
    pixel_mm = 20.0 / max(float(np.linalg.norm(beside[0] - beside[1])), 1e-6)
    out = np.empty((5, PATCH_PX, PATCH_PX), np.float32)
    out[:3] = view.transpose(2, 0, 1).astype(np.float32) / 255.0
    out[3] = smear / SMEAR_SCALE
    out[4] = pixel_mm / PIXEL_SCALE
    return out


@lru_cache(maxsize=2)
def level_network(path: Path = MODEL) -> cv2.dnn.Net:
    """The shipped network, run by OpenCV's own CPU backend.

    Raises:
        ValueError: the model file is missing or not a network OpenCV can read.
    """
    from vision.readers.dice_detect import load_onnx

    return load_onnx(path, "the level network")


def level_probabilities(frame: np.ndarray, pose: TablePose,
                        centres: Sequence[Sequence[float]], height_mm: float,
                        path: Path = MODEL) -> np.ndarray:
    """Probabilities (N, :data:`LEVELS`) of each top at ``centres`` standing 1, 2, 3 high.

    ``centres``: where the tops were found in the view of the plane ``height_mm`` up.
    """
    if not len(centres):
        return np.zeros((0, LEVELS), np.float32)
    blob = np.stack([level_patch(frame, pose, c, height_mm) for c in centres])
    net = level_network(path)
    net.setInput(blob)
    logits = np.asarray(net.forward(), np.float64).reshape(len(centres), LEVELS)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)
