r"""Which marked base stands under which Infinity trooper, and how far apart they are.

Infinity's Army Lists say nothing about the table, so the marker under each trooper's base
is an app-side mapping file (``bases/example.toml`` for the example armies; format in
docs/infinity.md "Distances"). :func:`trooper_distances` turns a frame of the calibrated
table into base-to-base distances in inches between the troopers seen, the distance the
notation's ``Grenzer@7.5`` takes.

Example:
    >>> mapping = parse_base_markers("inline", '[bases]\nFusilier = 10\nGrenzer = 11\n')
    >>> mapping.trooper(11), mapping.diameters()
    ('Grenzer', {10: 25.0, 11: 25.0})
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml
from vision.calibration import Calibration
from vision.readers.bases import DEFAULT_BASE_MM, FIRST_BASE_ID, distances, find_bases

Pair = tuple[str, str]
"""Two trooper names, in alphabetical order (case-insensitive)."""


class BaseMarkerError(ValueError):
    """A base-marker file cannot be used: names the file, the key and what is wrong."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        super().__init__(f"{source}: {key}: {problem}")
        self.source, self.key, self.problem = source, key, problem


@dataclass(frozen=True)
class BaseMarkers:
    """Marker id -> (trooper name, base diameter in mm)."""

    by_marker: dict[int, tuple[str, float]]

    def trooper(self, marker_id: int) -> str | None:
        """The trooper on the base with ``marker_id``, if any."""
        entry = self.by_marker.get(marker_id)
        return entry[0] if entry else None

    def diameters(self) -> dict[int, float]:
        """Base diameter (mm) per marker id, for :func:`vision.readers.bases.find_bases`."""
        return {marker: diameter for marker, (_name, diameter) in self.by_marker.items()}


def pair(a: str, b: str) -> Pair:
    """The key of two troopers' distance, whichever order they are named in.

    Example:
        >>> pair("Grenzer", "Fusilier")
        ('Fusilier', 'Grenzer')
    """
    return (a, b) if a.lower() <= b.lower() else (b, a)


def parse_base_markers(source: str, text: str) -> BaseMarkers:
    """Read a base-marker file (``[bases]`` with ``Name = id`` or ``{marker, diameter_mm}``).

    Raises:
        BaseMarkerError: bad TOML, an unknown key, a marker below the table's ids or used
            twice, or a diameter that is not a positive number.
    """
    try:
        data = load_toml(source, text)  # size-capped, too-deep nesting refused
    except SetupError as error:
        where = f"{error.where}: " if error.where else ""
        raise BaseMarkerError(source, "(file)", f"{where}{error.problem}") from None
    if not isinstance(data.get("bases"), dict):
        extra = sorted(set(data) - {"bases"})
        raise BaseMarkerError(source, extra[0] if extra else "bases",
                              "expected one [bases] table of `Trooper = marker id`")
    try:  # the one data-file reader: an unknown key names the closest valid one
        with Table(source, data) as top:
            entries = [(name, _entry(source, f"bases.{name}", raw))
                       for name, raw in top.raw("bases").items()]
    except SetupError as error:
        raise BaseMarkerError(source, error.where, error.problem) from None
    by_marker: dict[int, tuple[str, float]] = {}
    for name, (marker, diameter) in entries:
        key = f"bases.{name}"
        if marker < FIRST_BASE_ID:
            raise BaseMarkerError(source, key, f"marker {marker} is below {FIRST_BASE_ID}; "
                                  "lower ids are the table's corner markers")
        if marker in by_marker:
            raise BaseMarkerError(source, key, f"marker {marker} is already on "
                                  f"{by_marker[marker][0]}'s base")
        by_marker[marker] = (name, diameter)
    return BaseMarkers(by_marker)


def _entry(source: str, key: str, raw: Any) -> tuple[int, float]:
    if isinstance(raw, dict):
        with Table(source, raw, key) as entry:
            marker = entry.raw("marker", None)  # unknown keys first: `markr` names `marker`
            diameter = entry.raw("diameter_mm", DEFAULT_BASE_MM)
        if marker is None:
            raise BaseMarkerError(source, f"{key}.marker", "missing (this key is required)")
    else:
        marker, diameter = raw, DEFAULT_BASE_MM
    if not isinstance(marker, int) or isinstance(marker, bool):
        raise BaseMarkerError(source, key, f"the marker id must be a whole number, got {marker!r}")
    if not isinstance(diameter, int | float) or isinstance(diameter, bool) or diameter <= 0:
        raise BaseMarkerError(source, key, f"diameter_mm must be a positive number, "
                              f"got {diameter!r}")
    return marker, float(diameter)


def example_base_markers() -> BaseMarkers:
    """The mapping shipped for the example armies (``companion/app/bases/example.toml``)."""
    path = resources.files("companion.app").joinpath("bases/example.toml")
    return parse_base_markers("companion/app/bases/example.toml",
                              path.read_text(encoding="utf-8"))


def trooper_distances(frame: np.ndarray, calib: Calibration, markers: BaseMarkers
                      ) -> dict[Pair, float]:
    """Base-to-base distances in inches between the mapped troopers seen in ``frame``.

    Bases whose marker is not in the mapping are ignored. Keys are :func:`pair` s.

    Example:
        >>> from vision.render import BaseSpec, FieldSpec, SceneSpec, render_scene
        >>> from vision.calibration import calibrate
        >>> scene = render_scene(SceneSpec(seed=1, field=FieldSpec(()), bases=(
        ...     BaseSpec(10, (200.0, 200.0)), BaseSpec(13, (352.4, 200.0)))))
        >>> d = trooper_distances(scene.image, calibrate(scene.image), example_base_markers())
        >>> round(d[("Fusilier", "Grenzer")], 1)
        5.0
    """
    seen = [b for b in find_bases(frame, calib, markers.diameters())
            if markers.trooper(b.id) is not None]
    out: dict[Pair, float] = {}
    for (a, b), distance in distances(seen).items():
        name_a, name_b = markers.trooper(a), markers.trooper(b)
        assert name_a is not None and name_b is not None
        out[pair(name_a, name_b)] = distance.edge_in
    return out
