"""The faces of the dice in a tray, in the order they lie: what a physical roll shows.

:func:`read_tray` looks at the tray's part of the frame only (a
:class:`vision.readers.tray.TrayRegion` from the tray's markers or its saved outline, or an upright
rectangle; the whole frame when there is none), finds every die there with the trained detector of
:mod:`vision.readers.dice_detect`, keeps those whose centre lies inside the tray, reads them all in
one batch with the trained reader of :mod:`vision.readers.dice_reader` (which also drops a box it
finds holds no die), and orders them left to right (then top to bottom for dice in the same column),
so the players can check them against the table and the engine gets them as a ``roll`` in that
order.

A finder and a per-die reader may be given instead: the desktop simulation's rendered trays
(:mod:`vision.dice_render`) are found by :func:`vision.readers.dice.find_dice` and read by
:func:`vision.readers.dice.count_pips`, which are exact on them.

Example:
    >>> from vision.readers.dice import count_pips, find_dice
    >>> from vision.dice_render import render_dice_tray
    >>> tray_values(render_dice_tray((2, 6, 4), seed=3).image, reader=count_pips,
    ...             finder=find_dice)
    [2, 6, 4]
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.readers.dice import DieReading
from vision.readers.dice_detect import find_dice_net
from vision.readers.dice_reader import MODEL as READER
from vision.readers.dice_reader import read_boxes
from vision.readers.tray import TrayRegion

Box = tuple[int, int, int, int]
Region = tuple[int, int, int, int]
"""``(xmin, ymin, xmax, ymax)`` in frame pixels."""
DieReader = Callable[[np.ndarray, Box], int]
"""Reads one die's face from an image and its box, e.g. :func:`vision.readers.dice.count_pips`."""
DiceFinder = Callable[[np.ndarray], list[Box]]
"""Finds the dice boxes in an image, e.g. :func:`vision.readers.dice_detect.find_dice_net`."""


def _crop(frame: np.ndarray, region: Region | TrayRegion | None
          ) -> tuple[np.ndarray, int, int]:
    if region is None:
        return frame, 0, 0
    h, w = frame.shape[:2]
    bounds = region.bounds() if isinstance(region, TrayRegion) else region
    x0, y0 = max(0, bounds[0]), max(0, bounds[1])
    x1, y1 = min(w, bounds[2]), min(h, bounds[3])
    if x1 - x0 < 8 or y1 - y0 < 8:
        raise ValueError(f"tray region {bounds} is empty or outside the {w}x{h} frame")
    return frame[y0:y1, x0:x1], x0, y0


def in_reading_order(readings: list[DieReading]) -> list[DieReading]:
    """The readings left to right.

    Dice whose centres are within half a die's width of each other horizontally count as
    one column and are ordered top to bottom.
    """
    if not readings:
        return []
    side = float(np.median([r.box[2] - r.box[0] for r in readings]))
    ordered = sorted(readings, key=lambda r: (r.box[0] + r.box[2]) / 2)
    columns: list[list[DieReading]] = []
    for reading in ordered:
        centre = (reading.box[0] + reading.box[2]) / 2
        last = columns[-1][0] if columns else None
        if last is not None and centre - (last.box[0] + last.box[2]) / 2 < side / 2:
            columns[-1].append(reading)
        else:
            columns.append([reading])
    return [r for column in columns for r in sorted(column, key=lambda r: r.box[1])]


def read_tray(frame: np.ndarray, region: Region | TrayRegion | None = None,
              reader: DieReader | None = None, finder: DiceFinder | None = None,
              model: Path = READER) -> list[DieReading]:
    """Every die in the tray with its box (in frame pixels), in reading order.

    Args:
        frame: BGR camera frame.
        region: the tray (its markers' or outline's :class:`TrayRegion`, or a rectangle), or
            ``None`` for the whole frame.
        reader: how one die is read (default: the trained reader, all dice in one batch).
        finder: how the dice are found (default: the trained detector).
        model: the trained reader's network (a candidate in the benchmarks).

    Raises:
        ValueError: the region is empty or outside the frame, or a model is missing.
    """
    image, dx, dy = _crop(frame, region)
    boxes = (finder or find_dice_net)(image)
    if isinstance(region, TrayRegion):
        boxes = [b for b in boxes
                 if region.contains(((b[0] + b[2]) / 2 + dx, (b[1] + b[3]) / 2 + dy))]
    faces: list[int | None] = ([reader(image, b) for b in boxes] if reader
                               else read_boxes(image, boxes, model))
    return in_reading_order([DieReading((b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy), f)
                             for b, f in zip(boxes, faces, strict=True) if f is not None])


def tray_values(frame: np.ndarray, region: Region | TrayRegion | None = None,
                reader: DieReader | None = None, finder: DiceFinder | None = None
                ) -> list[int]:
    """The faces of the dice in the tray (1-6 each), in the order they lie left to right.

    Raises:
        ValueError: the region is empty or outside the frame, or a model is missing.
    """
    return [reading.pips for reading in read_tray(frame, region, reader, finder)]
