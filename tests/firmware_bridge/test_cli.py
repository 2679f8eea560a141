"""``infinite-bridge flash / monitor / pair`` against a Pico on a pty."""

from __future__ import annotations

import argparse
import io
import json
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_bridge import codec
from firmware_bridge.cards import CardMap
from firmware_bridge.cli import cmd_pair, main
from tests.firmware_bridge.pty_pico import PtyPico

NTAG = bytes.fromhex("049A3B725C6180")


@pytest.fixture
def pico(tmp_path: Path) -> PtyPico:
    device = PtyPico(tmp_path / "infinite-nfc")
    device.plug()
    yield device
    device.unplug()


def send_tag_once_connected(pico: PtyPico) -> threading.Thread:
    def run() -> None:
        deadline = time.monotonic() + 5
        while pico.hello_requests == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        pico.send(codec.TAG_PRESENT, codec.tag_payload(NTAG))
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_flash_stops_the_firmware_then_copies_codec_and_firmware_with_mpremote(
        pico: PtyPico, tmp_path: Path) -> None:
    record = tmp_path / "argv.json"
    fake = (f"{sys.executable} -c \"import json, sys; "
            f"open({str(record)!r}, 'w').write(json.dumps(sys.argv[1:]))\"")
    received: list[codec.Frame] = []
    decoder = codec.Decoder()
    pico._stop.set()  # read the line ourselves instead of the hello responder
    pico._thread.join()

    def listen() -> None:
        import os
        import select
        deadline = time.monotonic() + 5
        while not received and time.monotonic() < deadline:
            if select.select([pico._master], [], [], 0.05)[0]:
                received.extend(decoder.feed(os.read(pico._master, 4096)))
    listener = threading.Thread(target=listen)
    listener.start()
    out = io.StringIO()
    status = main(["flash", "--port", str(pico.symlink), "--mpremote", fake], out=out)
    listener.join()
    assert status == 0
    assert received == [codec.Frame(codec.REPL_REQUEST, 0, codec.REPL_MAGIC)]
    argv = json.loads(record.read_text())
    assert argv[:2] == ["connect", str(pico.symlink)]
    copies = [(argv[i + 1].rsplit("/", 1)[-1], argv[i + 2]) for i, word in enumerate(argv)
              if word == "cp"]
    assert copies == [("codec.py", ":codec.py"), ("pn532.py", ":pn532.py"),
                      ("bridge.py", ":bridge.py"), ("main.py", ":main.py")]
    assert argv[-1] == "reset"


def test_flash_without_a_reachable_pico_fails_with_a_clear_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--port", str(tmp_path / "nothing")], out=io.StringIO()) == 1
    assert "nothing: cannot open" in capsys.readouterr().err


def test_monitor_prints_raw_frames_and_decoded_events(pico: PtyPico) -> None:
    send_tag_once_connected(pico)
    out = io.StringIO()
    assert main(["monitor", "--port", str(pico.symlink), "--seconds", "1"], out=out) == 0
    text = out.getvalue()
    assert "link connected" in text
    assert "hello firmware 1.0.0 protocol 1 board pty-pico" in text
    assert f"frame tag-present seq=1 payload=07{NTAG.hex()}00" in text
    assert "tag-present 049A3B725C6180 sak=0x00" in text
    assert text.rstrip().endswith("frames 2, rejected 0, oversize 0, wrong version 0")


def test_pair_learns_an_unknown_tag_and_saves_it(pico: PtyPico, tmp_path: Path) -> None:
    cards_path = tmp_path / "cards.toml"
    send_tag_once_connected(pico)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "goblin-lair"

    args = argparse.Namespace(cards=str(cards_path), game="infinidungeon",
                              port=str(pico.symlink), count=1)
    out = io.StringIO()
    assert cmd_pair(args, out, ask=ask) == 0
    assert prompts == ["tag 049A3B725C6180 is new; which room? "]
    assert "paired 049A3B725C6180 -> goblin-lair" in out.getvalue()
    assert CardMap.load(cards_path).card_for("infinidungeon", "049a3b725c6180") == "goblin-lair"
