"""A Raspberry Pi camera's field of view at the app's frame size (issue 12, "Intrinsics").

The shipped Pi camera files describe 4:3 frames (640x480), and the app's Pi camera captures
1280x720: a user who named `pi-camera-2` or `pi-camera-3` in the table calibration, as the
docs say, got "another aspect ratio" from the app. Now the app reads the camera in a sensor
mode that covers the whole sensor (libcamera would pick, for some frame sizes, a mode that
reads only the sensor's centre), and the files give the camera's whole field of view, so a
frame of any aspect ratio is the largest centred part of it. The sensor mode tables are the
ones the Raspberry Pi documentation lists for `rpicam-hello --list-cameras`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tests.support.picamera2_standin import (
    IMX219_MODES,
    StandInPicamera2,
    install,
    sensor_modes,
)
from vision.camera_model import CameraModelError, Intrinsics, load_intrinsics, shipped_camera
from vision.capture import PiCameraSource, full_field_mode
from vision.layout import TableLayout
from vision.pose import TablePose, solve_pose

IMX219 = IMX219_MODES
"""Camera Module 2: its 640x480 and 1920x1080 modes read the sensor's centre only."""

IMX708 = sensor_modes([((1536, 864), (768, 432, 3072, 1728)),
                       ((2304, 1296), (0, 0, 4608, 2592)), ((4608, 2592), (0, 0, 4608, 2592))])
"""Camera Module 3: its 1536x864 mode reads the centre 3072x1728."""

IMX477 = [*sensor_modes([((1332, 990), (696, 528, 2664, 1980))]),
          *sensor_modes([((2028, 1080), (0, 440, 4056, 2160)), ((2028, 1520), (0, 0, 4056, 3040)),
                         ((4056, 3040), (0, 0, 4056, 3040))], bits=12)]
"""High Quality Camera."""


@pytest.mark.parametrize(("modes", "array", "size", "expected"), [
    (IMX219, (3280, 2464), (640, 480), (1640, 1232)),
    (IMX219, (3280, 2464), (1280, 720), (1640, 1232)),
    (IMX219, (3280, 2464), (1280, 960), (1640, 1232)),
    (IMX219, (3280, 2464), (1920, 1440), (3280, 2464)),
    (IMX708, (4608, 2592), (1280, 720), (2304, 1296)),
    (IMX708, (4608, 2592), (640, 480), (2304, 1296)),
    (IMX708, None, (2560, 1440), (4608, 2592)),
    (IMX477, (4056, 3040), (1280, 720), (2028, 1520)),
    (IMX477, (4056, 3040), (8000, 6000), (4056, 3040)),
])
def test_the_sensor_mode_read_covers_the_whole_sensor(modes, array, size, expected) -> None:
    assert full_field_mode(modes, array, size)["size"] == expected


def test_a_sensor_without_a_whole_sensor_mode_is_left_to_libcamera() -> None:
    assert full_field_mode(sensor_modes([((640, 480), (10, 10, 1280, 960))]), (3280, 2464),
                           (640, 480)) is None
    assert full_field_mode([], None, (640, 480)) is None


def test_a_16_9_frame_of_the_camera_module_3_is_its_whole_sensor_width() -> None:
    """Its 4:3 frames are the centre of its 16:9 ones: the same rays land there."""
    cam = shipped_camera("pi-camera-3")
    wide, narrow = cam.for_size((1280, 720)), cam.for_size((640, 480))
    assert wide.focal_px == pytest.approx(940.5, abs=0.2)  # 4.74 mm / 2.8 um x 1280/2304
    rng = np.random.default_rng(3)
    rays = np.column_stack([rng.uniform(-0.3, 0.3, 50), rng.uniform(-0.25, 0.25, 50),
                            np.ones(50)])
    in_wide = (wide.matrix @ rays.T).T
    in_narrow = (narrow.matrix @ rays.T).T
    in_wide, in_narrow = in_wide[:, :2] / in_wide[:, 2:], in_narrow[:, :2] / in_narrow[:, 2:]
    # the 640x480 frame is the centre 960x720 of the 1280x720 one, scaled by 2/3
    mapped = (in_wide - [160.0, 0.0] + 0.5) * (640 / 960) - 0.5
    assert np.abs(mapped - in_narrow).max() < 0.01


def test_a_16_9_frame_of_the_camera_module_2_keeps_its_width() -> None:
    """Its sensor is 4:3: a 16:9 frame is its full width, a band of its height."""
    cam = shipped_camera("pi-camera-2")
    wide = cam.for_size((1280, 720))
    assert wide.focal_px == pytest.approx(1059.2, abs=0.2)
    assert wide.horizontal_fov_deg == pytest.approx(cam.horizontal_fov_deg, abs=0.01)
    assert cam.for_size((1280, 960)).focal_px == pytest.approx(1059.2, abs=0.2)


@pytest.mark.parametrize("name", ["pi-camera-2", "pi-camera-3"])
def test_a_named_pi_camera_finds_the_table_in_the_app_s_1280x720_frames(name: str) -> None:
    """The documented set-up (`calibrate photo.jpg --camera pi-camera-3`) with the app's
    Pi camera: the pose from 1280x720 frames, where it used to fail on the aspect ratio."""
    layout = TableLayout()
    truth = TablePose.looking_down(shipped_camera(name).for_size((1280, 720)), layout, 650.0,
                                   (3.0, -2.0, 1.0), (300.0, 225.0))
    seen = {i: truth.project([[x, y, 0.0] for x, y in layout.marker_corners_mm(i)])
            + np.random.default_rng(i).normal(0.0, 0.3, (4, 2)) for i in range(4)}
    found = solve_pose(seen, (1280, 720), shipped_camera(name), layout)
    assert found.intrinsics.size == (1280, 720)
    assert np.linalg.norm(found.camera_position() - truth.camera_position()) < 5.0
    tops = [[150.0, 120.0, 40.0], [450.0, 330.0, 80.0]]
    assert np.abs(found.project(tops) - truth.project(tops)).max() < 1.0


def test_a_camera_calibrated_at_one_aspect_ratio_still_asks_for_another_calibration() -> None:
    cam = Intrinsics.pinhole(500.0, (640, 480), "calibrated", "calibrated")
    with pytest.raises(CameraModelError, match="another aspect ratio"):
        cam.for_size((1280, 720))


def test_a_field_of_view_smaller_than_the_frame_names_the_file_and_key(tmp_path: Path
                                                                       ) -> None:
    path = tmp_path / "cam.toml"
    path.write_text('size = [640, 480]\nfocal_px = [500.0, 500.0]\ncentre_px = [320.0, 240.0]\n'
                    'field_px = [600.0, 480.0]\n')
    with pytest.raises(CameraModelError, match=r"cam\.toml.*'field_px' 600x480 must hold"):
        load_intrinsics(path)
    path.write_text('size = [640, 480]\nfocal_px = [500.0, 500.0]\ncentre_px = [320.0, 240.0]\n'
                    'field_px = [853.333, 480.0]\n')
    again = load_intrinsics(path)
    assert again.field_px == pytest.approx((853.333, 480.0))
    assert "field_px = [853.333, 480.000]" in again.to_toml()


class _OldPicamera2(StandInPicamera2):
    """A Picamera2 from before the ``sensor`` argument."""

    def create_video_configuration(self, main: object = None,  # type: ignore[override]
                                   raw: object = None) -> dict[str, object]:
        config = {"main": main, "raw": raw}
        type(self).configs.append(config)
        return config


@pytest.mark.parametrize("kind", [StandInPicamera2, _OldPicamera2])
def test_the_app_s_pi_camera_is_read_in_a_whole_sensor_mode(
        monkeypatch: pytest.MonkeyPatch, kind: type[StandInPicamera2]) -> None:
    """What the source asks libcamera for: 1280x720 frames from the 1640x1232 binned mode
    (not the 1920x1080 centre crop libcamera would pick for 16:9 frames)."""
    camera = install(monkeypatch, kind)
    source = PiCameraSource(settle_s=0.0)
    source.open()
    try:
        (config,) = camera.configs
        assert config["main"] == {"size": (1280, 720), "format": "RGB888"}
        if kind is StandInPicamera2:
            assert config["sensor"] == {"output_size": (1640, 1232), "bit_depth": 10}
        else:
            assert config["raw"] == {"size": (1640, 1232)}
        assert source.sensor_mode is not None and source.sensor_mode["size"] == (1640, 1232)
        assert math.isclose(shipped_camera("pi-camera-2").for_size(source.size).focal_px,
                            1059.2, abs_tol=0.2)
    finally:
        source.close()
