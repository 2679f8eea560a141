"""Write ``codec_vectors.json``: the test vectors both CPython and MicroPython check.

Expected results come from how each vector is built (which frames are whole, what garbage
precedes them), from published values (CRC-32 check value, COBS examples from the original
paper / Wikipedia) and from ``zlib.crc32`` (an implementation independent of the codec).

Run: ``.venv/bin/python tests/firmware_bridge/make_vectors.py`` (deterministic, seeded).
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path
from typing import Any

from firmware_bridge import codec

OUT = Path(__file__).with_name("codec_vectors.json")


def body(version: int, type_: int, seq: int, payload: bytes, length: int | None = None,
         crc_delta: int = 0) -> bytes:
    head = bytes((version, type_, seq, len(payload) if length is None else length)) + payload
    return head + ((zlib.crc32(head) ^ crc_delta) & 0xFFFFFFFF).to_bytes(4, "big")


def wire(raw_body: bytes) -> bytes:
    return b"\x00" + codec.cobs_encode(raw_body) + b"\x00"


def frame_json(type_: int, seq: int, payload: bytes) -> list[Any]:
    return [type_, seq, payload.hex()]


def build() -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(8)
    v: dict[str, list[dict[str, Any]]] = {k: [] for k in (
        "crc32", "cobs", "frame", "stream", "reject_encode", "payload")}
    v["crc32"] += [{"data": b"123456789".hex(), "crc": 0xCBF43926}, {"data": "", "crc": 0}]
    for size in (1, 7, 72, 300):
        data = rng.randbytes(size)
        v["crc32"].append({"data": data.hex(), "crc": zlib.crc32(data)})
    ramp = bytes(range(1, 255))
    for raw, encoded in [
        (b"\x00", b"\x01\x01"), (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x00\x11\x00", b"\x01\x02\x11\x01"), (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (ramp, b"\xff" + ramp), (b"\x00" + ramp, b"\x01\xff" + ramp),
        (ramp + b"\xff", b"\xff" + ramp + b"\x02\xff"),
        (bytes(range(2, 256)) + b"\x00", b"\xff" + bytes(range(2, 256)) + b"\x01\x01"),
    ]:
        v["cobs"].append({"raw": raw.hex(), "encoded": encoded.hex()})
    samples = [(codec.HELLO, 0, codec.hello_payload((1, 0, 0), "pico-pn532")),
               (codec.HEARTBEAT, 255, b"\x00\x00\x01\x00\x00"),
               (codec.TAG_PRESENT, 17, b"\x07\x04\x00\xff\x00\x12\x80\x00\x00"),
               (codec.HELLO_REQUEST, 3, b""),
               (codec.ERROR, 9, bytes(64))]
    for type_, seq, payload in samples:
        v["frame"].append({"type": type_, "seq": seq, "payload": payload.hex(),
                           "wire": wire(body(1, type_, seq, payload)).hex()})

    f = wire(body(1, codec.TAG_PRESENT, 1, b"\x04\xde\xad\xbe\xef\x08"))
    fj = frame_json(codec.TAG_PRESENT, 1, b"\x04\xde\xad\xbe\xef\x08")
    g = wire(body(1, codec.TAG_REMOVED, 2, b"\x04\xde\xad\xbe\xef\x08"))
    gj = frame_json(codec.TAG_REMOVED, 2, b"\x04\xde\xad\xbe\xef\x08")
    h = wire(body(1, codec.HEARTBEAT, 3, b"\x00\x00\x00\x00\x00"))
    hj = frame_json(codec.HEARTBEAT, 3, b"\x00\x00\x00\x00\x00")

    def stream(data: bytes, frames: list[list[Any]], counts: list[int] | None) -> None:
        for chunk in (1, 5, 4096):
            v["stream"].append({"data": data.hex(), "chunk": chunk, "frames": frames,
                                "counts": counts})

    stream(f + g + h, [fj, gj, hj], [0, 0, 0])
    stream(b"hello" + f, [fj], [1, 0, 0])                 # 'h' claims a block past the end
    stream(b"A" * 200 + f, [fj], [0, 1, 0])              # longer than any frame
    stream(b"\x00\x00\x00" + f + b"\x00", [fj], [0, 0, 0])
    stream(b"\x03\x04" + f + b"\x03" + g, [fj, gj], [2, 0, 0])   # stray Ctrl-C / Ctrl-D
    stream(wire(body(1, codec.TAG_PRESENT, 1, b"\x04\xde\xad\xbe\xef\x08", crc_delta=1)) + g,
           [gj], [1, 0, 0])
    stream(wire(body(2, codec.TAG_PRESENT, 1, b"\x04\xde\xad\xbe\xef\x08")) + g, [gj], [0, 0, 1])
    stream(wire(body(1, codec.TAG_PRESENT, 1, b"\x04\xde\xad\xbe\xef\x08", length=7)) + g,
           [gj], [1, 0, 0])
    stream(f[:-3] + g, [gj], [1, 0, 0])                  # truncated, then a whole frame
    stream(f[:-1] + f[1:-1] + h, [hj], [1, 0, 0])        # body duplicated inside one segment
    stream(wire(body(1, codec.ERROR, 4, bytes(65), length=65)) + h, [hj], [0, 1, 0])  # 74 > cap
    garbage = rng.randbytes(3000)
    stream(garbage + f + g, [fj, gj], None)

    v["reject_encode"] += [{"type": 1, "seq": 0, "payload": bytes(65).hex()},
                           {"type": 256, "seq": 0, "payload": ""},
                           {"type": 1, "seq": -1, "payload": ""}]
    v["payload"] += [
        {"message": "hello", "args": [[1, 2, 3], "pico-pn532"],
         "payload": (b"\x01\x01\x02\x03" + b"pico-pn532").hex(),
         "parsed": [1, [1, 2, 3], "pico-pn532"]},
        {"message": "heartbeat", "args": [0x01020304, 2], "payload": "0102030402",
         "parsed": [0x01020304, 2]},
        {"message": "tag", "args": ["04a1b2c3d4e5f6", 0], "payload": "0704a1b2c3d4e5f600",
         "parsed": ["04a1b2c3d4e5f6", 0]},
        {"message": "tag", "args": ["deadbeef", 8], "payload": "04deadbeef08",
         "parsed": ["deadbeef", 8]},
        {"message": "error", "args": [1, "no PN532"], "payload": (b"\x01no PN532").hex(),
         "parsed": [1, "no PN532"]},
    ]
    return v


if __name__ == "__main__":
    OUT.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
