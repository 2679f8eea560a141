"""Dice read by the camera, confirmed by the player: a physical roll with source ``camera``.

A tap on "Read dice from camera" takes the newest frame on the main loop, reads the dice in
the tray on a short-lived thread (:func:`vision.readers.dice_tray.read_tray`: only the tray's region
when its markers are in view or a saved tray region is set, the trained detector and reader),
and hands the values back through the main loop's inbox (``Clock.schedule_once``) with each
die's crop: the screen shows them beside the dice keypad, so the player sees which die was
read as what, fixes a wrong one by touch, and confirms before the roll is proposed. When the
count differs from the dice the game expects, the result says so (:func:`count_problem`).

On a desktop without a camera, :class:`SimulatedDiceTray` is the table: it rolls as many
d6 as are due and renders them (:mod:`vision.dice_render`); such flat rendered faces are
found by the training-free :func:`vision.readers.dice.find_dice` and read by
:func:`vision.readers.dice.count_pips`, which are exact on them.

Example:
    >>> tray = SimulatedDiceTray(seed=2)
    >>> frame = tray.frame(3)
    >>> read_values(frame, tray.reader) == list(tray.values)
    True
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.dice_render import render_dice_tray
from vision.readers.dice import DieReading, count_pips, find_dice, read_die
from vision.readers.dice_tray import DieReader, Region, read_tray
from vision.readers.tray import TrayRegion, tray_from_markers

DICE_PHASES = frozenset({"trap_roll", "fight_roll", "trap_rerolling", "fight_rerolling"})
"""Infinidungeon's chance phases that wait for d6 values (the shuffles do not)."""
CROP_PX = 96
"""Side of each die's crop handed to the screen."""


def dungeon_dice_due(state: Any) -> int:
    """How many d6 an Infinidungeon state waits for (0 when it waits for no dice).

    A roll wants every die the player has left; a reroll only the dice chosen for it.
    """
    if state.phase not in DICE_PHASES:
        return 0
    return len(state.rerolling) if state.phase.endswith("rerolling") else int(state.dice)


def read_readings(frame: np.ndarray, reader: DieReader | None = read_die,
                  region: Region | TrayRegion | None = None) -> list[DieReading]:
    """The dice in ``frame`` as they lie left to right (see :mod:`vision.readers.dice_tray`).

    ``reader`` :func:`vision.readers.dice.read_die` (or ``None``) reads with the trained detector
    and reader; any other per-die reader (the pip counter of the rendered trays) goes with the
    training-free finder. Without a region, the tray's markers are looked for in the frame.
    """
    if region is None:
        region = tray_from_markers(frame)
    if reader is None or reader is read_die:
        return read_tray(frame, region)
    return read_tray(frame, region, reader=reader, finder=find_dice)


def read_values(frame: np.ndarray, reader: DieReader | None = read_die,
                region: Region | TrayRegion | None = None) -> list[int]:
    """The dice faces in ``frame`` as they lie left to right."""
    return [r.pips for r in read_readings(frame, reader, region)]


def die_crop(frame: np.ndarray, box: tuple[int, int, int, int], side: int = CROP_PX
             ) -> np.ndarray:
    """The die's box grown by a tenth on each side, square, ``side`` pixels, BGR."""
    import cv2

    x0, y0, x1, y1 = box
    half = max(x1 - x0, y1 - y0) * 0.6
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    m = np.array([[side / (2 * half), 0, side / 2 - cx * side / (2 * half)],
                  [0, side / (2 * half), side / 2 - cy * side / (2 * half)]])
    return cv2.warpAffine(frame, m, (side, side), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)


def keypad_text(values: list[int]) -> str:
    """The values as the dice keypad shows them.

    Example:
        >>> keypad_text([3, 5, 6])
        '3 5 6'
    """
    return " ".join(str(v) for v in values)


def count_problem(expected: int | None, seen: int) -> tuple[str, dict[str, int]] | None:
    """The catalogue key and parameters saying the count is off, or ``None`` when it is not.

    Example:
        >>> count_problem(5, 4)
        ('camera.count_mismatch', {'expected': 5, 'seen': 4})
        >>> count_problem(3, 3) is None, count_problem(None, 2) is None
        (True, True)
    """
    if not expected or expected == seen:
        return None
    return "camera.count_mismatch", {"expected": expected, "seen": seen}


@dataclass(frozen=True)
class DiceRead:
    """What one read gave.

    Attributes:
        values: the faces left to right.
        problem: why there are none ("" when there are).
        crops: each die's crop (BGR), in the same order.
        expected: how many dice the game expected (``None``: any number).
    """

    values: tuple[int, ...]
    problem: str = ""
    crops: tuple[np.ndarray, ...] = field(default=(), compare=False, repr=False)
    expected: int | None = None


class SimulatedDiceTray:
    """The desktop's stand-in for dice on the table: seeded d6 rolls, rendered.

    Attributes:
        values: the faces of the last rendered tray, left to right.
        reader: how its dice are read (the pip counter).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.reader: DieReader = count_pips
        self._rng = random.Random(seed)
        self.values: tuple[int, ...] = ()

    def frame(self, count: int) -> np.ndarray:
        """Roll ``count`` d6 (1-5 fit the tray) and return the tray's picture."""
        count = max(1, min(count, 5))
        self.values = tuple(self._rng.randint(1, 6) for _ in range(count))
        return render_dice_tray(self.values, seed=self._rng.randrange(1 << 30)).image


class CameraDice:
    """Reads the dice off the main loop and posts the result back to it.

    Args:
        post: the main loop's inbox (``MainLoopInbox.post``); ``post(function, *args)``.
        region: the tray's part of the frame; ``None``: the tray's markers when they are in
            view, else the whole frame.
        tray_file: a tray region saved by ``python -m vision.readers.tray`` (used when ``region`` is
            ``None`` and the file exists).
    """

    def __init__(self, post: Callable[..., Any], region: Region | TrayRegion | None = None,
                 tray_file: Path | None = None) -> None:
        self.post = post
        self.region = region
        if region is None and tray_file is not None and tray_file.is_file():
            self.region = TrayRegion.load(tray_file)
        self.reads = 0

    def read(self, frame: np.ndarray | None, reader: DieReader,
             on_done: Callable[[DiceRead], Any], expected: int | None = None
             ) -> threading.Thread | None:
        """Read ``frame`` on a thread; ``on_done(DiceRead)`` then runs on the main loop.

        Without a frame, ``on_done`` gets the problem at once (posted too).
        """
        if frame is None:
            self.post(on_done, DiceRead((), "no camera frame", expected=expected))
            return None
        frame = frame.copy()

        def work() -> None:
            try:
                readings = read_readings(frame, reader, self.region)
                result = DiceRead(tuple(r.pips for r in readings),
                                  "" if readings else "no dice seen",
                                  tuple(die_crop(frame, r.box) for r in readings), expected)
            except ValueError as error:
                result = DiceRead((), str(error), expected=expected)
            self.reads += 1
            self.post(on_done, result)

        thread = threading.Thread(target=work, name="camera-dice", daemon=True)
        thread.start()
        return thread
