"""Where the camera is above the table: its pose from the four table markers.

The table frame is the layout's (origin at the table's corner, x to the right, y down as the
camera sees it, millimetres); heights are given as millimetres *above* the table, so a block's
top at level ``n`` is at ``40 n``. Internally the frame is right-handed with z pointing into
the table (a point ``h`` mm up has z = -h).

:func:`solve_pose` fits the camera's rotation and position to the markers' 16 corners with
``cv2.solvePnP`` (IPPE, made for planar targets, then refined), through the camera's
intrinsics (:mod:`vision.camera_model`), so every 3D point of the table model projects into
the frame, lens distortion included (:meth:`TablePose.project`). :func:`find_table_markers`
finds the markers even when they are only 25-35 px wide (a table seen from 60 cm at 640x480).

Example:
    >>> from vision.camera_model import Intrinsics
    >>> from vision.layout import TableLayout
    >>> cam = Intrinsics.pinhole(500.0, (640, 480), source="shipped")
    >>> pose = TablePose.looking_down(cam, TableLayout(), height_mm=600.0)
    >>> [round(float(v)) for v in pose.camera_position()]
    [300, 225, 600]
    >>> [round(float(v)) for v in pose.project([[300.0, 225.0, 40.0]])[0]]
    [320, 240]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.camera_model import Intrinsics, estimate_from_plane, fit_radial
from vision.layout import TableLayout
from vision.markers import TABLE_DICTIONARY, dictionary

DRIFT_LIMIT_PX = 3.0
"""The markers moved further than this (pixels) since the pose was fitted: refit it."""


class PoseError(ValueError):
    """The camera's pose cannot be found from this frame (the message says why)."""


def _detector(min_perimeter_rate: float, ignored_margin: float) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = min_perimeter_rate
    params.minMarkerDistanceRate = 0.05
    # small markers: finer threshold windows, a little more tolerance on the border bits,
    # and corners refined to a fraction of a pixel (the pose depends on them)
    params.adaptiveThreshWinSizeMin = 3
    params.adaptiveThreshWinSizeMax = 33
    params.adaptiveThreshWinSizeStep = 6
    params.minCornerDistanceRate = 0.02
    params.polygonalApproxAccuracyRate = 0.05
    params.perspectiveRemovePixelPerCell = 8
    # a small marker's white cells bloom into the black ones (lens blur, sharpening): read
    # each cell's middle only
    params.perspectiveRemoveIgnoredMarginPerCell = ignored_margin
    params.maxErroneousBitsInBorderRate = 0.5
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 3
    params.cornerRefinementMinAccuracy = 0.01
    return cv2.aruco.ArucoDetector(dictionary(TABLE_DICTIONARY), params)


_DETECTORS: dict[tuple[float, float], cv2.aruco.ArucoDetector] = {}

PASSES: tuple[tuple[float, float], ...] = ((1.0, 0.13), (2.0, 0.3), (3.0, 0.3), (2.0, 0.4),
                                           (1.0, 0.3))
"""(upscale, ignored cell margin) of the successive searches for markers still missing."""


def _detect(grey: np.ndarray, min_perimeter_rate: float, wanted: set[int],
            ignored_margin: float = 0.13) -> dict[int, np.ndarray]:
    key = (min_perimeter_rate, ignored_margin)
    det = _DETECTORS.get(key)
    if det is None:
        det = _DETECTORS[key] = _detector(min_perimeter_rate, ignored_margin)
    corners, ids, _rej = det.detectMarkers(grey)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for marker_id, quad in zip(np.asarray(ids).reshape(-1), corners, strict=True):
        if int(marker_id) in wanted:
            found.setdefault(int(marker_id), np.asarray(quad, np.float32).reshape(4, 2))
    return found


def _search(grey: np.ndarray, min_perimeter_rate: float, wanted: set[int],
            upscale: bool = True) -> dict[int, np.ndarray]:
    """Markers of ``wanted`` in ``grey``, trying :data:`PASSES` until all are found."""
    found: dict[int, np.ndarray] = {}
    for scale, margin in PASSES if upscale else PASSES[:1]:
        missing = wanted - set(found)
        if not missing:
            break
        img = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale,
                                                   interpolation=cv2.INTER_CUBIC)
        for marker_id, quad in _detect(img, min_perimeter_rate, missing, margin).items():
            found[marker_id] = (quad + 0.5) / scale - 0.5
    return found


def _template(marker_id: int) -> np.ndarray:
    """The marker's 6x6 cells (border included) as -1 (black) / +1 (white)."""
    cells = cv2.aruco.generateImageMarker(dictionary(TABLE_DICTIONARY), marker_id, 6)
    return np.where(cells > 127, 1.0, -1.0)


def _read_quad(grey: np.ndarray, quad: np.ndarray, cell_px: int = 8) -> np.ndarray:
    """The 6x6 cell means (middle half of each cell) of a candidate quad, standardised."""
    side = 6 * cell_px
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    warp = cv2.getPerspectiveTransform(np.asarray(quad, np.float32).reshape(4, 2), dst)
    patch = cv2.warpPerspective(grey, warp, (side, side), flags=cv2.INTER_LINEAR)
    q = cell_px // 4
    cells = np.array([[patch[r * cell_px + q:(r + 1) * cell_px - q,
                             c * cell_px + q:(c + 1) * cell_px - q].mean()
                       for c in range(6)] for r in range(6)], np.float64)
    return (cells - cells.mean()) / max(float(cells.std()), 1e-6)


def _match_rejected(grey: np.ndarray, wanted: set[int], scale: float = 2.0
                    ) -> dict[int, np.ndarray]:
    """Missing markers among the detector's rejected outlines.

    Each outline's cells are correlated with the wanted markers' patterns in their four
    turns.
    """
    img = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale,
                                               interpolation=cv2.INTER_CUBIC)
    det = _DETECTORS.get((0.02, 0.3)) or _detector(0.02, 0.3)
    _c, _ids, rejected = det.detectMarkers(img)
    best: dict[int, tuple[float, np.ndarray]] = {}
    templates = {i: _template(i) for i in wanted}
    for quad in rejected:
        pts = np.asarray(quad, np.float32).reshape(4, 2)
        cells = _read_quad(img, pts)
        for marker_id, tpl in templates.items():
            for turn in range(4):
                score = float((cells * np.rot90(tpl, -turn)).mean())
                if score > 0.75 and score > best.get(marker_id, (0.0, pts))[0]:
                    best[marker_id] = (score, np.roll(pts, -turn, axis=0))
    found: dict[int, np.ndarray] = {}
    for marker_id, (_score, pts) in best.items():
        refined = cv2.cornerSubPix(img, pts.reshape(-1, 1, 2).copy(), (3, 3), (-1, -1),
                                   (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20,
                                    0.01)).reshape(4, 2)
        found[marker_id] = (refined + 0.5) / scale - 0.5
    return found


def _best_quad(grey: np.ndarray, template: np.ndarray, around: np.ndarray,
               offsets: np.ndarray) -> tuple[float, np.ndarray]:
    """The quad ``around`` shifted by every pair of ``offsets`` that best matches a marker.

    Returns the score (mean product of its standardised cells with ``template``) and the
    quad.
    """
    quads = [around + np.array([dx, dy], np.float32) for dx in offsets for dy in offsets]
    return max(((float((_read_quad(grey, q) * template).mean()), q) for q in quads),
               key=lambda sp: sp[0])


PREDICT_REACH_PX = (10, 25)
"""How far (frame px) round the place the markers found put a missing one it is looked for,
from three markers and from two."""

PREDICT_SIZES = (0.85, 0.92, 1.0, 1.08)
"""The sizes (shares of the one the homography gives) a missing marker is looked for at when
only two were found: f988 (98 cm up), its two right-hand markers found, put the left-hand
ones 10 % too large and 10 px off."""


def _predict_missing(grey: np.ndarray, found: Mapping[int, np.ndarray], layout: TableLayout
                     ) -> dict[int, np.ndarray]:
    """Missing markers looked for where the others put them.

    The table plane's homography from the others' corners (two markers give eight) gives
    the place (searched a few pixels round, the lens bends it); a marker is accepted when
    its cells match its pattern.
    """
    ids = [i for i in layout.marker_ids if i in found]
    if len(ids) < 2:
        return {}
    src = np.concatenate([np.asarray(layout.marker_corners_mm(i)) for i in ids])
    dst = np.concatenate([np.asarray(found[i], np.float64).reshape(4, 2) for i in ids])
    hom, _ = cv2.findHomography(src, dst, 0)
    if hom is None:
        return {}
    out: dict[int, np.ndarray] = {}
    scale = 3.0
    for marker_id in layout.marker_ids:
        if marker_id in found:
            continue
        guess = cv2.perspectiveTransform(
            np.asarray(layout.marker_corners_mm(marker_id), np.float64).reshape(-1, 1, 2),
            hom).reshape(4, 2)
        # px: three markers extrapolate through a distorting lens; two, their eight
        # corners close together, put the others less surely
        reach = PREDICT_REACH_PX[0] if len(ids) >= 3 else PREDICT_REACH_PX[1]
        x0, y0 = np.floor(guess.min(axis=0)).astype(int) - reach - 4
        x1, y1 = np.ceil(guess.max(axis=0)).astype(int) + reach + 4
        h, w = grey.shape[:2]
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            continue
        crop = cv2.resize(grey[y0:y1, x0:x1], None, fx=scale, fy=scale,
                          interpolation=cv2.INTER_CUBIC)
        base = ((guess - [x0, y0] + 0.5) * scale - 0.5).astype(np.float32)
        tpl = _template(marker_id)
        # every second pixel, then every third of one round the best; from two markers the
        # size too (their corners, in a line, put the others' scale across it less surely)
        middle = base.mean(axis=0)
        sizes = PREDICT_SIZES if len(ids) < 3 else (1.0,)
        _s, pts = max((_best_quad(crop, tpl, (middle + (base - middle) * f).astype(np.float32),
                                  np.arange(-reach, reach + 1, 2) * scale) for f in sizes),
                      key=lambda sp: sp[0])
        score, pts = _best_quad(crop, tpl, pts, np.arange(-2 * scale, 2 * scale + 1))
        refined = cv2.cornerSubPix(crop, pts.reshape(-1, 1, 2).astype(np.float32), (5, 5),
                                   (-1, -1), (cv2.TERM_CRITERIA_EPS
                                              + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
                                   ).reshape(4, 2)
        if np.abs(refined - pts).max() > 1.5 * scale:
            refined = pts.astype(np.float32)
        score = max(score, float((_read_quad(crop, refined) * tpl).mean()))
        if score > 0.7:
            out[marker_id] = (refined + 0.5) / scale - 0.5 + np.array([x0, y0], np.float32)
    return out


MISFIT_SHARE = 3.0
"""Of four markers found, one lies where the other three do not put it when its corners
are farther than this many of its expected sides from where the table plane's homography
through the other three puts them. A lens's barrel distortion bends such a prediction by
up to 0.9 of a side (2,333 photos of the photoreal sets, four markers found right); f1388's
first-level photo had an outline round marker 2's paper read as marker 1, 10 sides from
where marker 1 is."""


def _without_misfit(found: Mapping[int, np.ndarray], layout: TableLayout
                    ) -> dict[int, np.ndarray]:
    """``found`` less a marker the other three put elsewhere (:data:`MISFIT_SHARE`).

    With four markers, the three whose homography fits its own corners best are taken as
    right; the fourth is dropped when that homography puts its corners far from where it
    was found (it is then looked for where they put it).
    """
    out = dict(found)
    if len(out) < 4:
        return out
    fits = []
    for odd in out:
        rest = [i for i in out if i != odd]
        src = np.concatenate([np.asarray(layout.marker_corners_mm(i), np.float64)
                              for i in rest])
        dst = np.concatenate([np.asarray(out[i], np.float64).reshape(4, 2) for i in rest])
        hom, _ = cv2.findHomography(src, dst, 0)
        if hom is None:
            continue
        back = cv2.perspectiveTransform(src.reshape(-1, 1, 2), hom).reshape(-1, 2)
        fits.append((float(np.abs(back - dst).max()), odd, hom))
    if not fits:
        return out
    _residual, odd, hom = min(fits, key=lambda f: f[0])
    where = cv2.perspectiveTransform(np.asarray(layout.marker_corners_mm(odd), np.float64)
                                     .reshape(-1, 1, 2), hom).reshape(4, 2)
    side = float(np.mean([np.linalg.norm(where[k] - where[(k + 1) % 4]) for k in range(4)]))
    off = float(np.linalg.norm(np.asarray(out[odd], np.float64).reshape(4, 2) - where,
                               axis=1).max())
    if off > MISFIT_SHARE * side:
        del out[odd]
    return out


def find_table_markers(image: np.ndarray, layout: TableLayout | None = None,
                       upscale: bool = True) -> dict[int, np.ndarray]:
    """The table's four markers in a frame, even when they are small.

    The whole frame is searched with parameters tuned for small markers; markers still
    missing are searched for again in the frame enlarged two and three times, reading only
    the middle of each cell (:data:`PASSES`), which copes with 20-35 px markers whose white
    cells bloom into the black ones; then in the frame with its local contrast stretched
    (markers washed out by glare). Last, the outlines the detector rejected are compared
    cell by cell with the missing markers' patterns, and missing markers are looked for
    where the others found put them (two are enough to place the other two). Of four, one
    the other three put elsewhere is dropped and looked for there (:func:`_without_misfit`).

    Returns:
        ``{id: corners (4, 2)}`` in frame pixels, corners clockwise from the marker's
        top-left, refined to a fraction of a pixel.
    """
    layout = layout or TableLayout()
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _search(grey, 0.02, set(layout.marker_ids), upscale)
    missing = set(layout.marker_ids) - set(found)
    if upscale and missing:
        # washed out by glare or a lamp: stretch the local contrast and look again
        flat = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8)).apply(grey)
        found.update(_search(flat, 0.02, missing))
        missing = set(layout.marker_ids) - set(found)
    if upscale and missing:
        found.update(_match_rejected(grey, missing))
    found = _without_misfit(found, layout)
    for _ in range(2):
        # where the markers found put the others (two found: the nearer one first, then
        # the last from three)
        missing = set(layout.marker_ids) - set(found)
        if not upscale or not missing or len(found) < 2:
            break
        found.update(_predict_missing(grey, found, layout))
    return _without_misfit(found, layout)


def find_markers_near(image: np.ndarray, expected: Mapping[int, np.ndarray]
                      ) -> dict[int, np.ndarray]:
    """Look for known markers only around where they are expected (fast per-frame check)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape[:2]
    found: dict[int, np.ndarray] = {}
    for marker_id, corners in expected.items():
        pts = np.asarray(corners, np.float32).reshape(4, 2)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        # a marker further off than this has drifted anyway (the whole frame is searched then)
        grow = 0.6 * max(x1 - x0, y1 - y0)
        a, b = int(max(0, x0 - grow)), int(max(0, y0 - grow))
        c, d = int(min(w, x1 + grow + 1)), int(min(h, y1 + grow + 1))
        if c - a < 8 or d - b < 8:
            continue
        crop = grey[b:d, a:c]
        if max(x1 - x0, y1 - y0) < 32:
            # small: read it enlarged first (the whole-size pass rarely decodes these)
            seen = {k: (q + 0.5) / 2.0 - 0.5 for k, q in
                    _detect(cv2.resize(crop, None, fx=2.0, fy=2.0,
                                       interpolation=cv2.INTER_CUBIC),
                            0.3, {marker_id}, 0.3).items()}
            if marker_id not in seen:
                seen = _search(crop, 0.3, {marker_id})
        else:
            seen = _search(crop, 0.3, {marker_id}, upscale=max(c - a, d - b) < 200)
        if marker_id in seen:
            found[marker_id] = seen[marker_id] + np.array([a, b], np.float32)
    return found


@dataclass(frozen=True)
class TablePose:
    """The camera above the table: intrinsics and the table-to-camera rotation and shift.

    Attributes:
        intrinsics: the camera (at the frame's size).
        rvec: Rodrigues rotation, table frame to camera frame.
        tvec: translation (mm), table frame to camera frame.
        layout: the table.
        marker_px: the table markers' corners as seen when the pose was fitted.
        rms_px: RMS reprojection error of those corners.
        tilt_deg: angle between the optical axis and the table's normal.
    """

    intrinsics: Intrinsics
    rvec: np.ndarray
    tvec: np.ndarray
    layout: TableLayout = field(default_factory=TableLayout)
    marker_px: Mapping[int, np.ndarray] = field(default_factory=dict)
    rms_px: float = 0.0

    @classmethod
    def looking_down(cls, intrinsics: Intrinsics, layout: TableLayout, height_mm: float,
                     tilt_deg: tuple[float, float, float] = (0.0, 0.0, 0.0),
                     over: tuple[float, float] | None = None) -> TablePose:
        """A camera ``height_mm`` above the point ``over``, for tests and renders.

        ``over`` defaults to the table's centre; ``tilt_deg`` turns the camera about x, y,
        then the optical axis.
        """
        cx, cy = over if over is not None else (layout.width_mm / 2, layout.height_mm / 2)
        ax, ay, az = (math.radians(v) for v in tilt_deg)
        rx = cv2.Rodrigues(np.array([ax, 0.0, 0.0]))[0]
        ry = cv2.Rodrigues(np.array([0.0, ay, 0.0]))[0]
        rz = cv2.Rodrigues(np.array([0.0, 0.0, az]))[0]
        rot = rz @ ry @ rx
        centre = np.array([cx, cy, -height_mm])
        tvec = -rot @ centre
        return cls(intrinsics, cv2.Rodrigues(rot)[0].ravel(), tvec.ravel(), layout)

    @cached_property
    def rotation(self) -> np.ndarray:
        """3x3 rotation, table to camera."""
        return cv2.Rodrigues(np.asarray(self.rvec, np.float64))[0]

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and straight down, in degrees."""
        return math.degrees(math.acos(min(1.0, abs(float(self.rotation[2, 2])))))

    def camera_position(self) -> np.ndarray:
        """The camera's centre as ``(x, y, height above the table)`` in mm."""
        c = -self.rotation.T @ np.asarray(self.tvec, np.float64).reshape(3)
        return np.array([c[0], c[1], -c[2]])

    def project(self, points: np.ndarray | list[list[float]], distort: bool = True
                ) -> np.ndarray:
        """Frame pixels (N, 2) of table points ``(x, y, height)`` (N, 3) in mm.

        Args:
            points: the points; heights are mm above the table.
            distort: include the lens distortion (the raw frame); False gives where a
                distortion-free camera with the same ``K`` sees them.
        """
        pts = np.asarray(points, np.float64).reshape(-1, 3)
        cam = np.empty_like(pts)
        cam[:, 2] = (pts[:, 0] * self.rotation[2, 0] + pts[:, 1] * self.rotation[2, 1]
                     - pts[:, 2] * self.rotation[2, 2])
        cam[:, 0] = (pts[:, 0] * self.rotation[0, 0] + pts[:, 1] * self.rotation[0, 1]
                     - pts[:, 2] * self.rotation[0, 2])
        cam[:, 1] = (pts[:, 0] * self.rotation[1, 0] + pts[:, 1] * self.rotation[1, 1]
                     - pts[:, 2] * self.rotation[1, 2])
        cam += np.asarray(self.tvec, np.float64).reshape(1, 3)
        x = cam[:, 0] / cam[:, 2]
        y = cam[:, 1] / cam[:, 2]
        d = np.zeros(8)
        if distort:
            raw = np.asarray(self.intrinsics.distortion, np.float64).ravel()
            d[:len(raw)] = raw[:8]
        if d.any():
            r2 = x * x + y * y
            radial = ((1 + d[0] * r2 + d[1] * r2 * r2 + d[4] * r2 ** 3)
                      / (1 + d[5] * r2 + d[6] * r2 * r2 + d[7] * r2 ** 3))
            xd = x * radial + 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x)
            yd = y * radial + d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y
            x, y = xd, yd
        k = self.intrinsics.matrix
        return np.stack([k[0, 0] * x + k[0, 1] * y + k[0, 2], k[1, 1] * y + k[1, 2]], axis=1)

    def plane_homography(self, height_mm: float) -> np.ndarray:
        """3x3 map from ``(x, y, 1)`` on the plane ``height_mm`` up to ideal pixels.

        Ideal: where a distortion-free camera with the same ``K`` sees the point.
        """
        r = self.rotation
        t = np.asarray(self.tvec, np.float64).reshape(3) + r[:, 2] * (-height_mm)
        h = self.intrinsics.matrix @ np.column_stack([r[:, 0], r[:, 1], t])
        return h / h[2, 2]

    def to_plane(self, points_px: np.ndarray, height_mm: float, distorted: bool = True
                 ) -> np.ndarray:
        """Where the rays of frame pixels meet the plane ``height_mm`` up, in table mm."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 2)
        if distorted:
            pts = self.intrinsics.undistort_points(pts)
        inv = np.linalg.inv(self.plane_homography(height_mm))
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), inv).reshape(-1, 2)

    @cached_property
    def _map_cache(self) -> dict[tuple[float, float], tuple[np.ndarray, np.ndarray]]:
        return {}

    @cached_property
    def derived(self) -> dict[object, object]:
        """What readers work out from this camera alone, kept with it.

        Frame after frame the camera is the same (the expected blocks' boxes in a view...).
        Readers key their entries themselves; the dict is cleared when it grows past 32.
        """
        return {}

    def plane_maps(self, height_mm: float, px_per_mm: float = 1.0
                   ) -> tuple[np.ndarray, np.ndarray]:
        """``cv2.remap`` maps of a top view of the plane ``height_mm`` up (cached per pose).

        See :meth:`compute_plane_maps`.
        """
        key = (float(height_mm), float(px_per_mm))
        cache = self._map_cache
        if key not in cache:
            if len(cache) > 24:
                cache.clear()
            cache[key] = self.compute_plane_maps(height_mm, px_per_mm)
        return cache[key]

    def compute_plane_maps(self, height_mm: float, px_per_mm: float = 1.0
                           ) -> tuple[np.ndarray, np.ndarray]:
        """``cv2.remap`` maps of a top view of the plane ``height_mm`` up, distortion undone.

        The view covers the table at ``px_per_mm``; pixel ``(u, v)`` is the table point
        ``((u + 0.5) / px_per_mm, (v + 0.5) / px_per_mm)`` at that height.
        """
        w = round(self.layout.width_mm * px_per_mm)
        h = round(self.layout.height_mm * px_per_mm)
        # the map is smooth: project a grid every 4 px and interpolate between
        step = 4
        gw, gh = (w + step - 1) // step + 1, (h + step - 1) // step + 1
        us, vs = np.meshgrid((np.arange(gw) * step + 0.5) / px_per_mm,
                             (np.arange(gh) * step + 0.5) / px_per_mm)
        pts = np.stack([us.ravel(), vs.ravel(), np.full(us.size, height_mm)], axis=1)
        coarse = self.project(pts).astype(np.float32).reshape(gh, gw, 2)
        gx, gy = np.meshgrid(np.arange(w, dtype=np.float32) / step,
                             np.arange(h, dtype=np.float32) / step)
        fine = cv2.remap(coarse, gx, gy, cv2.INTER_LINEAR)
        return cv2.convertMaps(np.ascontiguousarray(fine[..., 0]),
                               np.ascontiguousarray(fine[..., 1]), cv2.CV_16SC2)

    def drift_px(self, markers: Mapping[int, np.ndarray]) -> float:
        """How far (px, the largest of any marker's shift) the markers seen now moved.

        A marker seen when the pose was fitted is compared with its corners then
        (:attr:`marker_px`), as a calibration's markers are: the pose's own fit of them is
        off by a few pixels where the lens is not quite known (a shipped default, another
        unit's calibration), which is no movement. Only when none of those markers is seen
        now are the others compared with where the pose puts them. A marker's shift is the
        mean of its four corners' (what :class:`DriftCheck` measures too): a camera that
        moves shifts them alike, while one corner found a pixel or two off in one frame
        and not the next (a small marker, noise) is no movement.

        Returns ``inf`` when no table marker is among ``markers``.
        """
        seen_then = [i for i in self.layout.marker_ids if i in markers and i in self.marker_px]
        worst = -1.0
        for marker_id in seen_then or self.layout.marker_ids:
            if marker_id not in markers:
                continue
            if marker_id in self.marker_px:
                then = np.asarray(self.marker_px[marker_id], np.float64).reshape(4, 2)
            else:
                then = self.project([[x, y, 0.0]
                                     for x, y in self.layout.marker_corners_mm(marker_id)])
            moved = np.asarray(markers[marker_id], np.float64).reshape(4, 2) - then
            worst = max(worst, float(np.linalg.norm(moved.mean(axis=0))))
        return worst if worst >= 0 else float("inf")

    def describe(self) -> str:
        """One line: where the camera is and how well the markers fit."""
        x, y, h = self.camera_position()
        return (f"camera {h:.0f} mm above the table over ({x:.0f}, {y:.0f}) mm, tilted "
                f"{self.tilt_deg:.1f} degrees; markers fit to {self.rms_px:.2f} px RMS; "
                f"{self.intrinsics.describe()}")


def _marker_points(markers: Mapping[int, np.ndarray], layout: TableLayout
                   ) -> tuple[np.ndarray, np.ndarray]:
    ids = [i for i in layout.marker_ids if i in markers]
    obj = np.array([[x, y, 0.0] for i in ids for x, y in layout.marker_corners_mm(i)])
    img = np.concatenate([np.asarray(markers[i], np.float64).reshape(4, 2) for i in ids])
    return obj, img


def solve_pose(markers: Mapping[int, np.ndarray], size: tuple[int, int],
               intrinsics: Intrinsics | None = None, layout: TableLayout | None = None
               ) -> TablePose:
    """Fit the camera's pose to the table markers seen in a frame.

    Args:
        markers: ``{id: corners}`` (at least three of the four table markers).
        size: the frame's ``(width, height)``.
        intrinsics: the camera; ``None`` estimates the focal length from the markers
            (:func:`~vision.camera_model.estimate_from_plane`; the pose's
            ``intrinsics.source`` is then ``"estimated"``). A shipped default's ``k1`` is
            fitted to the markers where that explains them clearly better
            (:func:`~vision.camera_model.fit_radial`).
        layout: the table.

    Raises:
        PoseError: fewer than three table markers, or no pose fits.
    """
    layout = layout or TableLayout()
    found = {i: markers[i] for i in layout.marker_ids if i in markers}
    if len(found) < 3:
        missing = [i for i in layout.marker_ids if i not in found]
        raise PoseError(f"the camera's pose needs at least 3 of the table markers "
                        f"{list(layout.marker_ids)}; missing {missing} (in view and lit?)")
    obj, img = _marker_points(found, layout)
    if intrinsics is None:
        intrinsics, _tilt = estimate_from_plane(obj, img, size)
    else:
        intrinsics = intrinsics.for_size(size)
        if intrinsics.source == "shipped":
            # a datasheet's lens, not this unit's: its bending fitted to the markers
            intrinsics = fit_radial(intrinsics, obj, img)
    obj_in = obj.copy()
    obj_in[:, 2] = 0.0
    ok, rvec, tvec = cv2.solvePnP(obj_in, img, intrinsics.matrix, intrinsics.distortion,
                                  flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        raise PoseError("no camera pose fits the table markers (are the ids in the right "
                        "corners?)")
    rvec, tvec = cv2.solvePnPRefineLM(obj_in, img, intrinsics.matrix, intrinsics.distortion,
                                      rvec, tvec)
    proj, _ = cv2.projectPoints(obj_in, rvec, tvec, intrinsics.matrix, intrinsics.distortion)
    rms = float(np.sqrt(((proj.reshape(-1, 2) - img) ** 2).sum(axis=1).mean()))
    pose = TablePose(intrinsics, rvec.ravel(), tvec.ravel(), layout,
                     {i: np.asarray(c, np.float32) for i, c in found.items()}, rms)
    if pose.camera_position()[2] <= 0:
        raise PoseError("the fitted camera is below the table: are the markers laid out "
                        "clockwise 0, 1, 2, 3 from the top-left?")
    return pose


def table_pose(frame: np.ndarray, intrinsics: Intrinsics | None = None,
               layout: TableLayout | None = None) -> TablePose:
    """Find the markers in ``frame`` and fit the camera's pose (see :func:`solve_pose`)."""
    layout = layout or TableLayout()
    markers = find_table_markers(frame, layout)
    return solve_pose(markers, (frame.shape[1], frame.shape[0]), intrinsics, layout)


class DriftCheck:
    """How far the table markers moved, per frame, without detecting them again.

    Each marker's neighbourhood (grey) is kept from a frame in which the pose was checked;
    in a later frame the same neighbourhood is compared by phase correlation, which gives
    the shift to a fraction of a pixel in well under a millisecond. A marker whose match is
    weak (a hand over it, a changed light) does not count; when none counts the caller
    falls back to finding the markers (:func:`find_markers_near`).

    Args:
        frame: a frame in which the markers are where ``pose`` puts them.
        pose: the camera.
    """

    MIN_RESPONSE = 0.25
    """Phase-correlation peaks weaker than this are no match."""

    def __init__(self, frame: np.ndarray, pose: TablePose) -> None:
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = grey.shape[:2]
        self.patches: dict[int, tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]] = {}
        for marker_id in pose.layout.marker_ids:
            corners = pose.project([[x, y, 0.0] for x, y in
                                    pose.layout.marker_corners_mm(marker_id)])
            x0, y0 = corners.min(axis=0)
            x1, y1 = corners.max(axis=0)
            grow = 0.5 * max(x1 - x0, y1 - y0)
            a, b = int(max(0, x0 - grow)), int(max(0, y0 - grow))
            c, d = int(min(w, x1 + grow + 1)), int(min(h, y1 + grow + 1))
            if c - a < 16 or d - b < 16:
                continue
            window = cv2.createHanningWindow((c - a, d - b), cv2.CV_32F)
            self.patches[marker_id] = ((a, b, c, d), grey[b:d, a:c].astype(np.float32),
                                       window)

    def drift_px(self, frame: np.ndarray) -> float | None:
        """The largest shift (px) of a well-matched marker, or ``None`` when none matched."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        shifts = []
        for (a, b, c, d), ref, window in self.patches.values():
            cur = grey[b:d, a:c].astype(np.float32)
            if cur.shape != ref.shape:
                continue
            (dx, dy), response = cv2.phaseCorrelate(ref, cur, window)
            if response >= self.MIN_RESPONSE:
                shifts.append(float(np.hypot(dx, dy)))
        return max(shifts) if shifts else None
