"""The kiosk's systemd unit and installer (issue 9, "The Pi install").

``systemd-analyze verify`` checks the unit as systemd would load it; it exits 0 even for
lines it ignores, so any message about the unit counts as a failure here.
"""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "infinite-companion.service"
INSTALL = ROOT / "systemd" / "install.sh"
APP = ROOT / ".venv" / "bin" / "infinite-companion"
ANALYZE = shutil.which("systemd-analyze")


def _unit(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text)
    return parser


def _multi(text: str, key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in text.splitlines() if line.startswith(f"{key}=")]


def _verify(unit_file: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    return subprocess.run([ANALYZE, "verify", "--man=no", str(unit_file)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "SYSTEMD_LOG_COLOR": "0"})


def _as_here(text: str, tmp_path: Path) -> Path:
    """The unit with ExecStart pointing at this checkout's app (verify checks it exists)."""
    assert APP.exists(), "the project is installed in .venv (scripts/setup)"
    path = tmp_path / "infinite-companion.service"
    path.write_text(text.replace("/opt/infinite-companion/.venv/bin/infinite-companion",
                                 str(APP)))
    return path


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze missing: apt-get install systemd")
def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    """Every line of the unit is understood by systemd 252 (Bookworm's)."""
    result = _verify(_as_here(UNIT.read_text(), tmp_path))
    assert result.returncode == 0, result.stderr
    assert "infinite-companion.service" not in result.stderr, result.stderr


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze missing: apt-get install systemd")
def test_verify_catches_a_broken_unit(tmp_path: Path) -> None:
    """The check above can fail: a mistyped watchdog period is reported."""
    broken = UNIT.read_text().replace("WatchdogSec=15", "WatchdogSec=fifteen")
    result = _verify(_as_here(broken, tmp_path))
    assert "WatchdogSec" in result.stderr or "sec value" in result.stderr


def test_unit_runs_unprivileged_with_watchdog_restart_and_device_access() -> None:
    """Issue 9: unprivileged user in gpio/video/render/input/dialout, Restart=, WatchdogSec=
    fed via sd_notify, a writable working directory, hardening that still reaches devices."""
    text = UNIT.read_text()
    service = _unit(text)["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert service["User"] == "companion" and service["User"] != "root"
    assert service["SupplementaryGroups"].split() == ["gpio", "video", "render", "input",
                                                      "dialout"]
    assert service["Restart"] == "always"
    assert int(service["WatchdogSec"]) >= 5
    assert service["WorkingDirectory"] == "/var/lib/" + service["StateDirectory"]
    assert "--kiosk" in service["ExecStart"]
    env = dict(item.split("=", 1) for item in _multi(text, "Environment"))
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["KIVY_WINDOW"] == "sdl2"
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict"
    assert service["DevicePolicy"] == "closed"
    allowed = {entry.split()[0] for entry in _multi(text, "DeviceAllow")}
    for device in ("char-drm", "char-input", "char-gpiochip", "char-video4linux",
                   "char-ttyACM", "/dev/tty1"):
        assert device in allowed, f"{device}: the app must reach it"
    assert service.get("PrivateDevices", "no") == "no", "PrivateDevices would hide /dev/dri"
    assert "MemoryDenyWriteExecute" not in service, "Mesa needs W+X pages for shaders"


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze missing: apt-get install systemd")
def test_installer_lays_out_a_verified_unit_under_a_staging_root(tmp_path: Path) -> None:
    """install.sh --root installs the app tree and the unit, adjusted to --prefix/--user."""
    stage = tmp_path / "stage"
    result = subprocess.run(["bash", str(INSTALL), "--root", str(stage), "--prefix",
                             "/opt/itc", "--user", "tabletop"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    unit = stage / "etc/systemd/system/infinite-companion.service"
    text = unit.read_text()
    assert "ExecStart=/opt/itc/.venv/bin/infinite-companion --kiosk" in text
    assert "User=tabletop" in text and "Group=tabletop" in text
    assert (stage / "opt/itc/companion/app/main.py").is_file()
    assert not (stage / "opt/itc/.venv").exists(), "the venv is built on the Pi, not copied"
    assert "skipped (staging root): systemctl enable --now infinite-companion.service" \
        in result.stderr
    verify = _verify(_as_here(text.replace("/opt/itc/", "/opt/infinite-companion/"), tmp_path))
    assert verify.returncode == 0 and "infinite-companion.service" not in verify.stderr


def test_installer_dry_run_creates_the_user_in_the_device_groups() -> None:
    """install.sh --dry-run prints the user and group commands without running them."""
    booted = {**os.environ, "SYSTEMD_RUN_DIR": str(ROOT)}   # as on a Pi booted with systemd
    result = subprocess.run(["bash", str(INSTALL), "--dry-run", "--user", "nobody-here-x"],
                            capture_output=True, text=True, timeout=60, env=booted)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "+ useradd --system --home-dir /var/lib/infinite-companion" in out
    assert "+ usermod --append --groups gpio,video,render,input,dialout nobody-here-x" in out
    assert "+ systemctl enable --now infinite-companion.service" in out
