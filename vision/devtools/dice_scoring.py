"""Scoring found and read dice against labelled photos (benchmarks and tests).

Two views of detection: boxes matched at IoU >= 0.5 (each labelled die at most once), and
"each die alone in one box", which does not depend on how tight the labelled boxes are: a
labelled die is *alone* when exactly one found box holds its centre and that box holds no
other labelled die's centre; a found box is *clean* when it holds exactly one labelled
centre.

Example:
    >>> from vision.devtools.dice_data import LabelledDie
    >>> gold = [LabelledDie((0, 0, 10, 10), 3), LabelledDie((20, 0, 30, 10), 5)]
    >>> s = score_photo(gold, [(1, 0, 10, 10), (18, 0, 30, 11), (50, 50, 60, 60)], [3, 4, 1])
    >>> (s.matched, s.false_boxes, s.alone, s.clean_boxes, s.exact)
    (2, 1, 2, 2, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.devtools.dice_data import LabelledDie
from vision.readers.dice import box_iou

Box = tuple[int, int, int, int]
LIGHT_L = 165
"""A die whose body's median lightness (OpenCV's 8-bit CIELAB L) is above this..."""
LIGHT_CHROMA = 25
"""...and whose median colour is this close to grey is light-bodied: white or ivory. Checked
by eye on the crops of 60 training photos (51 of 549 dice; every one white or ivory, no
white or ivory die left out)."""


def light_body(image: np.ndarray, box: Sequence[int]) -> bool:
    """Whether the die in ``box`` has a white or ivory body (its middle's median colour).

    The pips cover a minority of the box's middle, so the median is the body's colour.
    """
    x0, y0, x1, y1 = (int(v) for v in box)
    w, h = x1 - x0, y1 - y0
    middle = image[y0 + h // 5:y1 - h // 5, x0 + w // 5:x1 - w // 5]
    if middle.size == 0:
        return False
    lab = cv2.cvtColor(middle, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(float)
    light, a, b = np.median(lab, axis=0)
    return bool(light > LIGHT_L and np.hypot(a - 128, b - 128) < LIGHT_CHROMA)


def found(gold: Sequence[LabelledDie], boxes: Sequence[Box]) -> list[bool]:
    """For each labelled die, whether a found box matches it at IoU >= 0.5."""
    return [any(box_iou(d.box, b) >= 0.5 for b in boxes) for d in gold]


@dataclass(frozen=True)
class PhotoScore:
    """One photo's scores.

    Labelled dice, found boxes, matches at IoU >= 0.5, false boxes, dice alone in one box,
    found boxes holding exactly one die, matched dice read right, and whether the values
    read are exactly the labelled ones (as a multiset: the roll the player confirms).
    """

    dice: int
    found: int
    matched: int
    false_boxes: int
    alone: int
    clean_boxes: int
    read_right: int
    exact: bool


def _holds(box: Sequence[float], die: LabelledDie) -> bool:
    cx, cy = (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def score_photo(gold: list[LabelledDie], boxes: Sequence[Box], values: Sequence[int]
                ) -> PhotoScore:
    """Score the ``boxes`` found in one photo and the ``values`` read from them."""
    used: set[int] = set()
    matched = right = 0
    for die in gold:
        best = max((i for i in range(len(boxes)) if i not in used),
                   key=lambda i: box_iou(die.box, boxes[i]), default=None)
        if best is not None and box_iou(die.box, boxes[best]) >= 0.5:
            used.add(best)
            matched += 1
            right += values[best] == die.pips
    holders = [[i for i, b in enumerate(boxes) if _holds(b, d)] for d in gold]
    held = [[j for j, d in enumerate(gold) if _holds(b, d)] for b in boxes]
    alone = sum(1 for h in holders if len(h) == 1 and len(held[h[0]]) == 1)
    clean = sum(1 for h in held if len(h) == 1)
    exact = Counter(values) == Counter(d.pips for d in gold)
    return PhotoScore(len(gold), len(boxes), matched, len(boxes) - len(used), alone, clean,
                      right, exact)


@dataclass
class Totals:
    """Scores summed over photos, with the ratios the targets are stated in."""

    photos: int = 0
    exact: int = 0
    dice: int = 0
    found: int = 0
    matched: int = 0
    alone: int = 0
    clean: int = 0
    read_right: int = 0

    def add(self, s: PhotoScore) -> None:
        """Count one photo."""
        self.photos += 1
        self.exact += s.exact
        self.dice += s.dice
        self.found += s.found
        self.matched += s.matched
        self.alone += s.alone
        self.clean += s.clean_boxes
        self.read_right += s.read_right

    def line(self) -> str:
        """The figures as one report line."""
        def pc(a: int, b: int) -> str:
            return f"{100 * a / max(1, b):.2f} % ({a}/{b})"
        return (f"photos exact {pc(self.exact, self.photos)}; recall {pc(self.matched, self.dice)}"
                f", precision {pc(self.matched, self.found)} at IoU >= 0.5; alone in one box "
                f"{pc(self.alone, self.dice)}, boxes holding one die {pc(self.clean, self.found)}"
                f"; matched dice read right {pc(self.read_right, self.matched)}")
