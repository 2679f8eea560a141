"""Miniature bases marked with small ArUco markers: where they stand, how far apart, in inches.

Each trooper's base carries a small marker (ids from :data:`FIRST_BASE_ID` up, the table's
dictionary) printed centred on its top. With the table calibrated, the marker's centre gives
the base's centre in table mm. Infinity measures between bases, so :func:`distances` reports
both centre to centre and edge to edge (centre distance less the two radii), in inches.

Example:
    >>> from vision.render import BaseSpec, SceneSpec, render_scene
    >>> from vision.calibration import calibrate
    >>> scene = render_scene(SceneSpec(seed=1, bases=(BaseSpec(10, (200.0, 200.0)),
    ...                                               BaseSpec(11, (352.4, 200.0)))))
    >>> seen = find_bases(scene.image, calibrate(scene.image))
    >>> round(distances(seen)[(10, 11)].centre_in, 1)
    6.0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from vision.calibration import Calibration
from vision.layout import INCH_MM
from vision.markers import TABLE_DICTIONARY, detect_markers

FIRST_BASE_ID = 10
"""Marker ids below this are the table's corner markers."""
DEFAULT_BASE_MM = 25.0
"""Infinity's small base (25 mm); 40 and 55 mm bases are given per id."""


@dataclass(frozen=True)
class SeenBase:
    """A base found on the table: marker id, centre in table mm, base diameter in mm."""

    id: int
    centre: tuple[float, float]
    diameter: float


@dataclass(frozen=True)
class BaseDistance:
    """How far two bases are: centre to centre and edge to edge, in inches."""

    centre_in: float
    edge_in: float


def find_bases(frame: np.ndarray, calib: Calibration,
               diameters: Mapping[int, float] | None = None) -> list[SeenBase]:
    """The marked bases in a frame of the calibrated table, sorted by id.

    Args:
        frame: BGR camera frame.
        calib: the table calibration.
        diameters: base diameter (mm) per marker id (default 25 mm).
    """
    diameters = diameters or {}
    found = detect_markers(frame, TABLE_DICTIONARY, min_perimeter_rate=0.01)
    bases = []
    for marker_id in sorted(found):
        if marker_id < FIRST_BASE_ID or marker_id in calib.layout.marker_ids:
            continue
        corners_mm = calib.to_mm(found[marker_id])
        cx, cy = corners_mm.mean(axis=0)
        bases.append(SeenBase(marker_id, (float(cx), float(cy)),
                              float(diameters.get(marker_id, DEFAULT_BASE_MM))))
    return bases


def distances(bases: list[SeenBase]) -> dict[tuple[int, int], BaseDistance]:
    """Every pair's distance, keyed ``(smaller id, larger id)``.

    Example:
        >>> d = distances([SeenBase(10, (0.0, 0.0), 25.0), SeenBase(11, (254.0, 0.0), 25.0)])
        >>> d[(10, 11)]
        BaseDistance(centre_in=10.0, edge_in=9.015748031496063)
    """
    out: dict[tuple[int, int], BaseDistance] = {}
    for i, a in enumerate(bases):
        for b in bases[i + 1:]:
            centre = float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))
            edge = max(0.0, centre - (a.diameter + b.diameter) / 2)
            key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
            out[key] = BaseDistance(centre / INCH_MM, edge / INCH_MM)
    return out
