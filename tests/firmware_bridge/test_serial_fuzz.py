"""Serial fuzz through a pty pair: random bytes and mutated frames mixed with valid frames.

Issue 8 "Reliability tests": at least 10 MB of random bytes and 100,000 mutated frames (bit
flips, truncation, duplication, oversize, stray 0x00/0x03/0x04) mixed with valid frames: no
exception escapes, every valid frame after garbage is delivered, no corrupted frame is ever
accepted.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge import codec
from firmware_bridge.messages import Hello, LinkStatus, Message, TagPresent
from firmware_bridge.ports import fixed_port
from firmware_bridge.reader import BridgeReader
from tests.firmware_bridge.pty_pico import PtyPico

RANDOM_BYTES = 10 * 1024 * 1024
MUTATED_FRAMES = 100_000


def valid_frame(number: int) -> bytes:
    """A unique valid tag-present frame (its 7-byte UID carries ``number``)."""
    uid = b"\x04" + number.to_bytes(6, "big")
    return codec.encode_frame(codec.TAG_PRESENT, number & 0xFF, codec.tag_payload(uid, 0))


def decoy_frame(number: int) -> bytes:
    """A frame that would be valid, but is only ever sent mutated (UID starts with 0xEE)."""
    uid = b"\xee" + number.to_bytes(6, "big")
    return codec.encode_frame(codec.TAG_PRESENT, number & 0xFF, codec.tag_payload(uid, 0))


def mutate(frame: bytes, rng: random.Random) -> bytes:
    """Damage the encoded body of ``frame`` (between its zero delimiters) in one of six ways."""
    body = bytearray(frame[1:-1])
    how = rng.randrange(6)
    if how == 0:  # bit flips (distinct bits, so they never cancel out)
        for bit in rng.sample(range(len(body) * 8), rng.randint(1, 8)):
            body[bit // 8] ^= 1 << (bit % 8)
        return b"\x00" + bytes(body) + b"\x00"
    if how == 1:  # truncation: the line dies mid-frame, the next frame starts at once
        return b"\x00" + bytes(body[:rng.randrange(1, len(body))])
    if how == 2:  # duplication of a run of bytes inside the body
        start = rng.randrange(len(body))
        end = rng.randrange(start + 1, len(body) + 1)
        body[end:end] = body[start:end]
        return b"\x00" + bytes(body) + b"\x00"
    if how == 3:  # oversize: longer than any frame may be
        extra = bytes(rng.randrange(1, 256) for _ in range(codec.MAX_ENCODED - len(body) + 1
                                                           + rng.randrange(64)))
        return b"\x00" + bytes(body) + extra + b"\x00"
    # stray 0x00 / 0x03 (Ctrl-C) / 0x04 (Ctrl-D) bytes inside the body
    for _ in range(rng.randint(1, 3)):
        body.insert(rng.randrange(1, len(body)), rng.choice((0x00, 0x03, 0x04)))
    return b"\x00" + bytes(body) + b"\x00"


def fuzz_stream(seed: int) -> Iterator[tuple[bytes, int]]:
    """Yield ``(chunk, valid frames in it)``: random bytes then mutated frames, each followed
    by a valid frame."""
    rng = random.Random(seed)
    number = 0
    sent = 0
    while sent < RANDOM_BYTES:
        size = min(rng.randrange(1, 8192), RANDOM_BYTES - sent)
        sent += size
        yield rng.randbytes(size) + valid_frame(number), 1
        number += 1
    batch: list[bytes] = []
    for index in range(MUTATED_FRAMES):
        batch.append(mutate(decoy_frame(index), rng))
        batch.append(valid_frame(number))
        number += 1
        if len(batch) == 200:
            yield b"".join(batch), 100
            batch = []
    if batch:
        yield b"".join(batch), len(batch) // 2


def run_fuzz(symlink: Path, seed: int = 8) -> dict[str, float]:
    """Push the whole fuzz stream through a pty into a BridgeReader; return the figures."""
    frames: list[codec.Frame] = []
    messages: list[Message] = []
    hello = threading.Event()

    def on_message(message: Message) -> None:
        messages.append(message)
        if isinstance(message, Hello):
            hello.set()

    pico = PtyPico(symlink)
    pico.plug()
    reader = BridgeReader(fixed_port(str(symlink)), on_message=on_message,
                          on_frame=frames.append, heartbeat_timeout=60)
    with reader:
        assert hello.wait(5), "the reader never connected to the pty"
        stream = list(fuzz_stream(seed))
        expected = sum(count for _, count in stream)
        written = sum(len(chunk) for chunk, _ in stream)
        started = time.perf_counter()
        for chunk, _ in stream:
            pico.write(chunk)
        deadline = time.monotonic() + 120
        while len(frames) < expected + 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
        time.sleep(0.05)
    pico.unplug()
    tags = [frame for frame in frames if frame.type == codec.TAG_PRESENT]
    assert frames[0].type == codec.HELLO
    assert len(frames) == len(tags) + 1, "only the hello and the valid frames may get through"
    assert tags == [codec.Decoder().feed(valid_frame(n))[0] for n in range(expected)]
    assert [m for m in messages if isinstance(m, LinkStatus) and m.state != "connected"] == []
    assert sum(isinstance(m, TagPresent) for m in messages) == expected
    return {"bytes": written, "seconds": elapsed, "valid": expected,
            "rejected": reader.decoder.rejected, "oversize": reader.decoder.oversize}


@pytest.mark.slow
def test_garbage_and_mutated_frames_never_get_through_and_never_hide_a_valid_frame(
        tmp_path: Path) -> None:
    figures = run_fuzz(tmp_path / "infinite-nfc")
    assert figures["bytes"] > RANDOM_BYTES
    assert figures["rejected"] + figures["oversize"] >= MUTATED_FRAMES


def test_a_frame_split_across_reads_and_one_after_stray_ctrl_c_are_both_delivered(
        tmp_path: Path) -> None:
    symlink = tmp_path / "infinite-nfc"
    pico = PtyPico(symlink)
    pico.plug()
    got: list[Message] = []
    with BridgeReader(fixed_port(str(symlink)), on_message=got.append):
        deadline = time.monotonic() + 5
        while not any(isinstance(m, Hello) for m in got) and time.monotonic() < deadline:
            time.sleep(0.01)
        wire = valid_frame(1)
        pico.write(wire[:5])
        time.sleep(0.1)
        pico.write(wire[5:] + b"\x03\x03\x04" + valid_frame(2))
        while sum(isinstance(m, TagPresent) for m in got) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    pico.unplug()
    assert [m.uid for m in got if isinstance(m, TagPresent)] == ["04000000000001",
                                                                  "04000000000002"]
