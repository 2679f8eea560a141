"""Table calibration: the homography from camera pixels to table millimetres.

Four ArUco markers (ids and positions from :class:`~vision.layout.TableLayout`) stand at
the corners of the table. Their 16 corners give the homography; it is saved as JSON, checked
at start (:func:`drift_px`) and redone when the markers drift or the camera moves.

Example:
    >>> from vision.render import SceneSpec, render_scene
    >>> scene = render_scene(SceneSpec(seed=1))
    >>> calib = calibrate(scene.image)
    >>> round(drift_px(calib, scene.image), 1) < 1.0
    True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.layout import TableLayout
from vision.markers import TABLE_DICTIONARY, detect_markers

DRIFT_LIMIT_PX = 3.0
"""A calibration whose markers moved further than this (pixels) must be redone."""


class CalibrationError(ValueError):
    """The table cannot be calibrated from this frame, or a calibration file is wrong."""


@dataclass(frozen=True)
class Calibration:
    """A table calibration.

    Attributes:
        homography: 3x3 matrix mapping image pixels (x, y, 1) to table mm.
        image_size: (width, height) of the frames it was made from.
        layout: the table it describes.
        marker_px: where each table marker's corners were seen, ``{id: [[x, y] * 4]}``.
        palette: optional colour references learnt from this table (see
            :mod:`vision.palette`), ``{class name: [L, a, b]}``.
        camera: the camera's intrinsics: a shipped camera's name (``pi-camera-2``,
            ``pi-camera-3``, ``webcam-65``), the path of a ``calibrate-camera`` TOML file
            (relative to the calibration file), or ``""``: estimated from the markers (see
            :mod:`vision.camera_model`).
    """

    homography: np.ndarray
    image_size: tuple[int, int]
    layout: TableLayout = field(default_factory=TableLayout)
    marker_px: Mapping[int, list[list[float]]] = field(default_factory=dict)
    palette: Mapping[str, list[float]] = field(default_factory=dict)
    camera: str = ""

    def to_mm(self, points_px: np.ndarray) -> np.ndarray:
        """Map pixel points (N, 2) to table mm (N, 2).

        Example:
            >>> calib = Calibration(np.eye(3), (10, 10))
            >>> calib.to_mm(np.array([[1.0, 2.0]])).tolist()
            [[1.0, 2.0]]
        """
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Map table mm points (N, 2) to image pixels (N, 2)."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (see :func:`load_calibration`)."""
        return {
            "homography": self.homography.tolist(),
            "image_size": list(self.image_size),
            "layout": self.layout.to_json(),
            "marker_px": {str(k): v for k, v in self.marker_px.items()},
            "palette": {k: list(v) for k, v in self.palette.items()},
            "camera": self.camera,
        }

    def save(self, path: Path | str) -> None:
        """Write the calibration as JSON to ``path``."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def calibration_from_json(data: Mapping[str, Any], where: str = "calibration") -> Calibration:
    """Read the data :meth:`Calibration.to_json` wrote.

    Raises:
        CalibrationError: naming ``where`` and the key that is missing or malformed.
    """
    try:
        h = np.asarray(data["homography"], np.float64)
        if h.shape != (3, 3) or not np.all(np.isfinite(h)):
            raise CalibrationError(f"{where}: 'homography' must be a finite 3x3 matrix")
        size = tuple(int(v) for v in data["image_size"])
        if len(size) != 2 or min(size) <= 0:
            raise CalibrationError(f"{where}: 'image_size' must be [width, height]")
        layout = TableLayout.from_json(data.get("layout", {}), f"{where}: layout")
        marker_px = {int(k): [list(map(float, c)) for c in v]
                     for k, v in data.get("marker_px", {}).items()}
        palette = {str(k): [float(x) for x in v] for k, v in data.get("palette", {}).items()}
        camera = data.get("camera", "")
        if not isinstance(camera, str):
            raise CalibrationError(f"{where}: 'camera' must be a camera name or a file path")
    except KeyError as exc:
        raise CalibrationError(f"{where}: missing key {exc}") from exc
    except (TypeError, ValueError) as exc:
        if isinstance(exc, CalibrationError):
            raise
        raise CalibrationError(f"{where}: {exc}") from exc
    return Calibration(h, (size[0], size[1]), layout, marker_px, palette, camera)


def load_calibration(path: Path | str) -> Calibration:
    """Load a calibration saved by :meth:`Calibration.save`.

    Raises:
        CalibrationError: the file is not valid JSON or misses a key (the message names it).
        OSError: the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path}: line {exc.lineno}: {exc.msg}") from exc
    if not isinstance(data, dict):
        raise CalibrationError(f"{path}: expected a JSON object")
    return calibration_from_json(data, str(path))


def table_markers(markers: Mapping[int, np.ndarray], layout: TableLayout
                  ) -> dict[int, np.ndarray]:
    """The table's corner markers among ``markers`` (others, like miniature bases, dropped)."""
    return {i: c for i, c in markers.items() if i in layout.marker_ids}


def calibrate_from_markers(markers: Mapping[int, np.ndarray], image_size: tuple[int, int],
                           layout: TableLayout | None = None) -> Calibration:
    """Fit the homography from detected table markers (at least three of the four).

    Raises:
        CalibrationError: fewer than three table markers were found.
    """
    layout = layout or TableLayout()
    found = table_markers(markers, layout)
    if len(found) < 3:
        missing = [i for i in layout.marker_ids if i not in found]
        raise CalibrationError(
            f"table calibration needs at least 3 of the markers {list(layout.marker_ids)}; "
            f"missing {missing} (is the sheet in view and lit?)")
    src = np.concatenate([found[i] for i in sorted(found)]).astype(np.float64)
    dst = np.concatenate([np.asarray(layout.marker_corners_mm(i)) for i in sorted(found)])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise CalibrationError("table calibration failed: markers are degenerate")
    marker_px = {i: found[i].astype(float).tolist() for i in sorted(found)}
    return Calibration(h, image_size, layout, marker_px)


def calibrate(image: np.ndarray, layout: TableLayout | None = None) -> Calibration:
    """Calibrate the table from one image in which its markers are visible.

    Where the plain detector (the one :func:`drift_px` checks frames with) does not find
    all four, they are looked for as the camera model looks for them
    (:func:`vision.pose.find_table_markers`): markers 20-35 px wide, as a camera a metre
    up at 640x480 shows them, or washed out by glare, are still found. The plain detector
    alone left 217 of the 573 photoreal photos uncalibrated (fewer than three markers).

    Raises:
        CalibrationError: the markers are not found (names the missing ids).
    """
    layout = layout or TableLayout()
    markers = table_markers(detect_markers(image, TABLE_DICTIONARY), layout)
    if len(markers) < len(layout.marker_ids):
        from vision.pose import find_table_markers

        found = find_table_markers(image, layout)
        if len(found) > len(markers):   # else the plain corners, as drift_px sees them
            markers = found
    return calibrate_from_markers(markers, (image.shape[1], image.shape[0]), layout)


def drift_px(calib: Calibration, image_or_markers: np.ndarray | Mapping[int, np.ndarray]
             ) -> float:
    """How far (pixels, worst corner) the table markers moved since calibration.

    Returns ``inf`` when no calibrated marker is visible; the caller then waits or redoes
    the calibration (see :data:`DRIFT_LIMIT_PX`). Given an image, markers the plain
    detector misses are looked for as :func:`calibrate` looks for them (small or washed-out
    markers), so a calibration made from a photo also checks clean against that photo.
    """
    if isinstance(image_or_markers, np.ndarray):
        markers = detect_markers(image_or_markers, TABLE_DICTIONARY)
        if not set(calib.marker_px) <= set(markers):
            from vision.pose import find_table_markers

            markers = find_table_markers(image_or_markers, calib.layout)
    else:
        markers = dict(image_or_markers)
    worst = -1.0
    for marker_id, corners in calib.marker_px.items():
        if marker_id in markers:
            d = np.linalg.norm(np.asarray(corners) - markers[marker_id], axis=1).max()
            worst = max(worst, float(d))
    return worst if worst >= 0 else float("inf")
