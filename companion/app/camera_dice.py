"""Dice read by the camera, confirmed by the player: a physical roll with source ``camera``.

A tap on "Read dice from camera" takes the newest frame on the main loop, reads the dice in
the tray on a short-lived thread (:func:`vision.dice_tray.tray_values`), and hands the
values back through the main loop's inbox (``Clock.schedule_once``): the screen then shows
them on the dice keypad for the player to confirm or correct before the roll is proposed.

On a desktop without a camera, :class:`SimulatedDiceTray` is the table: it rolls as many
d6 as are due and renders them (:mod:`vision.dice_render`), and is read with the pip
counter (the trained networks learned real photos, not rendered faces).

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
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.dice import count_pips, read_die
from vision.dice_render import render_dice_tray
from vision.dice_tray import DieReader, Region, tray_values

DICE_PHASES = frozenset({"trap_roll", "fight_roll", "trap_rerolling", "fight_rerolling"})
"""Infinidungeon's chance phases that wait for d6 values (the shuffles do not)."""


def dungeon_dice_due(state: Any) -> int:
    """How many d6 an Infinidungeon state waits for (0 when it waits for no dice).

    A roll wants every die the player has left; a reroll only the dice chosen for it.
    """
    if state.phase not in DICE_PHASES:
        return 0
    return len(state.rerolling) if state.phase.endswith("rerolling") else int(state.dice)


def read_values(frame: np.ndarray, reader: DieReader = read_die,
                region: Region | None = None) -> list[int]:
    """The dice faces in ``frame`` as they lie left to right (see :mod:`vision.dice_tray`)."""
    return tray_values(frame, region, reader)


def keypad_text(values: list[int]) -> str:
    """The values as the dice keypad shows them.

    Example:
        >>> keypad_text([3, 5, 6])
        '3 5 6'
    """
    return " ".join(str(v) for v in values)


@dataclass(frozen=True)
class DiceRead:
    """What one read gave: the values left to right, or why there are none."""

    values: tuple[int, ...]
    problem: str = ""


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
        region: the tray's part of the frame (``None``: the whole frame).
    """

    def __init__(self, post: Callable[..., Any], region: Region | None = None) -> None:
        self.post = post
        self.region = region
        self.reads = 0

    def read(self, frame: np.ndarray | None, reader: DieReader,
             on_done: Callable[[DiceRead], Any]) -> threading.Thread | None:
        """Read ``frame`` on a thread; ``on_done(DiceRead)`` then runs on the main loop.

        Without a frame, ``on_done`` gets the problem at once (posted too).
        """
        if frame is None:
            self.post(on_done, DiceRead((), "no camera frame"))
            return None
        frame = frame.copy()

        def work() -> None:
            try:
                values = read_values(frame, reader, self.region)
                result = DiceRead(tuple(values), "" if values else "no dice seen")
            except ValueError as error:
                result = DiceRead((), str(error))
            self.reads += 1
            self.post(on_done, result)

        thread = threading.Thread(target=work, name="camera-dice", daemon=True)
        thread.start()
        return thread
