"""ArUco markers: detection with OpenCV 5's ``ArucoDetector`` and the printable sheet.

OpenCV 5 returns marker ``ids`` shaped ``(N,)`` (OpenCV 4 gave ``(N, 1)``); this module
flattens either so callers always get plain ints.

Example:
    >>> import numpy as np
    >>> found = detect_markers(np.full((100, 100), 255, np.uint8))
    >>> found
    {}
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

TABLE_DICTIONARY = "DICT_4X4_50"
"""The dictionary of the four table markers and of miniature bases (big cells, robust)."""


def dictionary(name: str) -> cv2.aruco.Dictionary:
    """The predefined ArUco dictionary called ``name`` (e.g. ``"DICT_6X6_250"``).

    Raises:
        ValueError: ``name`` is not one of OpenCV's predefined dictionaries.
    """
    code = getattr(cv2.aruco, name, None)
    if not name.startswith("DICT_") or not isinstance(code, int):
        raise ValueError(f"unknown ArUco dictionary {name!r} (expected e.g. 'DICT_4X4_50')")
    return cv2.aruco.getPredefinedDictionary(code)


@lru_cache(maxsize=8)
def detector(name: str = TABLE_DICTIONARY, min_perimeter_rate: float = 0.03
             ) -> cv2.aruco.ArucoDetector:
    """A cached ``ArucoDetector`` for dictionary ``name``.

    Outlines shorter than ``min_perimeter_rate`` times the image's larger side are ignored.
    """
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = min_perimeter_rate
    # The printed sheet leaves a narrow white paper border around each marker; with the
    # default rate (0.125) the paper's outline hides the marker's own nested outline; at
    # 0.05 the marker's inner (data) outline, one cell in, is still dropped.
    params.minMarkerDistanceRate = 0.05
    return cv2.aruco.ArucoDetector(dictionary(name), params)


def detect_markers(image: np.ndarray, dictionary_name: str = TABLE_DICTIONARY,
                   min_perimeter_rate: float = 0.03) -> dict[int, np.ndarray]:
    """Find the markers of a dictionary in an image.

    Args:
        image: a BGR or grey image.
        dictionary_name: an OpenCV predefined dictionary name.
        min_perimeter_rate: smallest marker outline, as a fraction of the image's larger side.

    Returns:
        ``{id: corners}``, corners a float32 array (4, 2) clockwise from the marker's
        top-left, in image pixels. A marker id seen twice keeps its first sighting.

    Example:
        >>> detect_markers(np.zeros((50, 50), np.uint8))
        {}
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _rejected = detector(dictionary_name, min_perimeter_rate).detectMarkers(grey)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for marker_id, quad in zip(np.asarray(ids).reshape(-1), corners, strict=True):
        found.setdefault(int(marker_id), np.asarray(quad, np.float32).reshape(4, 2))
    return found


def marker_image(marker_id: int, side_px: int,
                 dictionary_name: str = TABLE_DICTIONARY) -> np.ndarray:
    """The grey image of one marker, ``side_px`` square, without quiet zone.

    Example:
        >>> marker_image(0, 60).shape
        (60, 60)
    """
    return cv2.aruco.generateImageMarker(dictionary(dictionary_name), marker_id, side_px)


def detect_markers_near(image: np.ndarray, expected: dict[int, np.ndarray],
                        dictionary_name: str = TABLE_DICTIONARY) -> dict[int, np.ndarray]:
    """Look for known markers only around where they were last seen (much faster).

    Each expected marker's box, grown by its own size on every side, is searched; a marker
    that moved further is not found (the caller then searches the whole frame).

    Args:
        image: a BGR or grey image.
        expected: ``{id: corners (4, 2)}`` from an earlier detection or a calibration.
        dictionary_name: an OpenCV predefined dictionary name.

    Returns:
        ``{id: corners}`` of the expected markers found, in full-image pixels.

    Example:
        >>> detect_markers_near(np.zeros((50, 50), np.uint8), {0: np.zeros((4, 2))})
        {}
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape[:2]
    found: dict[int, np.ndarray] = {}
    for marker_id, corners in expected.items():
        pts = np.asarray(corners, np.float32).reshape(4, 2)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        grow = max(x1 - x0, y1 - y0)
        a, b = int(max(0, x0 - grow)), int(max(0, y0 - grow))
        c, d = int(min(w, x1 + grow + 1)), int(min(h, y1 + grow + 1))
        if c - a < 8 or d - b < 8:
            continue
        # the marker fills about a third of its search box: skip small outlines (texture)
        seen = detect_markers(grey[b:d, a:c], dictionary_name, min_perimeter_rate=0.5)
        if marker_id in seen:
            found[marker_id] = seen[marker_id] + np.array([a, b], np.float32)
    return found
