"""Camera sources behind one small interface: Picamera2, ``cv2.VideoCapture``, replays.

Every source has ``open()``, ``read() -> frame | None`` (None: no frame, the camera is gone
or the replay ended), ``close()`` (idempotent), and is a context manager. Frames are BGR
``uint8`` arrays.

- :class:`PiCameraSource`: a Raspberry Pi camera module through Picamera2 (Raspberry Pi OS
  Bookworm), with auto-exposure and auto white balance switched off after a settling time so
  colours stay stable from frame to frame, in a sensor mode that reads the whole sensor
  (:func:`full_field_mode`), so the shipped camera files know its field of view at any
  frame size. ``picamera2`` is imported only when opened.
- :class:`VideoCaptureSource`: a USB webcam (device index) or a video file, via OpenCV.
- :class:`FolderSource`: the image files of a folder in name order (replay), optionally
  looping.

:func:`open_source` picks one from a short spec: ``"pi"``, ``"usb:0"``, a video file path or
a folder path.

Example:
    >>> import tempfile, pathlib, cv2, numpy as np
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = cv2.imwrite(str(folder / "a.png"), np.zeros((4, 4, 3), np.uint8))
    >>> with open_source(str(folder)) as source:
    ...     source.read().shape
    (4, 4, 3)
"""

from __future__ import annotations

import importlib
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")
VIDEO_SUFFIXES = (".avi", ".mp4", ".mkv", ".mjpg", ".mov")


class CaptureError(OSError):
    """A camera or recording cannot be opened (the message says which and why)."""


class FrameSource:
    """Base of the sources: a context manager with idempotent :meth:`close`."""

    name = "source"

    def open(self) -> None:
        """Open the device or recording.

        Raises:
            CaptureError: it cannot be opened.
        """
        raise NotImplementedError

    def read(self) -> np.ndarray | None:
        """The next frame, or None when there is none (device lost, replay over)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the device (safe to call twice)."""

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class VideoCaptureSource(FrameSource):
    """A USB webcam (an int device index) or a video file, through ``cv2.VideoCapture``.

    Args:
        device: device index or video file path.
        size: requested (width, height) for a webcam.
        loop: start a video file again at its end.
    """

    def __init__(self, device: int | str, size: tuple[int, int] | None = None,
                 loop: bool = False) -> None:
        self.device = device
        self.size = size
        self.loop = loop
        self.name = f"usb:{device}" if isinstance(device, int) else str(device)
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> None:
        """Open the webcam or file."""
        self.close()
        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise CaptureError(f"{self.name}: cannot open (unplugged, busy or not a video?)")
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def read(self) -> np.ndarray | None:
        """The next frame, or None."""
        if self._cap is None:
            return None
        ok, frame = self._cap.read()
        if not ok and self.loop and isinstance(self.device, str):
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
        return frame if ok else None

    def close(self) -> None:
        """Release the capture."""
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class FolderSource(FrameSource):
    """The images of a folder, in file-name order (a recorded table, for replays and tests).

    Args:
        folder: the folder.
        loop: start again after the last image.
        hold: give each image this many times (a camera watching a still table).
    """

    def __init__(self, folder: Path | str, loop: bool = False, hold: int = 1) -> None:
        if hold < 1:
            raise ValueError(f"hold must be at least 1, got {hold}")
        self.folder = Path(folder)
        self.loop = loop
        self.hold = hold
        self._given = 0
        self._image: np.ndarray | None = None
        self.name = str(folder)
        self._files: list[Path] = []
        self._next = 0

    def open(self) -> None:
        """List the images."""
        if not self.folder.is_dir():
            raise CaptureError(f"{self.folder}: not a folder")
        self._files = sorted(p for p in self.folder.iterdir()
                             if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise CaptureError(f"{self.folder}: no images ({', '.join(IMAGE_SUFFIXES)})")
        self._next = 0
        self._image = None

    def read(self) -> np.ndarray | None:
        """The next image, or None after the last one (unless looping)."""
        if self._image is not None and self._given < self.hold:
            self._given += 1
            return self._image.copy()
        if self._next >= len(self._files):
            if not (self.loop and self._files):
                return None
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CaptureError(f"{path}: not a readable image")
        self._image, self._given = frame, 1
        return frame.copy()

    def close(self) -> None:
        """Forget the file list."""
        self._files = []


def full_field_mode(modes: list[dict[str, Any]], array_size: tuple[int, int] | None,
                    size: tuple[int, int]) -> dict[str, Any] | None:
    """The sensor mode to read a Pi camera in for frames of ``size``: one of the whole sensor.

    libcamera picks the mode nearest the frame size, and some modes read only the sensor's
    centre (the Camera Module 2's 640x480 mode a 1280x960 crop, its 1920x1080 mode and the
    Camera Module 3's 1536x864 mode too): the field of view, so the focal length in pixels,
    would then depend on the frame size in ways no shipped camera file can know. A mode
    whose crop covers the whole pixel array keeps the field of view; among those, the
    smallest at least as large as the frames (no upscaling), else the largest; the deeper
    bit depth where two are the same size.

    Args:
        modes: Picamera2's ``sensor_modes`` (each with ``size``, ``crop_limits`` as
            ``(x, y, width, height)`` on the pixel array, ``bit_depth``).
        array_size: the sensor's ``PixelArraySize`` (None: the widest crop of any mode).
        size: the frames wanted.

    Returns:
        The mode, or None where no mode reads the whole sensor (libcamera then chooses).

    Example:
        >>> imx219 = [{"size": s, "crop_limits": c, "bit_depth": 10} for s, c in [
        ...     ((640, 480), (1000, 752, 1280, 960)), ((1640, 1232), (0, 0, 3280, 2464)),
        ...     ((1920, 1080), (680, 692, 1920, 1080)), ((3280, 2464), (0, 0, 3280, 2464))]]
        >>> full_field_mode(imx219, (3280, 2464), (640, 480))["size"]
        (1640, 1232)
    """
    def crop(mode: dict[str, Any]) -> tuple[int, int, int, int]:
        x, y, w, h = (int(v) for v in mode.get("crop_limits", (0, 0, 0, 0)))
        return x, y, w, h

    if not modes:
        return None
    if array_size is None:
        widest = max(modes, key=lambda m: crop(m)[2] * crop(m)[3])
        array_size = (crop(widest)[2], crop(widest)[3])
    whole = [m for m in modes if crop(m) == (0, 0, int(array_size[0]), int(array_size[1]))]
    if not whole:
        return None
    big = [m for m in whole if m["size"][0] >= size[0] and m["size"][1] >= size[1]]
    if big:
        return min(big, key=lambda m: (m["size"][0] * m["size"][1], -int(m.get("bit_depth", 0))))
    return max(whole, key=lambda m: (m["size"][0] * m["size"][1], int(m.get("bit_depth", 0))))


class PiCameraSource(FrameSource):
    """A Raspberry Pi camera module through Picamera2, with colours held steady.

    Auto-exposure and auto white balance run for ``settle_s`` seconds, then the exposure
    time, analogue gain and colour gains they reached are fixed (or the given ones are used
    from the start), so a block's colour does not drift when a hand passes.

    Args:
        size: (width, height) of the frames.
        settle_s: seconds of automatic adjustment before fixing the controls.
        exposure_us: fixed exposure time (None: learn it while settling).
        colour_gains: fixed (red, blue) gains (None: learn them while settling).
        analogue_gain: fixed sensor gain (None: learn it while settling).
    """

    name = "pi"

    def __init__(self, size: tuple[int, int] = (1280, 720), settle_s: float = 1.5,
                 exposure_us: int | None = None,
                 colour_gains: tuple[float, float] | None = None,
                 analogue_gain: float | None = None) -> None:
        self.size = size
        self.settle_s = settle_s
        self.exposure_us = exposure_us
        self.colour_gains = colour_gains
        self.analogue_gain = analogue_gain
        self.sensor_mode: dict[str, Any] | None = None
        self._camera: Any = None

    def _whole_sensor_mode(self, camera: Any) -> dict[str, Any] | None:
        """:func:`full_field_mode` of this camera (None where it lists no modes)."""
        try:
            modes = list(camera.sensor_modes)
            array = getattr(camera, "camera_properties", {}).get("PixelArraySize")
        except Exception:  # listing modes restarts the camera: a failing one may raise
            return None
        return full_field_mode(modes, tuple(array) if array else None, self.size)

    def _configuration(self, camera: Any) -> Any:
        """Frames of :attr:`size` from :attr:`sensor_mode` (libcamera's choice where None).

        Newer Picamera2 takes the mode as ``sensor``; older ones by the size of
        the raw stream.
        """
        main = {"size": self.size, "format": "RGB888"}
        mode = self.sensor_mode
        if mode is None:
            return camera.create_video_configuration(main=main)
        try:
            return camera.create_video_configuration(
                main=main, sensor={"output_size": tuple(mode["size"]),
                                   "bit_depth": int(mode["bit_depth"])})
        except TypeError:     # no ``sensor`` argument in this Picamera2
            return camera.create_video_configuration(
                main=main, raw={"size": tuple(mode["size"])})

    def open(self) -> None:
        """Start the camera in a whole-sensor mode and fix its exposure and colour gains."""
        self.close()
        try:
            picamera2 = importlib.import_module("picamera2")
        except ImportError as exc:
            raise CaptureError("pi: the picamera2 module is missing (on Raspberry Pi OS: "
                               "sudo apt install python3-picamera2)") from exc
        except Exception as exc:  # e.g. apt's simplejpeg built for numpy 1.x under numpy 2
            raise CaptureError(f"pi: picamera2 cannot be imported: {type(exc).__name__}: "
                               f"{exc} (the kiosk's venv needs numpy 1.x: pip install "
                               "'.[pi]')") from exc
        try:
            camera = picamera2.Picamera2()
            self.sensor_mode = self._whole_sensor_mode(camera)
            config = self._configuration(camera)
            camera.configure(config)
            camera.start()
        except Exception as exc:  # the library raises RuntimeError, IndexError, OSError...
            raise CaptureError(f"pi: cannot start the camera: {exc}") from exc
        self._camera = camera
        try:
            self._fix_controls()
        except Exception as exc:  # metadata or controls refused by a failing camera
            self.close()
            raise CaptureError(f"pi: cannot fix exposure and colour gains: {exc}") from exc

    def _fix_controls(self) -> None:
        camera = self._camera
        if None in (self.exposure_us, self.colour_gains, self.analogue_gain):
            time.sleep(self.settle_s)
            meta = camera.capture_metadata()
            self.exposure_us = self.exposure_us or int(meta.get("ExposureTime", 10000))
            self.analogue_gain = self.analogue_gain or float(meta.get("AnalogueGain", 1.0))
            gains = meta.get("ColourGains", (1.5, 1.5))
            self.colour_gains = self.colour_gains or (float(gains[0]), float(gains[1]))
        camera.set_controls({"AeEnable": False, "AwbEnable": False,
                             "ExposureTime": self.exposure_us,
                             "AnalogueGain": self.analogue_gain,
                             "ColourGains": self.colour_gains})

    def read(self) -> np.ndarray | None:
        """The next frame (BGR), or None if the camera stopped answering."""
        if self._camera is None:
            return None
        try:
            # Picamera2's "RGB888" is stored B, G, R in memory: already OpenCV's order.
            return np.asarray(self._camera.capture_array("main"))
        except Exception:  # a camera that vanished raises from deep in libcamera
            return None

    def close(self) -> None:
        """Stop and release the camera."""
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            finally:
                self._camera = None


def _frame_size(spec: str, text: str) -> tuple[int, int]:
    """The ``WxH`` after a camera spec's ``@`` as (width, height)."""
    width, x, height = text.lower().partition("x")
    if x and width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0:
        return int(width), int(height)
    raise CaptureError(f"{spec}: expected a frame size after '@' as WxH, e.g. @1280x720")


def open_source(spec: str, size: tuple[int, int] | None = None, loop: bool = False,
                hold: int = 1) -> FrameSource:
    """Make (not yet open) a source from a spec.

    Args:
        spec: ``"pi"``, ``"usb:N"`` (webcam N), either with ``@WxH`` to ask the camera for
            that frame size (``usb:0@1280x720``), a video file or a folder of images.
        size: requested frame size for cameras (the spec's ``@WxH`` wins).
        loop: replay files or folders endlessly.
        hold: for a folder, how many times each image is given.

    Raises:
        CaptureError: the spec names nothing usable.
    """
    camera, at, asked = spec.partition("@")
    if at and (camera == "pi" or camera.startswith("usb:")):
        size = _frame_size(spec, asked)
        spec = camera
    if spec == "pi":
        return PiCameraSource(size or (1280, 720))
    if spec.startswith("usb:"):
        try:
            return VideoCaptureSource(int(spec[4:]), size)
        except ValueError as exc:
            raise CaptureError(f"{spec}: expected usb:N with N a device number") from exc
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, loop, hold)
    if path.suffix.lower() in VIDEO_SUFFIXES and path.is_file():
        return VideoCaptureSource(str(path), loop=loop)
    raise CaptureError(f"{spec}: not 'pi', 'usb:N', a video file ({', '.join(VIDEO_SUFFIXES)}) "
                       "or a folder of images")
