"""The referee command and its journal, run as players run it (a separate process).

Issue 14, "Journal: data loss and unresumable games" and "Bad input": an existing file that is
not a journal is refused with exit 2 naming what it holds; a second referee on the same
journal is refused naming the first one's pid; when the journal cannot grow (file size limit,
as on a full disk) the action is reported "NOT RECORDED", the game goes on and resumes with
exactly what was printed as accepted (exit 3); a hand-edited journal gives
"FILE: line N: ..." with exit 2; standard input that is not UTF-8 names the line, and a
10 MB line is never echoed in full.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal import encode_record, read_journal

ROOT = Path(__file__).resolve().parents[2]
OPENING = "start Ben W1\nstart Ann W4\n"


def _referee(*args: str, stdin: bytes = b"", limit: int | None = None,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    def limit_file_size() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "companion.cli.main", *args], cwd=ROOT,
                          input=stdin, capture_output=True, timeout=120,
                          preexec_fn=limit_file_size,
                          env={**os.environ, **(env or {})})


def test_a_file_that_is_not_a_journal_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "thesis.txt"
    path.write_text("Chapter 1\nIt was a dark and stormy night.\n")
    before = path.read_bytes()
    done = _referee("infinifield", "--journal", str(path), stdin=OPENING.encode())
    assert done.returncode == 2
    message = done.stderr.decode()
    assert f"error: {path}: already holds text that is not a journal" in message
    assert "'Chapter 1'" in message and "Traceback" not in message
    assert message.endswith("it was left untouched: choose another file\n")
    assert path.read_bytes() == before


def test_a_second_referee_on_one_journal_is_refused_naming_the_first(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    first = subprocess.Popen([sys.executable, "-m", "companion.cli.main", "infinifield",
                              "--journal", str(path)], cwd=ROOT, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert first.stdin is not None and first.stdout is not None
    first.stdin.write(b"start Ben W1\n")
    first.stdin.flush()
    assert first.stdout.readline().startswith(b"ok       start Ben W1")
    second = _referee("infinifield", "--journal", str(path), "--resume",
                      stdin=b"start Ann W4\n")
    out, _ = first.communicate(b"start Ann W4\n", timeout=60)
    assert second.returncode == 2
    assert f"{path}: process {first.pid} is already writing this journal" in \
        second.stderr.decode()
    assert second.stdout == b""
    assert first.returncode == 0 and out.startswith(b"ok       start Ann W4")
    assert [r["action"] for r in read_journal(path).records] == ["start Ben W1", "start Ann W4"]


def test_when_the_journal_cannot_grow_the_action_is_not_recorded_and_the_game_resumes(
        tmp_path: Path) -> None:
    """RLIMIT_FSIZE stands in for a full disk: writes past the limit fail with EFBIG."""
    path = tmp_path / "game.journal"
    record = (Path(ROOT) / "companion/games/infinifield/records/quickstart-2p.txt").read_text()
    done = _referee("infinifield", "--journal", str(path), "--json", stdin=record.encode(),
                    limit=5000)
    assert done.returncode == 3, done.stderr.decode()[-500:]
    verdicts = [json.loads(line) for line in done.stdout.decode().splitlines()]
    accepted = [v["action"] for v in verdicts if v["legal"]]
    missed = [v for v in verdicts if v.get("code") == "not_recorded"]
    assert accepted and missed, "the limit must fall inside the record"
    assert missed[0]["reason"].startswith("not recorded: disk full")
    assert "Traceback" not in done.stderr.decode()
    assert os.path.getsize(path) <= 5000
    resumed = _referee("infinifield", "--journal", str(path), "--resume", "--json",
                       stdin=b"legal\n")
    assert resumed.returncode == 0, resumed.stderr.decode()
    assert f"{len(accepted)} action(s) replayed" in resumed.stderr.decode()


def test_a_hand_edited_journal_names_file_and_line_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    assert _referee("infinifield", "--journal", str(path),
                    stdin=OPENING.encode()).returncode == 0
    lines = [json.loads(line.rpartition(b"\t")[0]) for line in path.read_bytes().splitlines()]
    lines[2]["action"] = "start Ann W99"
    edited = b"".join(encode_record(line) for line in lines)
    path.write_bytes(edited)
    done = _referee("infinifield", "--journal", str(path), "--resume", stdin=b"legal\n")
    assert done.returncode == 2
    assert done.stderr.decode().startswith(
        f"error: {path}: line 3: 'start Ann W99' is not an action of infinifield")
    assert path.read_bytes() == edited


def test_non_utf8_standard_input_names_the_line(tmp_path: Path) -> None:
    done = _referee("infinifield", stdin=b"start Ben W1\nstart Ann W\xff4\n",
                    env={"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 2
    err = done.stderr.decode()
    assert "<stdin>:2: not UTF-8 text (byte 0xff at column 12): 'start Ann W\ufffd4'" in err
    assert "Traceback" not in err
    assert done.stdout.decode().startswith("ok       start Ben W1")


@pytest.mark.parametrize("via", ["file", "stdin"])
def test_a_ten_megabyte_line_is_refused_with_a_short_excerpt(tmp_path: Path, via: str) -> None:
    data = b"start Ben W1\n" + b"x" * 10_000_000 + b"\nstart Ann W4\n"
    record = tmp_path / "game.txt"
    record.write_bytes(data)
    done = (_referee("infinifield", str(record)) if via == "file" else
            _referee("infinifield", "--json", stdin=data))
    assert done.returncode == 2
    err = done.stderr.decode()
    source = record if via == "file" else "<stdin>"
    assert f"{source}:2: the line is 10,000,001 bytes long" in err
    assert len(err) < 600 and len(done.stdout) < 1000, "the line must not be echoed in full"


def test_a_setup_file_over_a_megabyte_or_endless_is_refused_without_reading_it_all(
        tmp_path: Path) -> None:
    big = tmp_path / "field.toml"
    big.write_bytes(b"# padding\n" * 200_000)
    for path in (big, Path("/dev/zero")):
        done = _referee("infinifield", "--setup", str(path), stdin=OPENING.encode())
        assert done.returncode == 2
        assert done.stderr.decode() == (f"error: {path}: the file is larger than 1,000,000 "
                                        f"bytes; data files are at most that\n")


def test_a_setup_file_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "field.toml"
    path.write_bytes(b"# my field\nname = \"caf\xe9\"\n")
    done = _referee("infinifield", "--setup", str(path), stdin=OPENING.encode())
    assert done.returncode == 2
    assert done.stderr.decode() == f"error: {path}:2: not UTF-8 text (byte 0xe9)\n"


def test_ctrl_c_ends_with_one_sentence_and_the_journal_intact(tmp_path: Path) -> None:
    import signal

    path = tmp_path / "game.journal"
    # as at a terminal, Ctrl-C is the referee's to handle, even where this test runs in the
    # background (a shell starts background jobs with SIGINT ignored, and a child keeps that)
    referee = subprocess.Popen([sys.executable, "-m", "companion.cli.main", "infinifield",
                                "--journal", str(path)], cwd=ROOT, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert referee.stdin is not None and referee.stdout is not None
    referee.stdin.write(b"start Ben W1\n")
    referee.stdin.flush()
    assert referee.stdout.readline().startswith(b"ok       start Ben W1")
    referee.send_signal(signal.SIGINT)
    # Ctrl-C at a terminal leaves standard input open: the referee must end on the signal
    referee.wait(timeout=60)
    assert referee.stderr is not None
    err = referee.stderr.read()
    referee.stdin.close()
    referee.stdout.close()
    referee.stderr.close()
    assert referee.returncode == 130
    assert err.decode() == f"\ninterrupted; every accepted action is in {path}\n"
    assert [r["action"] for r in read_journal(path).records] == ["start Ben W1"]


def test_output_closed_early_is_no_traceback() -> None:
    referee = subprocess.Popen([sys.executable, "-m", "companion.cli.main", "infinifield"],
                               cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert referee.stdin is not None and referee.stdout is not None
    referee.stdout.close()  # as `| head` does once it has its lines
    _, err = referee.communicate(b"legal\n" * 3000, timeout=60)
    assert referee.returncode == 141
    assert b"Traceback" not in err
