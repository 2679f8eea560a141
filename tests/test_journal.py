"""The journal: durable, append-only, and safe against a power cut at any byte.

DESIGN.md "Session, journal, outputs": every accepted action is appended and fsynced before
any output shows it; a torn last line is detected and dropped, never corrupting what came
before; nothing already recorded is ever lost or changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.journal import (
    Journal,
    JournalCorrupt,
    JournalError,
    JournalExists,
    decode_record,
    encode_record,
    read_journal,
)

ACTIONS = [f"take Ann {i % 3 + 1}" for i in range(6)]


def _write(path: Path, count: int = len(ACTIONS)) -> bytes:
    with Journal.create(path, {"game": "countdown", "seed": 7}) as journal:
        for n, action in enumerate(ACTIONS[:count], start=1):
            journal.append({"type": "action", "n": n, "action": action})
    return path.read_bytes()


def test_records_round_trip_with_their_crc() -> None:
    record = {"type": "action", "n": 3, "action": "move Ben W1 Y1", "note": "пешка"}
    line = encode_record(record)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode_record(line[:-1]) == record


def test_a_flipped_bit_is_detected() -> None:
    line = bytearray(encode_record({"type": "action", "action": "remove Ben R2"})[:-1])
    line[10] ^= 0x01
    assert decode_record(bytes(line)) is None


def test_a_journal_reads_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    _write(path)
    contents = read_journal(path)
    assert contents.header is not None and contents.header["game"] == "countdown"
    assert [r["action"] for r in contents.records] == ACTIONS
    assert contents.torn is None


def test_creating_over_an_existing_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    before = _write(path)
    with pytest.raises(JournalExists, match="resume it"):
        Journal.create(path, {"game": "countdown"})
    assert path.read_bytes() == before


def _last_record_offset(data: bytes) -> int:
    return data.rstrip(b"\n").rfind(b"\n") + 1


@pytest.mark.parametrize("damage", ["truncate", "corrupt"])
def test_damage_at_every_byte_of_the_last_record_loses_only_that_record(
        tmp_path: Path, damage: str) -> None:
    """A power cut can leave the last line short or garbled at any byte: every resume works,
    every earlier record survives unchanged, and the damaged bytes are set aside."""
    path = tmp_path / "game.journal"
    intact = _write(path)
    start = _last_record_offset(intact)
    for offset in range(start, len(intact)):
        if damage == "truncate":
            damaged = intact[:offset]
        else:
            damaged = intact[:offset] + bytes([intact[offset] ^ 0x5A]) + intact[offset + 1:]
        path.write_bytes(damaged)
        Path(f"{path}.torn").unlink(missing_ok=True)
        with Journal.open(path) as journal:
            actions = [r["action"] for r in journal.records]
            if damage == "truncate" and offset == start:
                assert journal.torn is None  # cut exactly between records: nothing torn
            else:
                assert journal.torn is not None, f"damage at offset {offset} went unnoticed"
                assert journal.torn.offset == start
            assert actions == ACTIONS[:-1]
            journal.append({"type": "action", "n": 6, "action": "take Ann 1"})
        assert path.read_bytes() == intact[:start] + encode_record(
            {"type": "action", "n": 6, "action": "take Ann 1"})
        if offset > start or damage == "corrupt":
            assert Path(f"{path}.torn").read_bytes() == damaged[start:]


def test_a_damaged_line_before_intact_ones_is_reported_not_guessed(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    intact = _write(path)
    second_line = intact.find(b"\n") + 1
    damaged = bytearray(intact)
    damaged[second_line + 5] ^= 0x20
    path.write_bytes(bytes(damaged))
    with pytest.raises(JournalCorrupt, match="line 2 is damaged"):
        Journal.open(path)
    assert path.read_bytes() == bytes(damaged), "a corrupt journal must be left untouched"


def test_a_journal_without_its_header_has_no_game(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    path.write_bytes(encode_record({"type": "header", "game": "x"})[:7])
    with pytest.raises(JournalError, match="no intact header"):
        Journal.open(path)


def test_close_is_idempotent_and_appending_after_close_fails(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "g.journal", {"game": "countdown"})
    journal.close()
    journal.close()
    assert journal.closed
    with pytest.raises(JournalError, match="closed"):
        journal.append({"type": "action", "action": "roll 3"})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8)


@given(st.dictionaries(st.text(), json_values, max_size=5))
def test_any_json_record_round_trips(record: dict[str, object]) -> None:
    assert decode_record(encode_record(record)[:-1]) == record


@settings(max_examples=200, deadline=None)
@given(garbage=st.binary(min_size=1, max_size=200))
def test_any_garbage_after_the_last_record_is_set_aside(tmp_path_factory: pytest.TempPathFactory,
                                                         garbage: bytes) -> None:
    """Whatever bytes a dying writer or a bad card left at the end, the game before them
    resumes intact."""
    path = tmp_path_factory.mktemp("garbage") / "game.journal"
    intact = _write(path)
    path.write_bytes(intact + garbage)
    with Journal.open(path) as journal:
        assert [r["action"] for r in journal.records] == ACTIONS
        assert journal.torn is not None and journal.torn.size == len(garbage)
    assert path.read_bytes() == intact
