"""A small convolutional network that reads the pips of one die from its crop (numpy only).

Four 3x3 convolutions with ReLU (the first three followed by 2x2 max pooling), a global
average (pip detectors summed over the face, which is what counting needs), and a linear
layer to the six faces. Weights are JSON (float16, base64), one file per member of a small
ensemble whose probabilities are averaged; :mod:`vision.devtools.dice_training` trains them on
labelled photos. This was the reader before issue 13: its three networks are now the
benchmarks' baseline (``bench/dice_baseline/``); the table reads dice with
:mod:`vision.readers.dice_reader`, which runs without BLAS.

Example:
    >>> import numpy as np
    >>> net = DiceNet.random(np.random.default_rng(0))
    >>> net.probabilities(np.zeros((1, 3, INPUT_PX, INPUT_PX), np.float32)).shape
    (1, 6)
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from vision.readers.dice_reader import reader_crop

INPUT_PX = 40
CHANNELS = (3, 32, 64, 64, 64)
PAD = 0.1
"""The crop is the die's box grown by this fraction of its side on every side."""
WEIGHTS = Path(__file__).with_name("dice_weights_1.json")
"""Where :mod:`vision.devtools.dice_training` writes by default; every ``dice_weights_*.json`` in a
folder is one member of that folder's ensemble (:func:`shipped_nets`)."""


def die_crop(image: np.ndarray, box: tuple[int, int, int, int], angle: float = 0.0,
             scale: float = 1.0, shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """These networks' input for a die, a (3, 40, 40) crop standardised per channel.

    The table reader's :func:`~vision.readers.dice_reader.reader_crop` (which names the
    arguments) at :data:`INPUT_PX` with these networks' margin :data:`PAD`.
    """
    return reader_crop(image, box, angle, scale, shift, size=INPUT_PX, pad=PAD)


def _im2col(x: np.ndarray) -> np.ndarray:
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    s = xp.strides
    cols = np.lib.stride_tricks.as_strided(xp, (n, c, 3, 3, h, w),
                                           (s[0], s[1], s[2], s[3], s[2], s[3]))
    return cols.transpose(0, 4, 5, 1, 2, 3).reshape(n * h * w, c * 9)


def _col2im(dcols: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    n, c, h, w = shape
    d = dcols.reshape(n, h, w, c, 3, 3).transpose(0, 3, 4, 5, 1, 2)
    dx = np.zeros((n, c, h + 2, w + 2), dcols.dtype)
    for i in range(3):
        for j in range(3):
            dx[:, :, i:i + h, j:j + w] += d[:, :, i, j]
    return dx[:, :, 1:1 + h, 1:1 + w]


@dataclass
class DiceNet:
    """The network's weights: ``w{i}``/``b{i}`` per convolution, ``wf``/``bf`` at the end."""

    params: dict[str, np.ndarray]

    @classmethod
    def random(cls, rng: np.random.Generator, channels: tuple[int, ...] = CHANNELS
               ) -> DiceNet:
        """He-initialised weights."""
        params: dict[str, np.ndarray] = {}
        for i, (a, b) in enumerate(pairwise(channels)):
            params[f"w{i}"] = (rng.standard_normal((a * 9, b)) * np.sqrt(2 / (a * 9))
                               ).astype(np.float32)
            params[f"b{i}"] = np.zeros(b, np.float32)
        params["wf"] = (rng.standard_normal((channels[-1], 6)) / np.sqrt(channels[-1])
                        ).astype(np.float32)
        params["bf"] = np.zeros(6, np.float32)
        return cls(params)

    @property
    def depth(self) -> int:
        """Number of convolutions."""
        return sum(1 for k in self.params if k.startswith("w") and k != "wf")

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[Any]]:
        """Logits (N, 6) of a batch (N, 3, 40, 40), and what backpropagation needs."""
        cache: list[Any] = []
        for i in range(self.depth):
            n, _c, h, w = x.shape
            cols = _im2col(x)
            y = (cols @ self.params[f"w{i}"] + self.params[f"b{i}"]).reshape(n, h, w, -1)
            y = y.transpose(0, 3, 1, 2)
            r = np.maximum(y, 0)
            if i < self.depth - 1:
                blocks = r.reshape(n, r.shape[1], h // 2, 2, w // 2, 2)
                pooled = blocks.max(axis=(3, 5))
                cache.append((x.shape, cols, y, blocks == pooled[:, :, :, None, :, None]))
                x = pooled
            else:
                cache.append((x.shape, cols, y, None))
                x = r
        feat = x.mean(axis=(2, 3))
        cache.append((x.shape, feat))
        return feat @ self.params["wf"] + self.params["bf"], cache

    def backward(self, dlogits: np.ndarray, cache: list[Any]) -> dict[str, np.ndarray]:
        """Gradients of the loss for ``dlogits`` (N, 6) through a :meth:`forward`."""
        xshape, feat = cache[-1]
        grads = {"wf": feat.T @ dlogits, "bf": dlogits.sum(0)}
        dfeat = dlogits @ self.params["wf"].T
        h, w = xshape[2], xshape[3]
        dx = np.broadcast_to(dfeat[:, :, None, None] / (h * w), xshape).astype(np.float32)
        for i in reversed(range(self.depth)):
            shape, cols, y, mask = cache[i]
            if mask is not None:
                n, c, h2, w2 = dx.shape
                dx = (mask * dx[:, :, :, None, :, None]).reshape(n, c, h2 * 2, w2 * 2)
            dy = (dx * (y > 0)).transpose(0, 2, 3, 1).reshape(-1, y.shape[1])
            grads[f"w{i}"] = cols.T @ dy
            grads[f"b{i}"] = dy.sum(0)
            if i > 0:
                dx = _col2im(dy @ self.params[f"w{i}"].T, shape)
        return grads

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Softmax over the six faces for a batch (N, 3, 40, 40)."""
        logits, _ = self.forward(x.astype(np.float32))
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def to_json(self) -> dict[str, Any]:
        """Weights as JSON-ready data (float16, base64)."""
        return {"input_px": INPUT_PX, "pad": PAD, "weights": {
            k: {"shape": list(v.shape),
                "float16": base64.b64encode(v.astype(np.float16).tobytes()).decode()}
            for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any], where: str = "dice weights") -> DiceNet:
        """Read :meth:`to_json` data.

        Raises:
            ValueError: naming ``where`` and the weight that is malformed.
        """
        if data.get("input_px") != INPUT_PX:
            raise ValueError(f"{where}: made for {data.get('input_px')} px crops, "
                             f"this reader uses {INPUT_PX}")
        params = {}
        for name, spec in data.get("weights", {}).items():
            try:
                raw = np.frombuffer(base64.b64decode(spec["float16"]), np.float16)
                params[name] = raw.astype(np.float32).reshape(spec["shape"])
            except (KeyError, ValueError, TypeError) as exc:
                raise ValueError(f"{where}: weight {name!r}: {exc}") from exc
        if "wf" not in params or "w0" not in params:
            raise ValueError(f"{where}: missing weights")
        return cls(params)


@lru_cache(maxsize=2)
def shipped_nets(folder: Path = WEIGHTS.parent) -> tuple[DiceNet, ...]:
    """The networks whose weights are in ``folder`` (none if no weights file is there)."""
    return tuple(DiceNet.from_json(json.loads(path.read_text(encoding="utf-8")), str(path))
                 for path in sorted(folder.glob("dice_weights_*.json")))


def face_probabilities(nets: tuple[DiceNet, ...], image: np.ndarray,
                       box: tuple[int, int, int, int]) -> np.ndarray:
    """The ensemble's mean probability of each face 1-6 (index 0-5) for the die in ``box``.

    Example:
        >>> net = DiceNet.random(np.random.default_rng(0))
        >>> p = face_probabilities((net,), np.zeros((50, 50, 3), np.uint8), (10, 10, 40, 40))
        >>> p.shape, round(float(p.sum()), 3)
        ((6,), 1.0)
    """
    x = die_crop(image, box)[None]
    return np.mean([net.probabilities(x)[0] for net in nets], axis=0)
