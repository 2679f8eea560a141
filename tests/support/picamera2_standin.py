"""A stand-in for Picamera2, as far as ``vision.capture.PiCameraSource`` uses it.

Picamera2 exists only on Raspberry Pi OS; the tests that check what the app's Pi camera
source asks libcamera for, and how it reports a failing camera, put this class in its
place (:func:`install`). It has a Camera Module 2's sensor modes, as the Raspberry Pi
documentation lists them for ``rpicam-hello --list-cameras``, records every configuration
it is asked for, and gives black frames of the configured size. Subclass it to fail in a
given way or to take an older Picamera2's arguments.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np
import pytest


def sensor_modes(rows: list[tuple[tuple[int, int], tuple[int, int, int, int]]],
                 bits: int = 10) -> list[dict[str, Any]]:
    """Picamera2's ``sensor_modes`` for ``(size, crop_limits)`` rows of one bit depth."""
    return [{"size": size, "crop_limits": crop, "bit_depth": bits,
             "format": f"SRGGB{bits}_CSI2P", "unpacked": f"SRGGB{bits}"}
            for size, crop in rows]


IMX219_MODES = sensor_modes([
    ((640, 480), (1000, 752, 1280, 960)), ((1640, 1232), (0, 0, 3280, 2464)),
    ((1920, 1080), (680, 692, 1920, 1080)), ((3280, 2464), (0, 0, 3280, 2464))])
"""Camera Module 2: its 640x480 and 1920x1080 modes read the sensor's centre only."""


class StandInPicamera2:
    """Picamera2 with a Camera Module 2 attached.

    Attributes:
        configs: every configuration asked for, in order (per class; :func:`install`
            empties it).
        stops: how many times a camera of this class was stopped.
    """

    configs: list[dict[str, Any]] = []
    stops: list[bool] = []
    sensor_modes = IMX219_MODES
    camera_properties: dict[str, Any] = {"PixelArraySize": (3280, 2464), "Model": "imx219"}

    def __init__(self) -> None:
        self.size = (640, 480)

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return [{"Model": "imx219"}]

    def create_video_configuration(self, main: Any = None, sensor: Any = None,
                                   raw: Any = None) -> dict[str, Any]:
        config = {"main": main, "sensor": sensor, "raw": raw}
        type(self).configs.append(config)
        return config

    def configure(self, config: dict[str, Any]) -> None:
        self.size = tuple(config["main"]["size"])

    def start(self) -> None:
        pass

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 8000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.4)}

    def set_controls(self, controls: Any) -> None:
        pass

    def capture_array(self, stream: str = "main") -> np.ndarray:
        return np.zeros((self.size[1], self.size[0], 3), np.uint8)

    def stop(self) -> None:
        type(self).stops.append(True)

    def close(self) -> None:
        pass


def install(monkeypatch: pytest.MonkeyPatch,
            camera: type[StandInPicamera2] = StandInPicamera2) -> type[StandInPicamera2]:
    """Make ``import picamera2`` give ``camera`` as ``Picamera2`` for one test."""
    camera.configs = []
    camera.stops = []
    module = types.ModuleType("picamera2")
    module.Picamera2 = camera  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return camera
