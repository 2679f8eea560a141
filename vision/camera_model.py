"""The camera's intrinsics: focal length, principal point and lens distortion.

A camera is described by a pinhole matrix ``K`` and OpenCV's distortion coefficients
``(k1, k2, p1, p2, k3)`` at one frame size. They come from one of three places, and an
:class:`Intrinsics` says which in :attr:`Intrinsics.source`:

- ``calibrated``: ``infinite-vision calibrate-camera`` measured them from photos of a
  printed ChArUco board (:func:`calibrate_charuco`), saved as TOML;
- ``shipped``: a default in ``vision/cameras/`` (``pi-camera-2``, ``pi-camera-3``,
  ``webcam-65``), named in the table calibration file; a unit's lens differs from the
  datasheet's, so the pose fits its ``k1`` to the markers where that explains them better
  (:func:`fit_radial`);
- ``estimated``: nothing was given, so the focal length is estimated from the table markers
  alone (square pixels, principal point at the centre; :func:`estimate_from_plane`), and
  the lens's barrel distortion (``k1``) is fitted to them where it explains their
  positions. Good enough to project, but a measured camera is better.

Example:
    >>> cam = shipped_camera("webcam-65")
    >>> cam.source, cam.size
    ('shipped', (640, 480))
    >>> round(float(cam.for_size((1280, 960)).matrix[0, 0]), 1)
    1004.6
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

CAMERAS_DIR = Path(__file__).resolve().parent / "cameras"
"""Where the shipped intrinsics live (one TOML file per camera)."""

CHARUCO_DICTIONARY = "DICT_5X5_100"
"""Dictionary of the ChArUco board (not the table's, so the two never mix)."""


MIN_TILT_FOR_FOCAL_DEG = 12.0
"""Below this tilt the focal length is not estimated from the markers but assumed."""

ASSUMED_FOV_DEG = 65.0
"""Horizontal field of view assumed when nothing tells the focal length."""

MIN_RADIAL_GAIN = 0.75
"""An estimated camera's ``k1`` is kept only when it brings the markers' RMS misfit under
this share of the distortion-free fit's (else the markers do not show a distortion)."""

MAX_ESTIMATED_K1 = 0.6
"""A fitted ``|k1|`` above this is no lens a table camera has: the fit is not kept."""


class CameraModelError(ValueError):
    """Intrinsics that cannot be read or measured (the message names the file or the key)."""


@dataclass(frozen=True)
class Intrinsics:
    """A pinhole camera with lens distortion at one frame size.

    Attributes:
        matrix: 3x3 ``K``.
        distortion: ``(k1, k2, p1, p2, k3)``.
        size: ``(width, height)`` of the frames ``matrix`` refers to.
        name: a short name (``pi-camera-2``, ``calibrated``...).
        source: ``calibrated``, ``shipped`` or ``estimated`` (see the module docstring).
        k1_fitted: ``k1`` was fitted to the table markers of the frame the pose was found
            in (:func:`fit_radial`), not measured.
        field_px: the camera's whole field of view, centred on the frame, in the pixels of
            ``size`` (wider or taller than the frame where the frame is a crop of it), or
            ``None`` where only this frame's aspect ratio is known. With it, a frame of
            another aspect ratio is the largest centred part of the field with that aspect
            ratio, scaled (:meth:`for_size`): what a Raspberry Pi camera gives in a sensor
            mode that reads the whole sensor (:func:`vision.capture.full_field_mode`).
    """

    matrix: np.ndarray
    distortion: np.ndarray
    size: tuple[int, int]
    name: str = "custom"
    source: str = "calibrated"
    k1_fitted: bool = False
    field_px: tuple[float, float] | None = None

    @classmethod
    def pinhole(cls, focal_px: float, size: tuple[int, int], name: str = "pinhole",
                source: str = "estimated") -> Intrinsics:
        """Square pixels, centred principal point, no distortion.

        Example:
            >>> float(Intrinsics.pinhole(500.0, (640, 480)).matrix[0, 2])
            320.0
        """
        k = np.array([[focal_px, 0.0, size[0] / 2.0], [0.0, focal_px, size[1] / 2.0],
                      [0.0, 0.0, 1.0]])
        return cls(k, np.zeros(5), (int(size[0]), int(size[1])), name, source)

    @property
    def focal_px(self) -> float:
        """The mean of ``fx`` and ``fy``."""
        return float((self.matrix[0, 0] + self.matrix[1, 1]) / 2)

    @property
    def horizontal_fov_deg(self) -> float:
        """The horizontal field of view in degrees (ignoring distortion)."""
        return math.degrees(2 * math.atan(self.size[0] / 2 / self.matrix[0, 0]))

    def for_size(self, size: tuple[int, int]) -> Intrinsics:
        """The same camera at another frame size.

        The same aspect ratio is the same field of view, scaled. Another aspect ratio is
        a crop: the largest centred part of :attr:`field_px` with that aspect ratio,
        scaled to ``size``.

        Example:
            >>> cam = shipped_camera("pi-camera-3")     # 4:3 frames crop its 16:9 sensor
            >>> round(float(cam.for_size((1280, 720)).matrix[0, 0]), 1)
            940.5

        Raises:
            CameraModelError: the aspect ratio differs and the field of view is not known.
        """
        w, h = int(size[0]), int(size[1])
        if (w, h) == self.size:
            return self
        sx, sy = w / self.size[0], h / self.size[1]
        if abs(sx - sy) <= 0.01 * max(sx, sy):
            crop = (float(self.size[0]), float(self.size[1]))
        elif self.field_px is not None:
            fw, fh = self.field_px
            crop = (fh * w / h, fh) if fw / fh > w / h else (fw, fw * h / w)
            sx = sy = w / crop[0]
        else:
            raise CameraModelError(
                f"camera {self.name!r} was described at {self.size[0]}x{self.size[1]}; "
                f"{w}x{h} has another aspect ratio (calibrate the camera at this size)")
        # the crop's corner in this frame's pixels (negative where the crop is wider)
        ox, oy = (self.size[0] - crop[0]) / 2, (self.size[1] - crop[1]) / 2
        k = self.matrix.copy()
        k[0, 0] *= sx
        k[0, 1] *= sx
        k[1, 1] *= sy
        # pixel centres: x' + 0.5 = s (x - ox + 0.5)
        k[0, 2] = sx * (self.matrix[0, 2] - ox + 0.5) - 0.5
        k[1, 2] = sy * (self.matrix[1, 2] - oy + 0.5) - 0.5
        field = (None if self.field_px is None
                 else (self.field_px[0] * sx, self.field_px[1] * sy))
        return Intrinsics(k, self.distortion.copy(), (w, h), self.name, self.source,
                          self.k1_fitted, field)

    def undistort_points(self, points_px: np.ndarray) -> np.ndarray:
        """Pixel points (N, 2) of a frame to where a distortion-free camera ``K`` sees them."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion,
                                   P=self.matrix).reshape(-1, 2)

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        """The frame as a distortion-free camera with the same ``K`` would see it."""
        return cv2.undistort(frame, self.matrix, self.distortion)

    def to_toml(self) -> str:
        """The intrinsics as TOML text (what :func:`load_intrinsics` reads)."""
        k, d = self.matrix, self.distortion
        return "\n".join([
            f'name = "{self.name}"', f'source = "{self.source}"',
            f"size = [{self.size[0]}, {self.size[1]}]",
            f"focal_px = [{k[0, 0]:.3f}, {k[1, 1]:.3f}]",
            f"centre_px = [{k[0, 2]:.3f}, {k[1, 2]:.3f}]",
            "distortion = [" + ", ".join(f"{v:.6f}" for v in d.ravel()) + "]",
            *([f"field_px = [{self.field_px[0]:.3f}, {self.field_px[1]:.3f}]"]
              if self.field_px is not None else []), ""])

    def describe(self) -> str:
        """One line for logs and the command line."""
        how = {"calibrated": "measured with calibrate-camera",
               "shipped": "shipped default",
               "estimated": "focal length estimated from the table markers (no camera "
                            "calibration given; square pixels, centred principal point)"}
        bent = (f", lens distortion k1 {self.distortion[0]:.2f} fitted to the markers"
                if self.k1_fitted else "")
        return (f"camera {self.name}: {self.size[0]}x{self.size[1]}, focal "
                f"{self.focal_px:.1f} px ({self.horizontal_fov_deg:.1f} degrees wide), "
                f"{how.get(self.source, self.source)}{bent}")


def _numbers(where: str, data: Mapping[str, Any], key: str, count: int) -> list[float]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) != count:
        raise CameraModelError(f"{where}: '{key}' must be a list of {count} numbers")
    try:
        numbers = [float(v) for v in value]
    except (TypeError, ValueError) as exc:
        raise CameraModelError(f"{where}: '{key}' must be a list of {count} numbers") from exc
    if not all(math.isfinite(v) for v in numbers):
        raise CameraModelError(f"{where}: '{key}' must be finite")
    return numbers


def intrinsics_from_mapping(data: Mapping[str, Any], where: str = "camera",
                            source: str = "calibrated") -> Intrinsics:
    """Read intrinsics from TOML-like data.

    Keys: ``size``, ``focal_px``, ``centre_px``, ``distortion``, optional ``name``,
    ``source``, ``description``, ``field_px`` (see :attr:`Intrinsics.field_px`).

    Raises:
        CameraModelError: naming ``where`` and the key that is missing, unknown or wrong.
    """
    known = {"name", "source", "description", "size", "focal_px", "centre_px", "distortion",
             "field_px"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise CameraModelError(f"{where}: unknown key(s) {unknown}; expected {sorted(known)}")
    size = _numbers(where, data, "size", 2)
    if min(size) <= 0 or any(v != int(v) for v in size):
        raise CameraModelError(f"{where}: 'size' must be [width, height] in whole pixels")
    focal = _numbers(where, data, "focal_px", 2)
    if min(focal) <= 0:
        raise CameraModelError(f"{where}: 'focal_px' must be positive")
    centre = _numbers(where, data, "centre_px", 2)
    raw = data.get("distortion", [0.0] * 5)
    if not isinstance(raw, list) or len(raw) not in (4, 5, 8):
        raise CameraModelError(f"{where}: 'distortion' must list 4, 5 or 8 numbers")
    dist = _numbers(where, {"distortion": raw}, "distortion", len(raw))
    field = None
    if "field_px" in data:
        fw, fh = _numbers(where, data, "field_px", 2)
        if fw < size[0] - 1 or fh < size[1] - 1:
            raise CameraModelError(f"{where}: 'field_px' {fw:g}x{fh:g} must hold the frame "
                                   f"'size' {size[0]:g}x{size[1]:g} (the frame is a part of "
                                   "the field of view)")
        field = (fw, fh)
    k = np.array([[focal[0], 0.0, centre[0]], [0.0, focal[1], centre[1]], [0.0, 0.0, 1.0]])
    return Intrinsics(k, np.array(dist, np.float64), (int(size[0]), int(size[1])),
                      str(data.get("name", "custom")), str(data.get("source", source)),
                      field_px=field)


def shipped_cameras() -> list[str]:
    """Names of the shipped intrinsics.

    Example:
        >>> shipped_cameras()
        ['pi-camera-2', 'pi-camera-3', 'webcam-65']
    """
    return sorted(p.stem for p in CAMERAS_DIR.glob("*.toml"))


def load_intrinsics(path: Path | str, source: str = "calibrated") -> Intrinsics:
    """Read an intrinsics TOML file.

    Raises:
        CameraModelError: bad TOML (file and line) or a bad key (file and key).
        OSError: the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CameraModelError(f"{path}: {exc}") from exc
    return intrinsics_from_mapping(data, str(path), source)


def shipped_camera(name: str) -> Intrinsics:
    """One of :func:`shipped_cameras`.

    Raises:
        CameraModelError: no shipped camera has that name (the message lists them).
    """
    path = CAMERAS_DIR / f"{name}.toml"
    if not path.is_file():
        raise CameraModelError(f"no shipped camera {name!r}; choose one of "
                               f"{shipped_cameras()} or give a calibrate-camera TOML file")
    cam = load_intrinsics(path, "shipped")
    return Intrinsics(cam.matrix, cam.distortion, cam.size, cam.name, "shipped",
                      field_px=cam.field_px)


def camera_named(spec: str, base: Path | None = None) -> Intrinsics:
    """A shipped camera's name, or the path of a TOML file (relative to ``base``)."""
    if spec in shipped_cameras():
        return shipped_camera(spec)
    path = Path(spec)
    if not path.is_absolute() and base is not None:
        path = base / path
    if not path.is_file():
        raise CameraModelError(f"camera {spec!r}: neither a shipped camera "
                               f"{shipped_cameras()} nor an intrinsics file")
    return load_intrinsics(path)


def estimate_from_plane(object_mm: np.ndarray, image_px: np.ndarray, size: tuple[int, int]
                        ) -> tuple[Intrinsics, float]:
    """Estimate the focal length from one view of known points on a plane (the table markers).

    Square pixels and the principal point at the frame's centre are assumed; the focal
    length is then fixed by the perspective of the plane (Zhang's constraints), refined by
    :func:`cv2.calibrateCamera`, and the lens's barrel distortion is fitted to the points
    with that focal length (:func:`fit_radial`). A camera looking (almost) straight
    down cannot tell its focal length from its height: under
    :data:`MIN_TILT_FOR_FOCAL_DEG` of tilt, or for an implausible result, a
    :data:`ASSUMED_FOV_DEG` lens is assumed instead (the name says so). The markers still
    fix the ratio of focal length to height, so the table plane projects exactly and a
    block's top (40 mm up) errs only by that ratio's share.

    Args:
        object_mm: (N, 2) or (N, 3) points on the table (z = 0), N >= 4.
        image_px: (N, 2) where they are seen.
        size: frame size.

    Returns:
        ``(intrinsics with source "estimated", tilt of the view in degrees)``.
    """
    obj = np.asarray(object_mm, np.float64).reshape(-1, object_mm.shape[-1])
    if obj.shape[1] == 2:
        obj = np.hstack([obj, np.zeros((len(obj), 1))])
    img = np.asarray(image_px, np.float64).reshape(-1, 2)
    w, h = size
    guess = _focal_from_homography(obj[:, :2], img, size) or 0.9 * max(w, h)
    guess = float(np.clip(guess, 0.3 * max(w, h), 5.0 * max(w, h)))
    k0 = np.array([[guess, 0, w / 2], [0, guess, h / 2], [0, 0, 1]], np.float64)
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
             | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K1
             | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
    _rms, k, _d, rvecs, _t = cv2.calibrateCamera(
        [obj.astype(np.float32)], [img.astype(np.float32)], (w, h), k0, np.zeros(5),
        flags=flags)
    focal = float(k[0, 0])
    rot, _ = cv2.Rodrigues(rvecs[0])
    tilt = math.degrees(math.acos(min(1.0, abs(float(rot[2, 2])))))
    fov = math.degrees(2 * math.atan(w / 2 / focal))
    if tilt < MIN_TILT_FOR_FOCAL_DEG or not 40.0 <= fov <= 100.0:
        # seen almost straight down, the markers cannot tell focal length from height:
        # assume the common 65-degree lens (heights then err by the lens's difference)
        focal = w / 2 / math.tan(math.radians(ASSUMED_FOV_DEG / 2))
        name = f"assumed {ASSUMED_FOV_DEG:g}-degree lens"
    else:
        name = "estimated from markers"
    cam = Intrinsics.pinhole(focal, (w, h), name, "estimated")
    return fit_radial(cam, obj, img), tilt


def fit_radial(cam: Intrinsics, object_mm: np.ndarray, image_px: np.ndarray) -> Intrinsics:
    """``cam`` with the ``k1`` that best fits points of the table plane, focal length fixed.

    For a camera whose lens was not measured (estimated, or a shipped default: a unit's
    lens differs from the datasheet's): a 60-70 degree lens bends the markers near the
    frame's edges by several pixels, and a fit without that bending misplaces a block's top
    (40 mm up) by as much. Focal length and ``k1`` cannot both be told from one view of
    four markers (they trade off), so the focal length stays as given, estimated or assumed
    and ``k1`` takes up the bending. ``cam`` is returned as it is where the fitted ``k1``
    does not explain the points clearly better (:data:`MIN_RADIAL_GAIN`) or is implausible
    (:data:`MAX_ESTIMATED_K1`).

    Args:
        cam: the camera at the frame's size.
        object_mm: (N, 2) or (N, 3) points on the table (z = 0).
        image_px: (N, 2) where they are seen.
    """
    obj = np.asarray(object_mm, np.float64)
    obj = obj.reshape(-1, obj.shape[-1])
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
             | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_FIX_FOCAL_LENGTH
             | cv2.CALIB_FIX_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
    plane = [np.hstack([obj[:, :2], np.zeros((len(obj), 1))]).astype(np.float32)]
    seen = [np.asarray(image_px, np.float32).reshape(-1, 2)]
    given = np.asarray(cam.distortion, np.float64).ravel()[:5]
    rms_given = cv2.calibrateCamera(plane, seen, cam.size, cam.matrix.copy(), given.copy(),
                                    flags=flags | cv2.CALIB_FIX_K1)[0]
    rms, _k, dist, _r, _t = cv2.calibrateCamera(plane, seen, cam.size, cam.matrix.copy(),
                                                given.copy(), flags=flags)
    k1 = float(np.ravel(dist)[0])
    if rms >= MIN_RADIAL_GAIN * rms_given or abs(k1) > MAX_ESTIMATED_K1:
        return cam
    fitted = given.copy()
    fitted[0] = k1
    return Intrinsics(cam.matrix, fitted, cam.size, cam.name, cam.source, True, cam.field_px)


def _focal_from_homography(plane: np.ndarray, img: np.ndarray, size: tuple[int, int]
                           ) -> float | None:
    """Closed-form focal length from a plane homography (principal point at the centre)."""
    hmat, _ = cv2.findHomography(plane, img - np.array([size[0] / 2, size[1] / 2]), 0)
    if hmat is None:
        return None
    h1, h2 = hmat[:, 0], hmat[:, 1]
    # h1^T W h2 = 0 and h1^T W h1 = h2^T W h2 with W = diag(1/f^2, 1/f^2, 1)
    estimates = []
    a = h1[0] * h2[0] + h1[1] * h2[1]
    if abs(h1[2] * h2[2]) > 1e-12:
        f2 = -a / (h1[2] * h2[2])
        if f2 > 0:
            estimates.append(f2)
    b = h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2
    c = h2[2] ** 2 - h1[2] ** 2
    if abs(c) > 1e-12:
        f2 = b / c
        if f2 > 0:
            estimates.append(f2)
    return float(math.sqrt(float(np.median(estimates)))) if estimates else None


@dataclass(frozen=True)
class CharucoBoard:
    """A printable ChArUco board: squares across and down, square and marker side in mm."""

    squares: tuple[int, int] = (7, 5)
    square_mm: float = 30.0
    marker_mm: float = 22.0
    dictionary: str = CHARUCO_DICTIONARY

    def board(self) -> cv2.aruco.CharucoBoard:
        """OpenCV's board object."""
        from vision.markers import dictionary

        return cv2.aruco.CharucoBoard(self.squares, self.square_mm, self.marker_mm,
                                      dictionary(self.dictionary))

    def image(self, px_per_mm: float = 300 / 25.4, margin_mm: float = 10.0) -> np.ndarray:
        """The board as a grey image to print (300 dpi by default) with a white margin."""
        w = round(self.squares[0] * self.square_mm * px_per_mm)
        h = round(self.squares[1] * self.square_mm * px_per_mm)
        m = round(margin_mm * px_per_mm)
        return self.board().generateImage((w + 2 * m, h + 2 * m), marginSize=m)


def calibrate_charuco(images: Sequence[np.ndarray], board: CharucoBoard | None = None,
                      name: str = "calibrated", min_corners: int = 6
                      ) -> tuple[Intrinsics, float, int]:
    """Measure a camera from photos of a printed ChArUco board.

    Args:
        images: BGR or grey photos, all the same size, of the board from different angles
            (4 or more, tilted 20-45 degrees, covering the frame's corners too).
        board: the board printed (default 7x5 squares of 30 mm, markers 22 mm).
        name: the name to save.
        min_corners: photos with fewer board corners found are skipped.

    Returns:
        ``(intrinsics, RMS reprojection error in px, photos used)``.

    Raises:
        CameraModelError: photos of different sizes, or too few usable photos (fewer than 3).
    """
    board = board or CharucoBoard()
    cb = board.board()
    detector = cv2.aruco.CharucoDetector(cb)
    obj_all: list[np.ndarray] = []
    img_all: list[np.ndarray] = []
    size: tuple[int, int] | None = None
    for i, image in enumerate(images):
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        here = (grey.shape[1], grey.shape[0])
        if size is None:
            size = here
        elif here != size:
            raise CameraModelError(f"photo {i + 1} is {here[0]}x{here[1]}, the first "
                                   f"{size[0]}x{size[1]}: use one camera mode throughout")
        corners, ids, _mc, _mi = detector.detectBoard(grey)
        if ids is None or len(ids) < min_corners:
            continue
        obj, img = cb.matchImagePoints(corners, ids)  # type: ignore[call-overload]
        if obj is None or len(obj) < min_corners:
            continue
        obj_all.append(obj.astype(np.float32))
        img_all.append(img.astype(np.float32))
    if size is None or len(obj_all) < 3:
        raise CameraModelError(
            f"the ChArUco board was found in {len(obj_all)} of {len(images)} photos; need 3 "
            "or more (print it at 100 %, fill a good part of the frame, tilt it)")
    # k3 stays 0: a few photos rarely cover the frame's corners, where it would run wild
    rms, k, dist, _r, _t = cv2.calibrateCamera(obj_all, img_all, size, None, None,
                                               flags=cv2.CALIB_FIX_K3)
    return (Intrinsics(k, np.asarray(dist, np.float64).ravel()[:5], size, name, "calibrated"),
            float(rms), len(obj_all))
