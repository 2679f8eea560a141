"""``python -m companion.install_check``: does the installed kiosk have what it needs?

``systemd/install.sh`` runs it last, in the kiosk's virtual environment, so a broken install
is said at install time rather than found as a black screen or a silent camera at the table.
It checks, each in words:

- the referee and the app's modules import (Kivy is imported, no window is opened);
- gpiozero imports with the lgpio pin factory's module (the factory itself needs
  ``/dev/gpiochip*``, which only a Pi has, so it is not started here);
- the NFC bridge's host side and pyserial import;
- with ``--camera``: Picamera2 imports (it loads Raspberry Pi OS's ``simplejpeg``, built for
  the system's numpy 1.x: a numpy 2 in the venv breaks exactly this), and when a camera is
  attached, one frame is grabbed through :class:`vision.capture.PiCameraSource`.

Exit status 0 when everything needed works, 1 otherwise (the message names what failed and
what to do).

Example:
    >>> check_import("json").ok
    True
    >>> result = check_import("no_such_module_xyz")
    >>> result.ok, "No module named" in result.detail
    (False, True)
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CheckResult:
    """One line of the report.

    Attributes:
        name: what was checked.
        ok: whether it works (a skipped check is ok).
        detail: what was found, or why it failed.
    """

    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        """The report line, e.g. ``ok    gpiozero + lgpio: imported``."""
        return f"{'ok' if self.ok else 'FAIL':5} {self.name}: {self.detail}"


def check_import(*modules: str, name: str | None = None) -> CheckResult:
    """Import ``modules``; any exception (not only ImportError) is a failure with its text."""
    label = name or " + ".join(modules)
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as exc:  # an ABI mismatch raises ValueError or RuntimeError too
            return CheckResult(label, False, f"import {module} failed: "
                                             f"{type(exc).__name__}: {exc}")
    return CheckResult(label, True, "imported")


def check_camera(grab: Callable[[], str | None] | None = None) -> list[CheckResult]:
    """Picamera2 imports; with a camera attached, one frame is grabbed.

    Args:
        grab: grabs one frame and says what it grabbed (``one 640x480 frame from the
            1640x1232 sensor mode...``), or None when no camera is attached (tests pass
            their own).
    """
    imported = check_import("picamera2", name="Picamera2")
    if not imported.ok:
        hint = ("; on Raspberry Pi OS Picamera2 comes from apt (python3-picamera2) and needs "
                "numpy 1.x in the venv: reinstall with pip install '.[pi]'")
        return [CheckResult(imported.name, False, imported.detail + hint)]
    try:
        grabbed = (grab or _grab_one_frame)()
    except Exception as exc:  # libcamera errors come in many types
        return [imported, CheckResult("camera frame", False,
                                      f"a camera is attached but no frame came: "
                                      f"{type(exc).__name__}: {exc}")]
    if grabbed is None:
        return [imported, CheckResult("camera frame", True,
                                      "no camera attached: frame grab skipped")]
    return [imported, CheckResult("camera frame", True, f"grabbed {grabbed}")]


def _grab_one_frame() -> str | None:
    picamera2 = importlib.import_module("picamera2")
    if not picamera2.Picamera2.global_camera_info():
        return None
    from vision.capture import PiCameraSource

    source = PiCameraSource(size=(640, 480), settle_s=0.5)
    with source:
        frame = source.read()
    mode = source.sensor_mode
    if frame is None:
        raise RuntimeError("the camera opened but gave no frame")
    # the shipped Pi camera files hold for frames from a mode of the whole sensor
    where = (f" from the {mode['size'][0]}x{mode['size'][1]} sensor mode (the whole sensor)"
             if mode else " (no sensor mode covers the whole sensor: libcamera chose one; "
                          "calibrate the camera with calibrate-camera)")
    return f"one {frame.shape[1]}x{frame.shape[0]} frame{where}"


def run_checks(camera: bool) -> list[CheckResult]:
    """Every check, in order."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    results = [
        check_import("companion.session", "companion.cli.main", name="referee"),
        check_import("kivy", "companion.app.i18n", "companion.app.screens",
                     name="touchscreen app"),
        check_import("gpiozero", "lgpio", "gpiozero.pins.lgpio", "hardware.outputs",
                     name="gpiozero + lgpio"),
        check_import("serial", "firmware_bridge.reader", "firmware_bridge.cli",
                     name="NFC bridge"),
        check_import("cv2", "vision.capture", name="vision"),
    ]
    if camera:
        results.extend(check_camera())
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks and print one line each; 0 when all pass."""
    parser = argparse.ArgumentParser(prog="python -m companion.install_check",
                                     description=__doc__.split("\n", 1)[0])
    parser.add_argument("--camera", action="store_true",
                        help="also check Picamera2 and grab a frame when a camera is attached")
    args = parser.parse_args(argv)
    results = run_checks(args.camera)
    for result in results:
        print(result.line())
    failed = [result.name for result in results if not result.ok]
    if failed:
        print(f"install check: {len(failed)} failed ({', '.join(failed)})")
        return 1
    print("install check: everything the kiosk needs is there")
    return 0


if __name__ == "__main__":  # pragma: no cover - exercised through install.sh
    sys.exit(main())
