"""The host reader's edges: finding the Pico, odd firmware, failing callbacks."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from types import SimpleNamespace

from firmware_bridge import codec
from firmware_bridge.messages import BridgeError, Hello, LinkStatus, Message, TagPresent
from firmware_bridge.ports import find_port, fixed_port
from firmware_bridge.reader import BridgeReader
from tests.firmware_bridge.pty_pico import PtyPico


def ports(*specs: tuple[str, int | None, int | None]) -> list[SimpleNamespace]:
    return [SimpleNamespace(device=d, vid=v, pid=p) for d, v, p in specs]


def test_the_pico_is_found_by_udev_symlink_first_then_by_vid_pid(tmp_path: Path) -> None:
    listing = ports(("/dev/ttyUSB0", 0x0403, 0x6001), ("/dev/ttyACM1", 0x2E8A, 0x0005))
    assert find_port(str(tmp_path / "none"), comports=lambda: listing) == "/dev/ttyACM1"
    link = tmp_path / "infinite-nfc"
    link.symlink_to("/dev/null")
    assert find_port(str(link), comports=lambda: listing) == str(link)
    assert find_port(str(tmp_path / "none"), comports=lambda: listing[:1]) is None


def collect_until(inbox: queue.Queue[Message], wanted: type, seconds: float = 3) -> list[Message]:
    got: list[Message] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = inbox.get(timeout=0.05)
        except queue.Empty:
            continue
        got.append(message)
        if isinstance(message, wanted):
            break
    return got


def test_firmware_speaking_another_protocol_is_reported_incompatible(tmp_path: Path) -> None:
    pico = PtyPico(tmp_path / "link")
    pico.plug()
    inbox: queue.Queue[Message] = queue.Queue()
    with BridgeReader(fixed_port(str(pico.symlink)), on_message=inbox.put):
        collect_until(inbox, Hello)
        body = bytes((2, codec.HELLO, 0, 4)) + b"\x02\x02\x00\x00"
        body += codec.crc32(body).to_bytes(4, "big")
        pico.write(b"\x00" + codec.cobs_encode(body) + b"\x00")
        statuses = [m for m in collect_until(inbox, LinkStatus) if isinstance(m, LinkStatus)]
    pico.unplug()
    assert statuses[-1].state == "incompatible"
    assert statuses[-1].detail == ("firmware speaks protocol 2, this host 1: flash matching "
                                   "firmware")


def test_a_failing_callback_or_a_bad_payload_never_stops_the_reader(tmp_path: Path) -> None:
    pico = PtyPico(tmp_path / "link")
    pico.plug()
    inbox: queue.Queue[Message] = queue.Queue()
    calls = 0

    def fragile(message: Message) -> None:
        nonlocal calls
        calls += 1
        if calls <= 2:  # the connected status and the hello blow up
            raise RuntimeError("UI not ready")
        inbox.put(message)

    with BridgeReader(fixed_port(str(pico.symlink)), on_message=fragile) as reader:
        deadline = time.monotonic() + 3
        while pico.hello_requests == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)
        pico.send(codec.TAG_PRESENT, b"\x05\x01\x02\x03\x04\x05\x00")  # UID length 5
        pico.send(codec.ERROR, codec.error_payload(codec.ERR_READER_NOT_FOUND, "no PN532"))
        pico.send(codec.TAG_PRESENT, codec.tag_payload(b"\x01\x02\x03\x04", 8))
        got = collect_until(inbox, TagPresent)
        bad = reader.bad_payloads
    pico.unplug()
    assert got == [BridgeError(codec.ERR_READER_NOT_FOUND, "no PN532"),
                   TagPresent("01020304", 8)]
    assert got[0].code_name == "reader-not-found"  # type: ignore[union-attr]
    assert bad == 1


def test_close_is_idempotent_and_a_closed_reader_stays_closed() -> None:
    reader = BridgeReader(port_finder=lambda: None, retry_interval=0.01).start()
    reader.close()
    reader.close()
    assert reader.closed and not reader.connected
    reader.start()
    assert reader._thread is None
