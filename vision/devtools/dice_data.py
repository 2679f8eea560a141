"""The labelled dice photos as every tool reads them: corrected labels, fixed split.

The shared photos' ``labels.json`` holds a few wrong pip counts; the project corrects them in
``vision/models/dice_label_overrides.json`` (photo, box, the count labelled, the count shown,
and why), and :func:`load_labels` applies them, refusing an override that no longer matches a
labelled die. ``vision/models/dice_split.json`` fixes which photos are held out of all
training and tuning (chosen by photo with a fixed seed, :func:`make_split`); benchmarks report
targets on those only.

Example:
    >>> split = make_split([f"p{i}.jpg" for i in range(8)], held_out=2, tune=2, seed=1)
    >>> sorted(len(v) for v in split.values())
    [2, 2, 4]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

MODELS = Path(__file__).parents[1] / "models"
OVERRIDES = MODELS / "dice_label_overrides.json"
SPLIT = MODELS / "dice_split.json"
SPLIT_SEED = 13
"""The seed :func:`make_split` drew ``dice_split.json`` with."""

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: its box ``(xmin, ymin, xmax, ymax)`` and pip count 1-6."""

    box: Box
    pips: int


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from exc


def _box(values: Any) -> Box:
    x0, y0, x1, y1 = (int(v) for v in values)
    return (x0, y0, x1, y1)


def read_photo(path: Path) -> np.ndarray:
    """A photo as a BGR array.

    Raises:
        ValueError: naming the file when it is missing or not an image.
    """
    image = cv2.imread(str(path))
    if image is None:
        raise ValueError(f"{path}: missing or not a readable image")
    return image


def load_labels(labels_path: Path, overrides_path: Path = OVERRIDES
                ) -> dict[str, list[LabelledDie]]:
    """The labels of the photos beside ``labels_path`` with the project's corrections.

    Raises:
        ValueError: naming the file and entry of a malformed label or override, or an
            override whose photo, box or labelled count is not in the labels.
    """
    raw = _read_json(labels_path)
    if not isinstance(raw, dict):
        raise ValueError(f"{labels_path}: expected an object of photo name -> dice")
    labels: dict[str, list[LabelledDie]] = {}
    for name, dice in raw.items():
        try:
            labels[name] = [LabelledDie(_box(d["box"]), int(d["pips"])) for d in dice]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{labels_path}: photo {name!r}: malformed die ({exc})") from exc
    if overrides_path.is_file():
        for i, entry in enumerate(_read_json(overrides_path).get("overrides", [])):
            where = f"{overrides_path}: overrides[{i}]"
            try:
                name, box = entry["photo"], _box(entry["box"])
                was, pips = int(entry["labelled"]), int(entry["pips"])
                if not entry["reason"].strip():
                    raise ValueError("empty reason")
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise ValueError(f"{where}: malformed ({exc})") from exc
            dice = labels.get(name)
            if dice is None:
                raise ValueError(f"{where}: photo {name!r} is not in {labels_path}")
            hits = [j for j, d in enumerate(dice) if d.box == box]
            if not hits or dice[hits[0]].pips != was:
                raise ValueError(f"{where}: no die at {list(box)} labelled {was} in {name}")
            if not 1 <= pips <= 6:
                raise ValueError(f"{where}: pips {pips} is not 1-6")
            dice[hits[0]] = LabelledDie(box, pips)
    return labels


def make_split(names: list[str], held_out: int = 50, tune: int = 20,
               seed: int = SPLIT_SEED) -> dict[str, list[str]]:
    """Photos drawn at random (fixed seed) into ``held_out``, ``tune`` and ``train``.

    ``held_out`` photos are never used to train or tune anything; ``tune`` photos choose
    training lengths and thresholds; ``train`` photos train.
    """
    order = [str(n) for n in np.random.default_rng(seed).permutation(sorted(names))]
    return {"held_out": sorted(order[:held_out]),
            "tune": sorted(order[held_out:held_out + tune]),
            "train": sorted(order[held_out + tune:])}


def load_split(path: Path = SPLIT) -> dict[str, list[str]]:
    """The shipped split: ``{"held_out": [...], "tune": [...], "train": [...]}``.

    Raises:
        ValueError: naming the file and the part that is missing or overlaps another.
    """
    data = _read_json(path)
    parts = {}
    for part in ("held_out", "tune", "train"):
        if not isinstance(data.get(part), list):
            raise ValueError(f"{path}: {part!r} must be a list of photo names")
        parts[part] = [str(n) for n in data[part]]
    seen: set[str] = set()
    for part, names in parts.items():
        if seen & set(names):
            raise ValueError(f"{path}: {part!r} shares photos with another part")
        seen |= set(names)
    return parts
