"""``infinite-bridge flash`` never fights the kiosk for the serial port (issue 14, "Flashing").

The holder of a port is found through /proc for real (a child process holding a pty); the
kiosk is recognised by its systemd control group, which a fake /proc tree stands in for.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import cli
from firmware_bridge.port_holders import KIOSK_SERVICE, port_holders, service_of


@pytest.fixture
def held_pty() -> tuple[str, subprocess.Popen[bytes]]:
    master, slave = os.openpty()
    device = os.ttyname(slave)
    os.close(slave)
    holder = subprocess.Popen([sys.executable, "-c",
                               f"import time; f = open({device!r}, 'rb', buffering=0); "
                               "print('open', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdout.readline() == b"open\n"
    yield device, holder
    holder.kill()
    holder.wait()
    os.close(master)


def test_a_process_holding_the_port_is_found_and_flashing_is_refused_naming_it(
        held_pty: tuple[str, subprocess.Popen[bytes]],
        capsys: pytest.CaptureFixture[str]) -> None:
    device, holder = held_pty
    holders = port_holders(device)
    assert [h.pid for h in holders] == [holder.pid]
    assert "python" in holders[0].command
    status = cli.main(["flash", "--port", device, "--dry-run"], out=io.StringIO())
    assert status == 1
    err = capsys.readouterr().err
    assert f"{device} is held open by pid {holder.pid}" in err


def _fake_kiosk_proc(tmp_path: Path, device: Path) -> Path:
    proc = tmp_path / "proc"
    (proc / "812" / "fd").mkdir(parents=True)
    (proc / "812" / "fd" / "7").symlink_to(device)
    (proc / "812" / "cgroup").write_text(f"0::/system.slice/{KIOSK_SERVICE}\n")
    (proc / "812" / "cmdline").write_bytes(b"/opt/infinite-companion/.venv/bin/python3\0"
                                           b"infinite-companion\0--kiosk\0")
    return proc


def test_the_kiosk_is_recognised_by_its_service(tmp_path: Path) -> None:
    device = tmp_path / "ttyACM0"
    device.touch()
    proc = _fake_kiosk_proc(tmp_path, device)
    assert service_of(812, proc) == KIOSK_SERVICE
    (holder,) = port_holders(str(device), proc)
    assert holder.describe() == (f"{KIOSK_SERVICE} (pid 812: python3 infinite-companion "
                                 "--kiosk)")


def test_flash_refuses_while_the_kiosk_holds_the_port_and_says_how(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    device = tmp_path / "ttyACM0"
    device.touch()
    proc = _fake_kiosk_proc(tmp_path, device)
    monkeypatch.setattr(cli, "port_holders", lambda dev: port_holders(dev, proc))
    assert cli.main(["flash", "--port", str(device), "--dry-run"], out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert f"held by the kiosk, {KIOSK_SERVICE} (pid 812" in err
    assert f"sudo systemctl stop {KIOSK_SERVICE}" in err and "--stop-kiosk" in err


def test_stop_kiosk_stops_the_service_flashes_and_starts_it_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    device = tmp_path / "ttyACM0"
    device.touch()
    proc = _fake_kiosk_proc(tmp_path, device)
    monkeypatch.setattr(cli, "port_holders", lambda dev: port_holders(dev, proc))
    calls = tmp_path / "calls"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    systemctl = bin_dir / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "systemctl $*" >> {calls}\n')
    systemctl.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setattr(cli, "_flash", lambda args, dev, out: subprocess.run(
        [sys.executable, "-c", f"open({str(calls)!r}, 'a').write('mpremote\\n')"]).returncode)
    out = io.StringIO()
    status = cli.main(["flash", "--port", str(device), "--stop-kiosk"], out=out)
    assert status == 0
    assert calls.read_text().splitlines() == [f"systemctl stop {KIOSK_SERVICE}", "mpremote",
                                              f"systemctl start {KIOSK_SERVICE}"]
    assert f"starting {KIOSK_SERVICE} again" in out.getvalue()
