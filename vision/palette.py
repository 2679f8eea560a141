"""Colour classes (block colours, pawn colours, the table) classified in CIELAB.

A pixel is given the class whose CIELAB reference is nearest, lightness counting less than
hue and chroma (so a dimly lit white block is still white) and nothing when every reference
is too far (a hand, a shadow, a seam). Classification runs through a 32x32x32 look-up table
over BGR, built once per palette, so a 640x480 frame costs a few milliseconds.

The palette is configurable (JSON, see ``docs/vision.md``) and can learn its references
from the table's own content (:func:`adapt_palette`).

Example:
    >>> pal = default_palette()
    >>> pal.classify_bgr((235, 236, 238))
    'white'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

KINDS = ("block", "pawn", "table")
UNKNOWN = 255
"""Class index of a pixel that matches nothing."""

DEFAULT_BGR: dict[str, tuple[str, str, tuple[int, int, int]]] = {
    # name: (kind, short letter used in ids, nominal BGR under neutral light)
    "white": ("block", "W", (232, 236, 238)),
    "yellow": ("block", "Y", (40, 200, 235)),
    "red": ("block", "R", (45, 40, 195)),
    "blue": ("block", "B", (175, 85, 25)),
    "green": ("pawn", "G", (60, 170, 40)),
    "magenta": ("pawn", "M", (170, 40, 190)),
    "cyan": ("pawn", "C", (215, 195, 40)),
    "orange": ("pawn", "O", (30, 125, 245)),
    "table": ("table", "T", (95, 82, 70)),
}


def bgr_to_lab(bgr: tuple[float, float, float] | np.ndarray) -> np.ndarray:
    """True CIELAB (L 0..100, a and b about -128..127) of one or more BGR colours.

    Example:
        >>> [round(float(v)) for v in bgr_to_lab((255, 255, 255))]
        [100, 0, 0]
    """
    arr = np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0
    lab = cv2.cvtColor(arr, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return lab[0] if np.asarray(bgr).ndim == 1 else lab


@dataclass(frozen=True)
class ColourClass:
    """One colour a detector looks for.

    Attributes:
        name: e.g. ``"yellow"``.
        kind: ``"block"``, ``"pawn"`` or ``"table"``.
        letter: prefix of provisional block ids (``"Y"`` gives ``Y1``, ``Y2``...).
        lab: CIELAB reference.
    """

    name: str
    kind: str
    letter: str
    lab: tuple[float, float, float]


@dataclass(frozen=True)
class Palette:
    """The colour classes and how strictly pixels must match them.

    Attributes:
        classes: the classes, in index order.
        l_weight: weight of lightness against a and b in the distance.
        max_distance: beyond this weighted distance a pixel matches nothing.
    """

    classes: tuple[ColourClass, ...]
    l_weight: float = 0.35
    max_distance: float = 25.0

    def index(self, name: str) -> int:
        """The index of class ``name``.

        Raises:
            KeyError: no such class.
        """
        for i, c in enumerate(self.classes):
            if c.name == name:
                return i
        raise KeyError(f"no colour class {name!r} in palette {[c.name for c in self.classes]}")

    def of_kind(self, kind: str) -> list[int]:
        """Indexes of the classes of ``kind`` (``"block"``, ``"pawn"``, ``"table"``)."""
        return [i for i, c in enumerate(self.classes) if c.kind == kind]

    @cached_property
    def lut(self) -> np.ndarray:
        """The BGR (5 bits per channel) to class index table, 32768 entries."""
        levels = (np.arange(32, dtype=np.float32) * 8 + 4) / 255.0
        b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
        bgr = np.stack([b, g, r], axis=-1).reshape(-1, 1, 3)
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3)
        return self._nearest(lab)

    def near(self, kind: str, within: float) -> np.ndarray:
        """A look-up table like :attr:`lut`: BGR within ``within`` of a class of ``kind``.

        The distance is the classes' own (lightness weighted by :attr:`l_weight`). Kept
        with the palette, like :attr:`lut`.
        """
        cache: dict[tuple[str, float], np.ndarray] = self.__dict__.setdefault("_near", {})
        key = (kind, float(within))
        if key not in cache:
            levels = (np.arange(32, dtype=np.float32) * 8 + 4) / 255.0
            b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
            lab = cv2.cvtColor(np.stack([b, g, r], axis=-1).reshape(-1, 1, 3),
                               cv2.COLOR_BGR2Lab).reshape(-1, 3)
            w = np.array([self.l_weight, 1.0, 1.0], np.float32)
            near = np.zeros(len(lab), bool)
            for c in self.classes:
                if c.kind == kind:
                    d = (((lab - np.asarray(c.lab, np.float32)) * w) ** 2).sum(axis=1)
                    near |= d < within * within
            cache[key] = near
        return cache[key]

    def _nearest(self, lab: np.ndarray) -> np.ndarray:
        refs = np.array([c.lab for c in self.classes], np.float32)
        w = np.array([self.l_weight, 1.0, 1.0], np.float32)
        d = np.sqrt((((lab[:, None, :] - refs[None, :, :]) * w) ** 2).sum(axis=2))
        best = d.argmin(axis=1)
        out = best.astype(np.uint8)
        out[d[np.arange(len(d)), best] > self.max_distance] = UNKNOWN
        return out

    def classify(self, bgr_image: np.ndarray) -> np.ndarray:
        """Class index per pixel (``UNKNOWN`` where nothing matches) of a BGR uint8 image.

        Example:
            >>> img = np.full((2, 2, 3), (40, 200, 235), np.uint8)
            >>> int(default_palette().classify(img)[0, 0]) == default_palette().index("yellow")
            True
        """
        q = (bgr_image >> 3).astype(np.uint16)
        idx = (q[..., 0] << 10) | (q[..., 1] << 5) | q[..., 2]
        return self.lut[idx]

    def classify_bgr(self, bgr: tuple[int, int, int]) -> str | None:
        """The class name of one BGR colour, or None."""
        i = int(self.classify(np.array([[bgr]], np.uint8))[0, 0])
        return None if i == UNKNOWN else self.classes[i].name

    def with_references(self, labs: Mapping[str, list[float] | tuple[float, ...]]) -> Palette:
        """A copy whose named classes use new CIELAB references."""
        classes = tuple(
            ColourClass(c.name, c.kind, c.letter,
                        tuple(float(v) for v in labs[c.name]))  # type: ignore[arg-type]
            if c.name in labs else c for c in self.classes)
        return Palette(classes, self.l_weight, self.max_distance)

    def to_json(self) -> dict[str, Any]:
        """The palette as JSON-ready data (the format :func:`palette_from_json` reads)."""
        return {"l_weight": self.l_weight, "max_distance": self.max_distance,
                "classes": {c.name: {"kind": c.kind, "letter": c.letter,
                                     "lab": [round(v, 2) for v in c.lab]}
                            for c in self.classes}}


@lru_cache(maxsize=1)
def default_palette() -> Palette:
    """The Infinifield set: white, yellow, red and blue blocks, four pawn colours, the table."""
    return Palette(tuple(
        ColourClass(name, kind, letter, tuple(float(v) for v in bgr_to_lab(bgr)))  # type: ignore[arg-type]
        for name, (kind, letter, bgr) in DEFAULT_BGR.items()))


def palette_from_json(data: Mapping[str, Any], where: str = "palette") -> Palette:
    """Read a palette: ``{"classes": {name: {"kind", "letter", "lab" | "bgr"}}, ...}``.

    Raises:
        ValueError: naming ``where``, the class and the key that is wrong.
    """
    raw = data.get("classes")
    if not isinstance(raw, dict) or not raw:
        raise ValueError(f"{where}: 'classes' must be a non-empty object")
    classes = []
    for name, spec in raw.items():
        here = f"{where}: classes.{name}"
        if not isinstance(spec, dict):
            raise ValueError(f"{here}: expected an object")
        kind = spec.get("kind")
        if kind not in KINDS:
            raise ValueError(f"{here}.kind: {kind!r} is not one of {list(KINDS)}")
        letter = str(spec.get("letter", name[:1].upper()))
        if "lab" in spec:
            lab = spec["lab"]
        elif "bgr" in spec:
            lab = bgr_to_lab(tuple(spec["bgr"])).tolist()
        else:
            raise ValueError(f"{here}: needs 'lab' [L, a, b] or 'bgr' [b, g, r]")
        if not (isinstance(lab, list | tuple) and len(lab) == 3):
            raise ValueError(f"{here}: colour must have three numbers")
        classes.append(ColourClass(str(name), kind, letter,
                                   (float(lab[0]), float(lab[1]), float(lab[2]))))
    if len(classes) > 250:
        raise ValueError(f"{where}: at most 250 classes")
    try:
        return Palette(tuple(classes), float(data.get("l_weight", 0.35)),
                       float(data.get("max_distance", 25.0)))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: l_weight/max_distance: {exc}") from exc


def load_palette(path: Path | str) -> Palette:
    """Load a palette JSON file (errors name the file and the key)."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno}: {exc.msg}") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return palette_from_json(data, str(path))


def adapt_palette(palette: Palette, bgr_image: np.ndarray, min_pixels: int = 200,
                  blend: float = 0.7) -> Palette:
    """Learn references from the table's own content.

    Each class's reference moves (by ``blend``) toward the mean CIELAB colour of the
    pixels of ``bgr_image`` (white-balanced, rectified) that it already claims, if at least
    ``min_pixels`` of them; the others keep their reference.

    Example:
        >>> img = np.full((20, 20, 3), (40, 190, 225), np.uint8)
        >>> adapted = adapt_palette(default_palette(), img, min_pixels=10)
        >>> adapted.classes[1].lab != default_palette().classes[1].lab
        True
    """
    classes = palette.classify(bgr_image)
    lab = cv2.cvtColor(bgr_image.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    new: dict[str, list[float]] = {}
    for i, c in enumerate(palette.classes):
        sel = classes == i
        if int(sel.sum()) >= min_pixels:
            mean = lab[sel].mean(axis=0)
            new[c.name] = [float((1 - blend) * r + blend * m) for r, m in zip(c.lab, mean,
                                                                              strict=True)]
    return palette.with_references(new)


def provisional_ids(colours: Iterable[str]) -> list[str]:
    """Ids by colour letter in the order given (``W1``, ``Y1``, ``W2``...).

    For blocks the camera saw before the players named them.

    Example:
        >>> provisional_ids(["white", "yellow", "white"])
        ['W1', 'Y1', 'W2']
    """
    ids: list[str] = []
    counters: dict[str, int] = {}
    for colour in colours:
        letter = colour[:1].upper()
        counters[letter] = counters.get(letter, 0) + 1
        ids.append(f"{letter}{counters[letter]}")
    return ids
