"""The frame codec: the same vectors on CPython and on real MicroPython, plus properties."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import codec
from tests.firmware_bridge import vector_check
from tests.firmware_bridge.mp_node import run_micropython

HERE = Path(__file__).parent
VECTORS = json.loads((HERE / "codec_vectors.json").read_text())
RESULTS = vector_check.check(codec, VECTORS)
CODEC_SOURCE = Path(codec.__file__)


@pytest.mark.parametrize(("name", "failure"), RESULTS, ids=[name for name, _ in RESULTS])
def test_cpython_passes_every_shared_vector(name: str, failure: str) -> None:
    assert failure == ""


@pytest.mark.micropython
def test_micropython_passes_the_same_vectors_with_the_unchanged_codec() -> None:
    lines = run_micropython(HERE / "mp_codec_main.py", CODEC_SOURCE, HERE / "vector_check.py",
                            HERE / "codec_vectors.json")
    assert lines[0] == "IMPLEMENTATION micropython"
    assert [line for line in lines if line.startswith("FAIL")] == []
    assert lines[-1] == f"SUMMARY {len(RESULTS)} 0"
    passed = sorted(line.split()[1] for line in lines if line.startswith("PASS"))
    assert passed == sorted(name for name, _ in RESULTS)


def test_wire_format_matches_the_documented_layout() -> None:
    """docs/nfc-bridge.md "Frames": 0x00, COBS(version type seq length payload crc32), 0x00."""
    wire = codec.encode_frame(codec.TAG_PRESENT, 42, b"\x04\x01\x02\x03\x04\x08")
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    body = codec.cobs_decode(wire[1:-1])
    assert body[:4] == bytes((codec.PROTOCOL_VERSION, codec.TAG_PRESENT, 42, 6))
    assert body[4:10] == b"\x04\x01\x02\x03\x04\x08"
    assert int.from_bytes(body[10:], "big") == zlib.crc32(body[:10])


@settings(max_examples=300, deadline=None)
@given(type_=st.integers(0, 255), seq=st.integers(0, 255),
       payload=st.binary(max_size=codec.MAX_PAYLOAD), split=st.integers(0, 80))
def test_any_frame_round_trips_whatever_the_read_boundaries(type_: int, seq: int,
                                                            payload: bytes, split: int) -> None:
    wire = codec.encode_frame(type_, seq, payload)
    assert len(wire) - 2 <= codec.MAX_ENCODED
    decoder = codec.Decoder()
    frames = decoder.feed(wire[:split]) + decoder.feed(wire[split:])
    assert frames == [codec.Frame(type_, seq, payload)]


@settings(max_examples=300, deadline=None)
@given(garbage=st.binary(max_size=600), payload=st.binary(max_size=codec.MAX_PAYLOAD))
def test_garbage_never_raises_and_the_next_frame_gets_through(garbage: bytes,
                                                              payload: bytes) -> None:
    decoder = codec.Decoder()
    decoder.feed(garbage)
    frames = decoder.feed(codec.encode_frame(codec.ERROR, 1, payload))
    assert frames[-1] == codec.Frame(codec.ERROR, 1, payload)


def test_oversize_payload_is_refused_with_its_size() -> None:
    with pytest.raises(codec.CodecError, match="65 bytes exceeds the cap of 64"):
        codec.encode_frame(codec.ERROR, 0, bytes(65))


@pytest.mark.parametrize("payload", [b"", b"\x05\x01\x02\x03\x04\x05\x00",
                                     b"\x04\x01\x02\x03\x04", b"\x07\x01\x02\x03\x04\x05\x06"])
def test_malformed_tag_payloads_are_refused(payload: bytes) -> None:
    with pytest.raises(codec.CodecError, match="UID length"):
        codec.parse_tag(payload)


def test_short_hello_and_heartbeat_payloads_are_refused() -> None:
    with pytest.raises(codec.CodecError, match="at least 4 bytes"):
        codec.parse_hello(b"\x01\x01")
    with pytest.raises(codec.CodecError, match="must be 5 bytes"):
        codec.parse_heartbeat(b"\x00")
