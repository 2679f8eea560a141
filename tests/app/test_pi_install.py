"""The Pi install (issue 14, "The Pi kiosk"): ownership, updates, shellcheck, the final check.

The full install in a Debian 12 arm64 root file system is ``scripts/pi-rootfs-install``
(20-40 minutes, not in the suite); these are the parts that run here in seconds.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import types
from pathlib import Path

import pytest

from companion import install_check
from tests.support.picamera2_standin import install

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck missing: apt-get install shellcheck (scripts/setup does)")
@pytest.mark.parametrize("script", ["systemd/install.sh", "scripts/pi-rootfs-install",
                                    "scripts/setup", "scripts/test"])
def test_shell_scripts_are_shellcheck_clean(script: str) -> None:
    result = subprocess.run(["shellcheck", "--severity=style", str(ROOT / script)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="changing owners needs root")
def test_installed_files_belong_to_root_not_to_the_user_who_cloned(tmp_path: Path) -> None:
    """install.sh copied the tree with the login user as owner: the kiosk's code must not be
    writable by that user (tar --no-same-owner, chown root)."""
    clone = tmp_path / "home" / "pi" / "companion"
    shutil.copytree(ROOT / "systemd", clone / "systemd")
    (clone / "companion").mkdir()
    (clone / "companion" / "__init__.py").write_text('"""x"""\n')
    for path in [clone, *clone.rglob("*")]:
        os.chown(path, 1000, 1000)
    stage = tmp_path / "stage"
    result = subprocess.run(["bash", str(clone / "systemd" / "install.sh"), "--root",
                             str(stage)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    installed = stage / "opt/infinite-companion/companion/__init__.py"
    info = installed.stat()
    assert (info.st_uid, info.st_gid) == (0, 0)
    assert not info.st_mode & stat.S_IWOTH


def _fake_systemctl(tmp_path: Path, active: bool) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tool = bin_dir / "systemctl"
    tool.write_text("#!/bin/sh\n"
                    f'[ "$1" = is-active ] && exit {0 if active else 3}\nexit 0\n')
    tool.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
            "SYSTEMD_RUN_DIR": str(tmp_path)}


def test_an_update_restarts_the_running_kiosk(tmp_path: Path) -> None:
    result = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True,
                            text=True, timeout=60, env=_fake_systemctl(tmp_path, active=True))
    assert result.returncode == 0, result.stderr
    assert "+ systemctl restart infinite-companion.service" in result.stdout
    assert "restarting the running kiosk on the new code" in result.stderr
    assert "--now" not in result.stdout


def test_a_first_install_starts_the_kiosk(tmp_path: Path) -> None:
    result = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True,
                            text=True, timeout=60, env=_fake_systemctl(tmp_path, active=False))
    assert "+ systemctl enable --now infinite-companion.service" in result.stdout
    assert "restart" not in result.stdout


def test_in_an_image_without_systemd_the_kiosk_is_enabled_for_the_next_boot(
        tmp_path: Path) -> None:
    env = {**os.environ, "SYSTEMD_RUN_DIR": str(tmp_path / "not-booted")}
    result = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True,
                            text=True, timeout=60, env=env)
    assert "+ systemctl enable infinite-companion.service" in result.stdout
    assert "starts at the next boot" in result.stderr


def test_the_pi_extra_pins_numpy_1_for_picamera2() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert "numpy>=1.24,<2" in extras["pi"]
    assert "mpremote>=1.22" in extras["pi"], "infinite-bridge flash works on the Pi"
    assert any(dep.startswith("opencv-contrib-python-headless") and "<4.12" in dep
               for dep in extras["pi"])


def test_install_check_names_a_picamera2_that_fails_to_import(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class AbiFinder:
        def find_spec(self, name: str, path: object = None, target: object = None) -> None:
            if name == "picamera2":
                raise ValueError("numpy.dtype size changed, may indicate binary "
                                 "incompatibility")

    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(sys, "meta_path", [AbiFinder(), *sys.meta_path])
    results = install_check.check_camera()
    assert len(results) == 1 and not results[0].ok
    assert "ValueError: numpy.dtype size changed" in results[0].line()
    assert "numpy 1.x" in results[0].line()


def test_install_check_grabs_a_frame_when_a_camera_is_attached(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", types.ModuleType("picamera2"))
    lines = [r.line() for r in install_check.check_camera(grab=lambda: "one 640x480 frame")]
    assert lines == ["ok    Picamera2: imported", "ok    camera frame: grabbed one 640x480 frame"]
    lines = [r.line() for r in install_check.check_camera(grab=lambda: None)]
    assert lines[1] == "ok    camera frame: no camera attached: frame grab skipped"

    def broken() -> str:
        raise RuntimeError("Camera frontend has timed out!")

    failed = install_check.check_camera(grab=broken)[1]
    assert not failed.ok and "timed out" in failed.detail


def test_install_check_says_the_sensor_mode_a_frame_came_from(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped Pi camera files hold for a mode of the whole sensor: the check says
    which mode the app's source read (a Camera Module 2 stand-in: its own 640x480 mode is a
    crop of the sensor's centre, so 1640x1232 is read)."""

    install(monkeypatch)
    monkeypatch.setattr("vision.capture.time.sleep", lambda s: None)
    line = install_check.check_camera()[1].line()
    assert line == ("ok    camera frame: grabbed one 640x480 frame from the 1640x1232 sensor "
                    "mode (the whole sensor)")


def test_install_check_runs_in_this_venv() -> None:
    """Everything but lgpio (a Pi's) imports here; the report says which check failed."""
    result = subprocess.run([sys.executable, "-m", "companion.install_check"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    lines = result.stdout.splitlines()
    assert "ok    referee: imported" in lines and "ok    NFC bridge: imported" in lines
    assert "ok    vision: imported" in lines and "ok    touchscreen app: imported" in lines
    gpio_line = next(line for line in lines if "gpiozero + lgpio" in line)
    if importlib.util.find_spec("lgpio") is None:
        assert gpio_line.startswith("FAIL") and result.returncode == 1
        assert "install check: 1 failed (gpiozero + lgpio)" in lines
    else:
        assert gpio_line.startswith("ok")
