"""``infinite-referee infinifield``: replaying records, verdicts, field checks, journals.

Rulebook: infinifield.md (the rules each verdict applies); issue 2 section 4 for the command
(exit 0 all legal, 1 a refusal, 2 unreadable input).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.resources import shipped_text

PACKAGE = "companion.games.infinifield"
FIELDS = Path(__file__).resolve().parents[2] / "companion" / "games" / "infinifield" / "fields"
RECORDS = FIELDS.parent / "records"


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
         stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(["infinifield", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_shipped_record_replays_to_the_end_of_the_match(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """infinifield.md "Chase-and-capture" and "Scoring": a whole two-round match, replayed from
    its record on the default (quick-start) field, every action legal."""
    status, out, _ = _run(capsys, monkeypatch, str(RECORDS / "quickstart-2p.txt"))
    lines = out.splitlines()
    assert status == 0
    assert all(line.startswith("ok ") for line in lines[:-1])
    assert lines[-1] == "game over: Ann wins after 2 round(s) (points: Ann 33, Ben 28)."


@pytest.mark.parametrize(("record", "flags"), [
    ("official-4p.txt", ["--setup", str(FIELDS / "official.toml"), "--rounds", "1"]),
    ("castle3d-3p.txt", ["--setup", str(FIELDS / "castle3d.toml"), "--rounds", "1"]),
])
def test_the_other_shipped_records_replay(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, record: str,
                                          flags: list[str]) -> None:
    """infinifield.md "Chase-and-capture" step 8: a round played to one pawn left."""
    status, out, _ = _run(capsys, monkeypatch, *flags, str(RECORDS / record))
    assert status == 0
    assert out.splitlines()[-1].startswith("game over: ")


def test_a_refused_move_prints_reason_and_rule_in_json_and_exits_1(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """infinifield.md "Chase-and-capture" step 6: a pawn moves only to a touching block."""
    status, out, _ = _run(capsys, monkeypatch, "--json",
                          stdin="start ben w1\nstart Ann W4\nmove Ben W1 W4\nmove Ben W1 Y1\n")
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert [v["legal"] for v in verdicts] == [True, True, False, True]
    refused = verdicts[2]
    assert refused["action"] == "move Ben W1 W4"
    assert refused["code"] == "not_adjacent"
    assert refused["rule"] == 'infinifield: "Chase-and-capture", step 6'
    assert refused["reason"].startswith("W4 does not touch W1")
    assert refused["events"][0]["kind"] == "illegal"
    assert verdicts[3]["events"] == [{"kind": "counter_advanced", "position": 1,
                                      "player": "Ben"}]


def test_unreadable_lines_exit_2_naming_the_file_and_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """infinifield.md "Select starting positions" step 2: only named blocks can be chosen."""
    record = tmp_path / "game.txt"
    record.write_text("start Ben W1\n# oops\nstart Ann W99\n")
    status, _, err = _run(capsys, monkeypatch, str(record))
    assert status == 2
    assert f"{record}:3: cannot read 'start Ann W99': 'W99' is not a block" in err


def test_players_builder_and_rules_come_from_the_flags(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """infinifield.md "Select starting positions" steps 2-3: with Ben building, Cat (on his
    left) chooses first."""
    status, out, _ = _run(capsys, monkeypatch, "--players", "Ann,Ben,Cat", "--builder", "ben",
                          "--json", "--legal")
    assert status == 0
    listing = json.loads(out.splitlines()[-1])
    assert listing["legal_actions"][0] == "start Cat W1"
    assert all(text.startswith("start Cat W") for text in listing["legal_actions"])


def test_check_reports_every_violation_and_exits_1(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """infinifield.md "Official field-building rules" bullets 3 and 5 (picture 5: islands)."""
    status, out, _ = _run(capsys, monkeypatch, "--setup", str(FIELDS / "islands.toml"),
                          "--mode", "official", "--check")
    lines = out.splitlines()
    assert status == 1
    assert lines[0].endswith("4 violation(s) of the official field-building rules")
    assert lines[1] == ("  islands [W1, Y1, R1, W2]: The field is split into 3 islands; island "
                        "1 is W1, Y1, R1, W2. [infinifield: \"Official field-building rules\", "
                        "bullet 3]")
    assert lines[4].startswith("  white_needs_two_coloured [W2]: ")


def test_check_accepts_a_valid_field_and_speaks_json(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """infinifield.md "Official field-building rules": the shipped official field passes."""
    status, out, _ = _run(capsys, monkeypatch, "--setup", str(FIELDS / "official.toml"),
                          "--check", "--json")
    report = json.loads(out)
    assert status == 0
    assert (report["mode"], report["valid"], report["blocks"], report["violations"]) == (
        "official", True, 24, [])


def test_a_bad_field_file_exits_2_naming_the_key(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """infinifield.md "Contents": blocks are white, yellow, red or blue."""
    field = tmp_path / "field.toml"
    field.write_text('blocks = [{ id = "W1", colour = "pink", at = [0, 0] }]\n')
    for flags in (["--check"], ["--players", "Ann,Ben"]):
        status, _, err = _run(capsys, monkeypatch, "--setup", str(field), *flags)
        assert status == 2
        assert f"{field}: blocks[1] (W1): colour 'pink' is not one of" in err
    status, _, err = _run(capsys, monkeypatch, "--setup", str(tmp_path / "missing.toml"))
    assert status == 2 and "missing.toml: cannot read the file" in err


def test_the_referee_will_not_start_on_an_invalid_field(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """infinifield.md "Build the field" step 1, bullet 2: no islands (picture 5)."""
    status, _, err = _run(capsys, monkeypatch, "--setup", str(FIELDS / "islands.toml"),
                          stdin="start Ben W1\n")
    assert status == 2
    assert "the field breaks the quickstart field-building rules" in err


def test_a_journaled_game_resumes_where_it_stopped(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """infinifield.md "Chase-and-capture" step 7: after a restart the counter and the removal
    due are exactly as they were."""
    journal = tmp_path / "match.journal"
    record = shipped_text(PACKAGE, "records/quickstart-2p.txt").splitlines()
    actions = [line.split("#")[0].strip() for line in record if line.split("#")[0].strip()]
    first, rest = actions[:7], actions[7:]
    status, _, _ = _run(capsys, monkeypatch, "--journal", str(journal),
                        stdin="\n".join(first) + "\n")
    assert status == 0
    status, out, err = _run(capsys, monkeypatch, "--journal", str(journal), "--resume",
                            "--legal", stdin="")
    assert "7 action(s) replayed" in err
    assert out.splitlines()[0].startswith("legal    remove Ben ")
    status, out, _ = _run(capsys, monkeypatch, "--journal", str(journal), "--resume",
                          stdin="\n".join(rest) + "\n")
    assert status == 0
    assert out.splitlines()[-1].startswith("game over: Ann wins after 2 round(s)")


def test_a_rebuild_line_names_the_new_field_file(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    """infinifield.md "Chase-and-capture" step 8 and "Build the field" step 1: the new
    builder's own field, read from a file on the rebuild line; the scores carry on."""
    first = tmp_path / "first.toml"
    first.write_text('blocks = [{ id = "W1", colour = "white" }, { id = "Y1", colour = '
                     '"yellow" }, { id = "W2", colour = "white" }]\n[field]\n'
                     'touching = [["W1", "Y1"], ["Y1", "W2"]]\n')
    record = tmp_path / "match.txt"
    record.write_text("start Ben W1\nstart Ann W2\nmove Ben W1 Y1\nmove Ann W2 Y1\n"
                      f"rebuild Ben {FIELDS / 'official.toml'}\nstart Ann W7\n")
    status, out, err = _run(capsys, monkeypatch, "--setup", str(first), "--players",
                            "Ann,Ben", "--rounds", "2", "--json", str(record))
    assert status == 0, err
    verdicts = [json.loads(line) for line in out.splitlines()]
    rebuilt = verdicts[4]
    assert rebuilt["legal"] and rebuilt["action"].startswith('rebuild Ben {"field":')
    assert rebuilt["events"] == [{"kind": "field_rebuilt", "player": "Ben",
                                  "name": "Official symmetric field", "blocks": 24,
                                  "new": True}]
    assert verdicts[5]["legal"] and verdicts[5]["action"] == "start Ann W7"


def test_a_rebuild_names_a_new_field_file_and_the_journal_keeps_the_field(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """infinifield.md "Build the field" step 1: each round's builder lays out their own field.
    The command line reads the file (the rules read none) and the journal holds the field."""
    record = (RECORDS / "quickstart-2p.txt").read_text(encoding="utf-8")
    first_round = record.split("rebuild Ben")[0]
    new_field = tmp_path / "bens-field.toml"
    new_field.write_text(shipped_text(PACKAGE, "fields/official.toml"), encoding="utf-8")
    journal = tmp_path / "match.journal"
    status, before, err = _run(capsys, monkeypatch, "--journal", str(journal),
                               stdin=first_round + f"rebuild Ben {new_field}\nlegal\n")
    assert status == 0, err
    assert "rebuild Ben {" in journal.read_text(encoding="utf-8")
    new_field.unlink()
    status, after, err = _run(capsys, monkeypatch, "--journal", str(journal), "--resume",
                              stdin="legal\n")
    assert status == 0, err
    assert after.strip().splitlines()[-1] == before.strip().splitlines()[-1], \
        "the resumed match offers what it offered before the file was deleted"
    status, _, err = _run(capsys, monkeypatch, stdin=first_round + "rebuild Ben missing.toml\n")
    assert status == 2 and "missing.toml: no such field file" in err


def test_a_field_breaking_many_rules_is_one_readable_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """A mangled field used to give a 21,000-character error line listing every violation;
    the line lists the first five and says how many more (--check lists them all)."""
    blocks = "".join(f'[[blocks]]\nid = "W{i}"\ncolour = "white"\nat = [{100 * i}, 0]\n'
                     for i in range(1, 30))
    field = tmp_path / "scattered.toml"
    field.write_text('[match]\nmode = "official"\n' + blocks, encoding="utf-8")
    status, _, err = _run(capsys, monkeypatch, "--setup", str(field), "--players", "Ann,Ben")
    assert status == 2
    assert "; and 53 more (infinite-referee infinifield --check lists them all)" in err
    assert len(err) < 2000
    status, out, _ = _run(capsys, monkeypatch, "--setup", str(field), "--check")
    assert status == 1 and "58 violation(s)" in out
