"""What a small camera does to light after the lens: distortion, shading, noise, ISP, JPEG.

The renderer produces a linear, pinhole (undistorted) image on a canvas a little larger than
the output. :func:`distort` resamples it through the exact OpenCV distortion model of the
ground-truth camera (so ``cv2.projectPoints`` with the stored ``K`` and ``dist`` lands on
the rendered pixel), with a touch of lateral chromatic aberration. :func:`develop` then plays
the sensor and the image processor: lens shading, exposure, shot and read noise on an RGGB
Bayer mosaic, demosaicing, automatic white balance that only partly corrects warm or cool
light (as a Pi camera whose gains were fixed after settling), light denoising, sRGB tone
curve, sharpening; :func:`encode_jpeg` compresses.

Example:
    >>> import numpy as np
    >>> from vision.devtools.table3d_truth import CameraTruth
    >>> cam = CameraTruth.look_down(600.0, (64, 48), 62.0, dist=(-0.2, 0.05, 0, 0, 0))
    >>> K_r, size_r = render_canvas(cam)
    >>> size_r[0] > 64 and size_r[1] > 48
    True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision.devtools.table3d_truth import CameraTruth

_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 60, 1e-12)


def _undistort_to(cam: CameraTruth, pts: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Pixels of the pinhole image with projection ``P`` seen at distorted pixels ``pts``."""
    src = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    out = cv2.undistortPoints(src, cam.K, cam.dist, None, None, P, _CRITERIA)
    return out.reshape(-1, 2)


def render_canvas(cam: CameraTruth, margin_px: int = 6) -> tuple[np.ndarray, tuple[int, int]]:
    """The pinhole camera (``K_r``, size) to render so that :func:`distort` has every pixel.

    Its focal length is the camera's ``fy`` and its principal point the canvas centre
    (pixel-centre convention, as a renderer without lens shift produces it).
    """
    w, h = cam.size
    f = float(cam.K[1, 1])
    n = 200
    border = np.concatenate([
        np.stack([np.linspace(-1, w, n), np.full(n, -1.0)], 1),
        np.stack([np.linspace(-1, w, n), np.full(n, float(h))], 1),
        np.stack([np.full(n, -1.0), np.linspace(-1, h, n)], 1),
        np.stack([np.full(n, float(w)), np.linspace(-1, h, n)], 1)])
    norm = _undistort_to(cam, border, np.eye(3))
    half_w = f * float(np.abs(norm[:, 0]).max()) + margin_px
    half_h = f * float(np.abs(norm[:, 1]).max()) + margin_px
    wr, hr = 2 * math.ceil(half_w), 2 * math.ceil(half_h)
    K_r = np.array([[f, 0, (wr - 1) / 2], [0, f, (hr - 1) / 2], [0, 0, 1.0]])
    return K_r, (wr, hr)


def distortion_maps(cam: CameraTruth, K_r: np.ndarray, chroma: float = 0.0
                    ) -> list[tuple[np.ndarray, np.ndarray]]:
    """``cv2.remap`` maps (one per B, G, R channel) from the render canvas to the photo.

    Args:
        cam: the ground-truth camera (output size, ``K``, ``dist``).
        K_r: the render canvas's pinhole matrix (:func:`render_canvas`).
        chroma: lateral chromatic aberration: red is magnified by ``1 + chroma`` and blue by
            ``1 - chroma`` about the principal point; green is exact.
    """
    w, h = cam.size
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    pts = np.stack([u.ravel(), v.ravel()], 1)
    g = _undistort_to(cam, pts, K_r)
    rays = np.concatenate([(g - K_r[:2, 2]) / K_r[0, 0], np.ones((len(g), 1))], 1)[::97]
    check, _ = cv2.projectPoints(np.ascontiguousarray(rays).reshape(-1, 1, 3),
                                 np.zeros(3), np.zeros(3), cam.K, cam.dist)
    err = np.abs(check.reshape(-1, 2) - pts[::97]).max()
    if err > 0.01:
        raise ValueError(f"distortion model does not invert within 0.01 px (error {err:.3f}):"
                         f" dist={cam.dist.tolist()}")
    maps = []
    for scale in (1.0 - chroma, 1.0, 1.0 + chroma):  # B, G, R
        c = K_r[:2, 2]
        p = c + (g - c) * scale
        maps.append((p[:, 0].reshape(h, w).astype(np.float32),
                     p[:, 1].reshape(h, w).astype(np.float32)))
    return maps


def distort(linear: np.ndarray, maps: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Resample a linear BGR float render (canvas) into the photo's geometry."""
    chans = [cv2.remap(linear[..., i], mx, my, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)
             for i, (mx, my) in enumerate(maps)]
    return np.clip(np.stack(chans, -1), 0.0, None)


@dataclass(frozen=True)
class SensorPlan:
    """The camera's behaviour for one family (drawn once, the same for all its images).

    Attributes:
        vignetting: fraction of light lost in the image corners after lens-shading correction.
        blur_sigma: optical blur (pixels).
        chroma: lateral chromatic aberration (see :func:`distortion_maps`).
        analog_gain: sensor gain; noise grows with it (dim rooms need more).
        full_well: electrons at full scale for gain 1.
        read_noise: read noise in electrons.
        awb_strength: how much of the light's colour cast the white balance removes (0..1).
        exposure_target: the 99.5th percentile of brightness after exposure (linear).
        sharpen: unsharp-mask amount of the image processor.
        denoise: strength of the image processor's denoising (Gaussian sigma in pixels).
        jpeg_quality: JPEG quality.
    """

    vignetting: float
    blur_sigma: float
    chroma: float
    analog_gain: float
    full_well: float
    read_noise: float
    awb_strength: float
    exposure_target: float
    sharpen: float
    denoise: float
    jpeg_quality: int

    @classmethod
    def draw(cls, rng: random.Random, dim: bool = False) -> SensorPlan:
        """A plausible Pi-camera-like sensor; ``dim`` rooms get high gain (more noise)."""
        return cls(vignetting=rng.uniform(0.08, 0.28), blur_sigma=rng.uniform(0.35, 0.7),
                   chroma=rng.uniform(0.0004, 0.0014),
                   analog_gain=rng.uniform(5.0, 9.0) if dim else rng.uniform(1.2, 3.0),
                   full_well=rng.uniform(4000, 6500), read_noise=rng.uniform(2.0, 4.0),
                   awb_strength=rng.uniform(0.55, 0.9), exposure_target=rng.uniform(0.8, 1.0),
                   sharpen=rng.uniform(0.25, 0.7), denoise=rng.uniform(0.35, 0.6),
                   jpeg_quality=rng.choice([84, 85, 85, 86, 88]))

    def to_json(self) -> dict[str, float]:
        """JSON-ready data."""
        return {k: float(v) for k, v in self.__dict__.items()}


def _luma(bgr: np.ndarray) -> np.ndarray:
    return 0.0722 * bgr[..., 0] + 0.7152 * bgr[..., 1] + 0.2126 * bgr[..., 2]


def linear_to_srgb(x: np.ndarray) -> np.ndarray:
    """IEC 61966-2-1 encoding of linear values in 0..1."""
    x = np.clip(x, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def develop(linear_bgr: np.ndarray, sensor: SensorPlan, rng: np.random.Generator,
            exposure: float | None = None, awb: np.ndarray | None = None
            ) -> tuple[np.ndarray, float, np.ndarray]:
    """The sensor and image processor: linear BGR (photo geometry) to 8-bit BGR.

    Args:
        linear_bgr: scene-linear BGR float image, already distorted.
        sensor: the camera's behaviour.
        rng: noise source.
        exposure: a fixed exposure (the first image of a family sets it; a Pi camera keeps
            exposure and gains fixed once settled); None measures it from this image.
        awb: fixed white-balance gains (B, G, R); None measures them.

    Returns:
        the 8-bit BGR image, the exposure and the white-balance gains used.
    """
    h, w = linear_bgr.shape[:2]
    img = cv2.GaussianBlur(linear_bgr.astype(np.float32), (0, 0), sensor.blur_sigma)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    img *= (1.0 - sensor.vignetting * r2 * (0.6 + 0.4 * r2))[..., None]
    if awb is None:
        lum = _luma(img)
        bright = lum >= np.percentile(lum, 97.0)
        mean = img[bright].mean(axis=0) + 1e-6
        full = mean[1] / mean
        awb = full ** sensor.awb_strength
        # gains of at least 1, as a sensor's: a channel clipped in the raw stays clipped, so
        # blown highlights come out white instead of tinted
        awb = awb / awb.min()
    if exposure is None:
        lum = _luma(img * awb)
        exposure = sensor.exposure_target / max(float(np.percentile(lum, 99.5)), 1e-6)
    raw = img * exposure
    # shot + read noise on an RGGB mosaic, then demosaic (edge-aware) like a real pipeline
    electrons = sensor.full_well / sensor.analog_gain
    mosaic = np.empty((h, w), np.float32)
    mosaic[0::2, 0::2] = raw[0::2, 0::2, 2]
    mosaic[0::2, 1::2] = raw[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = raw[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = raw[1::2, 1::2, 0]
    signal = np.clip(mosaic, 0, None) * electrons
    noisy = rng.poisson(signal).astype(np.float32) + rng.normal(
        0.0, sensor.read_noise, mosaic.shape).astype(np.float32)
    mosaic = np.clip(noisy / electrons, 0.0, 1.0)
    rgb16 = cv2.cvtColor((mosaic * 65535).astype(np.uint16), cv2.COLOR_BayerBG2BGR_EA)
    img = rgb16.astype(np.float32) / 65535.0
    img = cv2.GaussianBlur(img, (0, 0), sensor.denoise)
    img = img * awb.astype(np.float32)
    out = linear_to_srgb(img).astype(np.float32)
    soft = cv2.GaussianBlur(out, (0, 0), 1.0)
    out = out + sensor.sharpen * (out - soft)
    return (np.clip(out, 0, 1) * 255 + 0.5).astype(np.uint8), float(exposure), awb


def encode_jpeg(bgr: np.ndarray, quality: int) -> bytes:
    """JPEG bytes of an 8-bit BGR image.

    Raises:
        ValueError: OpenCV could not encode the image.
    """
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes()
