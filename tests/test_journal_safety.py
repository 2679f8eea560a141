"""Nothing recorded is ever lost, and nothing already on disk is ever overwritten (issue 14).

DESIGN.md "Session, journal, outputs": every accepted action is fsynced before any output
shows it. Issue 14, "Journal: data loss and unresumable games": an existing non-journal (or a
CRLF-converted journal) is refused, never truncated; a second writer is refused naming the
holder's pid; a failed write (disk full) is cut back to the last good record and the players
are told "not recorded: disk full"; a hand-edited journal gives "FILE: line N: what is wrong"
and is left untouched; resuming on a full disk or a read-only file system is a clear error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from companion.journal import (
    Journal,
    JournalCorrupt,
    JournalError,
    JournalExists,
    JournalInvalid,
    JournalLocked,
    encode_record,
    read_journal,
)
from companion.session import NOT_RECORDED, Session
from tests.support import countdown
from tests.support.small_disk import fill, mounted, remount_read_only

ROOT = Path(__file__).resolve().parents[1]
BIG_PILE = {"setup": ("countdown.toml", "pile = 1000000\n")}


def _play(session: Session, turns: int) -> None:
    for turn in range(turns):
        assert session.propose(f"roll {turn % 6 + 1}").legal
        assert session.propose(f"take {'Ann' if turn % 2 == 0 else 'Bea'} 1").legal


def _journal(path: Path, turns: int = 3) -> bytes:
    with Session.new(countdown.GAME, countdown.SETUP, seed=5, journal_path=path) as session:
        _play(session, turns)
        assert not session.propose("take Ann 6").legal  # a refusal is recorded too
    return path.read_bytes()


def _lines(data: bytes) -> list[dict[str, object]]:
    return [json.loads(line.rpartition(b"\t")[0]) for line in data.splitlines()]


def _rewrite(records: list[dict[str, object]]) -> bytes:
    """A journal whose every line has a valid checksum: only a hand edit makes these."""
    return b"".join(encode_record(record) for record in records)


# -- never overwrite ------------------------------------------------------------------------
@pytest.mark.parametrize(("content", "said"), [
    (b"shopping list: eggs, flour\n", "text that is not a journal"),
    (bytes(range(256)) * 4, "binary data"),
    (b"x", "text that is not a journal"),
])
def test_an_existing_file_that_is_not_a_journal_is_never_overwritten(
        tmp_path: Path, content: bytes, said: str) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    with pytest.raises(JournalExists) as refused:
        Session.new(countdown.GAME, countdown.SETUP, seed=1, journal_path=path)
    assert str(path) in str(refused.value) and said in str(refused.value)
    assert path.read_bytes() == content


def test_a_crlf_converted_journal_is_refused_not_restarted(tmp_path: Path,
                                                           countdown_registered: None) -> None:
    path = tmp_path / "game.journal"
    converted = _journal(path).replace(b"\n", b"\r\n")
    path.write_bytes(converted)
    with pytest.raises(JournalExists, match="converted to CRLF"):
        Journal.create(path, {"game": "countdown"})
    with pytest.raises(JournalCorrupt, match=r"line 1: the line endings were converted to CRLF"):
        Session.resume(path)
    assert path.read_bytes() == converted
    assert not Path(f"{path}.torn").exists()


def test_an_existing_empty_file_becomes_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    path.touch()
    with Session.new(countdown.GAME, countdown.SETUP, seed=1, journal_path=path) as session:
        _play(session, 1)
    assert len(read_journal(path).records) == 2


# -- one writer ----------------------------------------------------------------------------
def test_a_second_writer_is_refused_naming_the_holder(tmp_path: Path,
                                                      countdown_registered: None) -> None:
    path = tmp_path / "game.journal"
    before = _journal(path)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from companion.journal import Journal; j = Journal.open(sys.argv[1]); "
         "print('open', flush=True); sys.stdin.read()", str(path)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(JournalLocked) as refused:
            Session.resume(path)
        assert f"process {holder.pid} is already writing" in str(refused.value)
        assert str(path) in str(refused.value)
    finally:
        holder.communicate("")
    assert path.read_bytes() == before
    with Session.resume(path) as session:  # the lock went with the holder
        assert len(session.record) == 6


def test_the_same_process_cannot_open_a_journal_twice(tmp_path: Path,
                                                       countdown_registered: None) -> None:
    path = tmp_path / "game.journal"
    with Session.new(countdown.GAME, countdown.SETUP, seed=1, journal_path=path) as first:
        _play(first, 1)
        with pytest.raises(JournalLocked, match="already writing"):
            Session.resume(path)
        assert first.propose("roll 2").legal
    assert len(read_journal(path).records) == 3


# -- record numbers --------------------------------------------------------------------------
def test_every_record_is_numbered_without_gaps(tmp_path: Path, countdown_registered: None) -> None:
    path = tmp_path / "game.journal"
    with Session.new(countdown.GAME, countdown.SETUP, seed=1, journal_path=path) as session:
        session.propose("roll 4")
        session.propose("take Ann 5")  # refused
        session.propose("take Ann 2")
        session.undo()
        session.propose("take Ann 3")
    records = read_journal(path).records
    assert [r["seq"] for r in records] == [1, 2, 3, 4, 5]
    assert [r["type"] for r in records] == ["action", "refused", "action", "undo", "action"]
    with Session.resume(path) as resumed:
        assert resumed.history == ["roll 4", "take Ann 3"]
        resumed.propose("roll 1")
    assert read_journal(path).records[-1]["seq"] == 6


def test_a_version_1_journal_without_record_numbers_still_resumes(
        tmp_path: Path, countdown_registered: None) -> None:
    path = tmp_path / "game.journal"
    records = _lines(_journal(path))
    records[0]["format"] = 1
    for record in records[1:]:
        record.pop("seq")
    path.write_bytes(_rewrite(records))
    with Session.resume(path) as session:
        assert len(session.record) == 6
        session.propose("roll 2")
    assert "seq" not in read_journal(path).records[-1]


# -- hand edits ------------------------------------------------------------------------------
def _edit_delete_action(records: list[dict[str, object]]) -> None:
    del records[3]


def _edit_swap(records: list[dict[str, object]]) -> None:
    records[2], records[3] = records[3], records[2]


def _edit_repeat(records: list[dict[str, object]]) -> None:
    records.insert(3, dict(records[2]))


def _edit_renumbered_delete(records: list[dict[str, object]]) -> None:
    del records[2]  # take Ann 1, then the numbers made to run on again
    for seq, record in enumerate(records[1:], start=1):
        record["seq"] = seq


def _edit_illegal(records: list[dict[str, object]]) -> None:
    records[2]["action"] = "take Ann 6"


def _edit_unreadable(records: list[dict[str, object]]) -> None:
    records[2]["action"] = "dance wildly"


def _edit_no_action(records: list[dict[str, object]]) -> None:
    records[2].pop("action")


def _edit_unknown_type(records: list[dict[str, object]]) -> None:
    records[2]["type"] = "teleport"


def _edit_game(records: list[dict[str, object]]) -> None:
    records[0]["game"] = "chess"


def _edit_no_seed(records: list[dict[str, object]]) -> None:
    records[0].pop("seed")


def _edit_bad_seed(records: list[dict[str, object]]) -> None:
    records[0]["seed"] = "seven"


def _edit_no_sources(records: list[dict[str, object]]) -> None:
    records[0].pop("sources")


def _edit_bad_setup(records: list[dict[str, object]]) -> None:
    records[0]["sources"] = {"setup": ["countdown.toml", "pile = 'lots'\n"]}


def _edit_undo_nothing(records: list[dict[str, object]]) -> None:
    records[1:1] = [{"type": "undo", "n": 0, "seq": 1}]
    for seq, record in enumerate(records[1:], start=1):
        record["seq"] = seq


@pytest.mark.parametrize(("edit", "line", "problem"), [
    (_edit_delete_action, 4, "record number 4 where 3 was expected"),
    (_edit_swap, 3, "record number 3 where 2 was expected"),
    (_edit_repeat, 4, "record number 2 where 3 was expected"),
    (_edit_renumbered_delete, 3, "action number 3 where 2 was expected"),
    (_edit_illegal, 3, "'take Ann 6' is not legal at this point of the game"),
    (_edit_unreadable, 3, "'dance wildly' is not an action of countdown"),
    (_edit_no_action, 3, "the action record has no action"),
    (_edit_unknown_type, 3, "unknown record type 'teleport'"),
    (_edit_game, 1, "unknown game 'chess'"),
    (_edit_no_seed, 1, "the seed of the virtual dice is missing"),
    (_edit_bad_seed, 1, "the seed must be a whole number, got 'seven'"),
    (_edit_no_sources, 1, "the setup sources are missing"),
    (_edit_bad_setup, 1, "the recorded setup cannot be used"),
    (_edit_undo_nothing, 2, "an undo with no action before it"),
])
def test_a_hand_edited_journal_names_the_line_and_is_left_untouched(
        tmp_path: Path, countdown_registered: None, edit: object, line: int,
        problem: str) -> None:
    path = tmp_path / "game.journal"
    records = _lines(_journal(path))
    edit(records)  # type: ignore[operator]
    edited = _rewrite(records) + b'{"type":"act'  # a torn tail too: it must stay in place
    path.write_bytes(edited)
    with pytest.raises(JournalInvalid) as refused:
        Session.resume(path)
    assert str(refused.value).startswith(f"{path}: line {line}: ")
    assert problem in str(refused.value)
    assert path.read_bytes() == edited
    assert not Path(f"{path}.torn").exists()
    with Journal.open(path, repair=False):  # and the lock was released
        pass


def test_a_line_with_a_bad_checksum_in_the_middle_is_still_corrupt(
        tmp_path: Path, countdown_registered: None) -> None:
    path = tmp_path / "game.journal"
    data = bytearray(_journal(path))
    second = data.find(b"\n") + 1
    payload_end = data.find(b"\t", second)
    data[payload_end - 3] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match="line 2 is damaged"):
        Session.resume(path)
    assert zlib.crc32(bytes(data)) == zlib.crc32(path.read_bytes())


# -- disk full --------------------------------------------------------------------------------
def test_disk_full_is_cut_back_told_to_the_players_and_the_game_goes_on(
        countdown_registered: None) -> None:
    """A real 64 KiB tmpfs filled up: the action that does not fit is not applied, the
    players see "not recorded: disk full", the journal stays resumable, and once there is
    room again the same action is accepted."""
    with mounted(64) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        path = disk / "game.journal"
        session = Session.new(countdown.GAME, BIG_PILE, seed=2, journal_path=path)
        seen: list[str] = []
        session.bus.subscribe(lambda event: seen.append(str(event.data.get("code", ""))))
        filler = fill(disk)
        verdict = None
        for turn in range(400):
            verdict = session.propose(f"roll {turn % 6 + 1}")
            if not verdict.legal:
                break
            verdict = session.propose(f"take {'Ann' if turn % 2 == 0 else 'Bea'} 1")
            if not verdict.legal:
                break
        assert verdict is not None and not verdict.legal, "the disk never filled"
        assert verdict.code == NOT_RECORDED and verdict.reason.startswith("not recorded: disk full")
        assert seen[-1] == NOT_RECORDED, "the outputs were told (refusal buzzer)"
        accepted = session.history
        assert read_journal(path).torn is None, "the failed write was cut back"
        assert [r["action"] for r in read_journal(path).records] == accepted
        filler.unlink()
        again = session.propose(verdict.action)
        assert again.legal, "the game stays usable once there is room"
        session.close()
        with Session.resume(path) as resumed:
            assert resumed.history == [*accepted, verdict.action]


def test_a_refusal_that_cannot_be_recorded_still_stands(countdown_registered: None) -> None:
    with mounted(64) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        path = disk / "game.journal"
        with Session.new(countdown.GAME, BIG_PILE, seed=2, journal_path=path) as session:
            session.propose("roll 1")
            fill(disk)
            for _ in range(200):
                verdict = session.propose("take Ann 6")
                assert not verdict.legal and verdict.code != NOT_RECORDED, "a refusal stands"
                if verdict.notes.get(NOT_RECORDED):
                    break
            assert verdict.notes[NOT_RECORDED] == "disk full"
            assert read_journal(path).torn is None


def test_a_journal_cannot_be_started_on_a_full_disk_and_leaves_no_file() -> None:
    with mounted(16) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        fill(disk)
        path = disk / "game.journal"
        big = {"setup": ("countdown.toml", "pile = 30\n" + "#" * 20000 + "\n")}
        with pytest.raises(JournalError, match="not recorded: disk full; no game was started"):
            Session.new(countdown.GAME, big, seed=1, journal_path=path)
        assert not path.exists()


def test_resuming_on_a_full_disk_with_a_torn_tail_is_a_clear_error(
        countdown_registered: None) -> None:
    with mounted(64) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        path = disk / "game.journal"
        damaged = _journal(path) + b'{"type":"action","n":7,"act'
        path.write_bytes(damaged)
        fill(disk)
        with pytest.raises(JournalError,
                           match=r"cannot set the damaged last .*\(disk full\); the journal"):
            Session.resume(path)
        assert path.read_bytes() == damaged


def test_resuming_on_a_read_only_file_system_is_a_clear_error(
        countdown_registered: None) -> None:
    with mounted(64) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        path = disk / "game.journal"
        intact = _journal(path)
        if not remount_read_only(disk):
            pytest.skip("cannot remount read-only")
        with pytest.raises(JournalError, match="read-only file system"):
            Session.resume(path)
        assert path.read_bytes() == intact


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through directory permissions")
def test_resuming_in_a_directory_without_write_permission_is_a_clear_error(
        tmp_path: Path, countdown_registered: None) -> None:
    path = tmp_path / "game.journal"
    damaged = _journal(path) + b"torn"
    path.write_bytes(damaged)
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(JournalError, match="permission denied"):
            Session.resume(path)
    finally:
        tmp_path.chmod(0o755)
    assert path.read_bytes() == damaged
