"""Distances between troopers read by the camera from their marked bases (issue 5).

A tap on "From camera" takes the newest frame on the main loop; a short-lived thread
calibrates the table from its corner markers and measures base to base between the troopers
whose markers are mapped (:func:`companion.app.base_markers.trooper_distances`); the result
comes back through the main loop's inbox (``Clock.schedule_once``).

On a desktop without a camera, :class:`SimulatedBaseTable` renders the table with every
mapped trooper's base at a seeded spot (vision's renderer draws ``BaseSpec`` bases).

Example:
    >>> from companion.app.base_markers import example_base_markers
    >>> table = SimulatedBaseTable(example_base_markers(), seed=1)
    >>> measured = measure(table.frame(), example_base_markers())
    >>> sorted(measured) == sorted(table.true_distances())
    True
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.app.base_markers import BaseMarkers, Pair, pair, trooper_distances
from vision.calibration import CalibrationError, calibrate
from vision.layout import INCH_MM, TableLayout
from vision.render import BaseSpec, FieldSpec, SceneSpec, render_scene


def measure(frame: np.ndarray, markers: BaseMarkers) -> dict[Pair, float]:
    """Calibrate on ``frame``'s corner markers, then measure between the mapped bases.

    Raises:
        CalibrationError: the table's corner markers are not in view.
    """
    return trooper_distances(frame, calibrate(frame), markers)


@dataclass(frozen=True)
class RangesRead:
    """What one read gave: base-to-base inches per pair of troopers, or why there are none."""

    distances: dict[Pair, float]
    problem: str = ""


class CameraRanges:
    """Measures off the main loop and posts the result back to it.

    Args:
        post: the main loop's inbox (``MainLoopInbox.post``).
    """

    def __init__(self, post: Callable[..., Any]) -> None:
        self.post = post

    def read(self, frame: np.ndarray | None, markers: BaseMarkers,
             on_done: Callable[[RangesRead], Any]) -> threading.Thread | None:
        """Measure ``frame`` on a thread; ``on_done(RangesRead)`` then runs on the main loop."""
        if frame is None:
            self.post(on_done, RangesRead({}, "no camera frame"))
            return None
        frame = frame.copy()

        def work() -> None:
            try:
                result = RangesRead(measure(frame, markers))
            except CalibrationError as error:
                result = RangesRead({}, str(error))
            self.post(on_done, result)

        thread = threading.Thread(target=work, name="camera-ranges", daemon=True)
        thread.start()
        return thread


class SimulatedBaseTable:
    """The desktop's stand-in for miniatures on the table: every mapped base, drawn.

    Attributes:
        centres: each trooper's base centre in table mm (of the last frame).
    """

    def __init__(self, markers: BaseMarkers, seed: int | None = None) -> None:
        self.markers = markers
        self._rng = random.Random(seed)
        self.centres: dict[str, tuple[float, float]] = {}

    def frame(self) -> np.ndarray:
        """Place every mapped trooper's base at a new spot, apart from the others; draw it."""
        layout = TableLayout()
        margin = layout.marker_mm + layout.marker_margin_mm + 30
        placed: list[BaseSpec] = []
        self.centres = {}
        for marker, (name, diameter) in sorted(self.markers.by_marker.items()):
            for _ in range(200):
                centre = (self._rng.uniform(margin, layout.width_mm - margin),
                          self._rng.uniform(margin, layout.height_mm - margin))
                if all(math.dist(centre, b.centre) > (diameter + b.diameter) / 2 + 20
                       for b in placed):
                    break
            placed.append(BaseSpec(marker, centre, diameter))
            self.centres[name] = centre
        spec = SceneSpec(seed=self._rng.randrange(1 << 30), field=FieldSpec(()),
                         bases=tuple(placed))
        return render_scene(spec).image

    def true_distances(self) -> dict[Pair, float]:
        """The drawn base-to-base distances in inches (ground truth of the last frame)."""
        diameters = {name: d for name, d in self.markers.by_marker.values()}
        names = sorted(self.centres)
        return {pair(a, b): max(0.0, math.dist(self.centres[a], self.centres[b])
                                - (diameters[a] + diameters[b]) / 2) / INCH_MM
                for i, a in enumerate(names) for b in names[i + 1:]}
