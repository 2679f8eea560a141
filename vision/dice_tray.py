"""The faces of the dice in a tray, in the order they lie: what a physical roll shows.

:func:`tray_values` finds the dice in a frame (or in the tray's region of it) with
:func:`vision.dice.find_dice`, reads each with :func:`vision.dice.read_die`, and orders them
left to right (then top to bottom for dice in the same column), so the players can check
them against the table and the engine gets them as a ``roll`` in that order.

Example:
    >>> from vision.dice import count_pips
    >>> from vision.dice_render import render_dice_tray
    >>> tray_values(render_dice_tray((2, 6, 4), seed=3).image, reader=count_pips)
    [2, 6, 4]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.dice import DieReading, find_dice, read_die

Region = tuple[int, int, int, int]
"""``(xmin, ymin, xmax, ymax)`` in frame pixels."""
DieReader = Callable[[np.ndarray, tuple[int, int, int, int]], int]
"""Reads one die's face from an image and its box: :func:`vision.dice.read_die` (the trained
networks, for camera photos) or :func:`vision.dice.count_pips` (no training; exact on the
rendered trays of :mod:`vision.dice_render`, which the networks were not trained on)."""


def _crop(frame: np.ndarray, region: Region | None) -> tuple[np.ndarray, int, int]:
    if region is None:
        return frame, 0, 0
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = max(0, region[0]), max(0, region[1]), min(w, region[2]), min(h, region[3])
    if x1 - x0 < 8 or y1 - y0 < 8:
        raise ValueError(f"tray region {region} is empty or outside the {w}x{h} frame")
    return frame[y0:y1, x0:x1], x0, y0


def read_tray(frame: np.ndarray, region: Region | None = None,
              reader: DieReader = read_die) -> list[DieReading]:
    """Every die in the tray with its box (in frame pixels), left to right.

    Dice whose centres are within half a die's width of each other horizontally count as
    one column and are ordered top to bottom.

    Args:
        frame: BGR camera frame.
        region: the tray's part of the frame, or ``None`` for the whole frame.
        reader: how one die is read (default: the trained networks).

    Raises:
        ValueError: the region is empty or outside the frame.
    """
    image, dx, dy = _crop(frame, region)
    readings = [DieReading((b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy), reader(image, b))
                for b in find_dice(image)]
    if not readings:
        return []
    side = float(np.median([r.box[2] - r.box[0] for r in readings]))
    readings.sort(key=lambda r: (r.box[0] + r.box[2]) / 2)
    columns: list[list[DieReading]] = []
    for reading in readings:
        centre = (reading.box[0] + reading.box[2]) / 2
        last = columns[-1][0] if columns else None
        if last is not None and centre - (last.box[0] + last.box[2]) / 2 < side / 2:
            columns[-1].append(reading)
        else:
            columns.append([reading])
    return [r for column in columns for r in sorted(column, key=lambda r: r.box[1])]


def tray_values(frame: np.ndarray, region: Region | None = None,
                reader: DieReader = read_die) -> list[int]:
    """The faces of the dice in the tray (1-6 each), in the order they lie left to right.

    Raises:
        ValueError: the region is empty or outside the frame.
    """
    return [reading.pips for reading in read_tray(frame, region, reader)]
