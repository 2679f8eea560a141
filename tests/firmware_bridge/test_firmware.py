"""The Pico firmware's main loop against a PN532 simulated at the I2C bus level.

The same scenarios (firmware_scenarios.py) run on CPython and under the real MicroPython
(WebAssembly build); see docs/nfc-bridge.md "Firmware" for the behaviour they pin down:
hello, heartbeat, 4/7/10-byte UIDs, debouncing, incomplete cascades refused, reader errors,
host requests and the guarded REPL.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge import codec
from firmware_bridge.firmware import FILES
from firmware_bridge.firmware.bridge import Bridge, serve
from firmware_bridge.firmware.pn532 import (
    PN532,
    PN532Error,
    build_frame,
    parse_frame,
    uid_from_target,
)
from tests.firmware_bridge import firmware_scenarios
from tests.firmware_bridge.fake_pn532 import FakePN532Bus
from tests.firmware_bridge.mp_node import run_micropython

HERE = Path(__file__).parent
FIRMWARE = Path(codec.__file__).parent / "firmware"
ENV = {"codec": codec, "Bridge": Bridge, "serve": serve, "PN532": PN532,
       "PN532Error": PN532Error, "FakePN532Bus": FakePN532Bus}
RESULTS = firmware_scenarios.run_all(ENV)


@pytest.mark.parametrize(("name", "failure"), RESULTS, ids=[name for name, _ in RESULTS])
def test_firmware_scenario_on_cpython(name: str, failure: str) -> None:
    assert failure == ""


@pytest.mark.micropython
def test_the_same_firmware_scenarios_pass_under_real_micropython() -> None:
    lines = run_micropython(
        HERE / "mp_firmware_main.py", Path(codec.__file__), FIRMWARE / "bridge.py",
        FIRMWARE / "pn532.py", HERE / "fake_pn532.py", HERE / "firmware_scenarios.py",
        FIRMWARE / "main.py")
    assert lines[0] == "IMPLEMENTATION micropython"
    assert [line for line in lines if line.startswith("FAIL")] == []
    assert sorted(line.split()[1] for line in lines if line.startswith("PASS")) == sorted(
        name for name, _ in RESULTS)
    assert lines[-2:] == ["SUMMARY 0", "COMPILED main.py"]


def test_pn532_frames_follow_the_user_manual_layout() -> None:
    """PN532 User Manual 6.2.1.1: 00 00 FF LEN LCS TFI DATA DCS 00 (GetFirmwareVersion)."""
    assert build_frame(b"\xd4\x02") == bytes.fromhex("0000ff02fed4022a00")
    assert parse_frame(bytes.fromhex("0000ff06fad50332010607e800")) == bytes.fromhex(
        "d50332010607")
    with pytest.raises(PN532Error, match="bad data checksum"):
        parse_frame(bytes.fromhex("0000ff06fad50332010607e900"))
    with pytest.raises(PN532Error, match="bad length checksum"):
        parse_frame(bytes.fromhex("0000ff06fbd50332010607e800"))


@pytest.mark.parametrize(("answer", "expected"), [
    ("00", None),
    ("0101004408" + "04" + "deadbeef", (bytes.fromhex("deadbeef"), 8)),
    ("0101004400" + "07" + "049a3b725c6180", (bytes.fromhex("049a3b725c6180"), 0)),
])
def test_target_answers_give_the_whole_uid(answer: str, expected: object) -> None:
    assert uid_from_target(bytes.fromhex(answer)) == expected


@pytest.mark.parametrize(("answer", "problem"), [
    ("0101004404" + "04" + "889a3b72", "incomplete cascade"),   # CT first: level 1 only
    ("0101004424" + "07" + "049a3b725c6180", "incomplete cascade"),  # SAK bit 3 set
    ("0101004400" + "05" + "049a3b725c", "UID of 5 bytes"),
    ("0101004400" + "07" + "049a3b", "UID of 7 bytes"),
])
def test_incomplete_or_impossible_uids_are_refused(answer: str, problem: str) -> None:
    """ISO/IEC 14443-3 anticollision: cascade tag 0x88 and SAK bit 3 mean the UID goes on."""
    with pytest.raises(PN532Error, match=problem):
        uid_from_target(bytes.fromhex(answer))


def test_the_firmware_files_to_flash_exist_and_main_guards_the_repl() -> None:
    for name in FILES:
        assert (Path(codec.__file__).parent / name).is_file() or (FIRMWARE / name).is_file()
    main = (FIRMWARE / "main.py").read_text()
    assert "micropython.kbd_intr" in main and "serve(" in main
