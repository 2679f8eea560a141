"""The referee loop every game's command shares: verdicts, JSON, exit codes, journal.

Issue 2, section 4: one verdict per action; ``--json`` objects with ``action``, ``legal``,
``events`` and for refusals ``rule`` and ``reason``; exit 0 all legal, 1 one refused,
2 unreadable input naming the file, line and what is wrong; resume a journal.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

from companion.cli.referee import add_common_arguments, run_referee
from tests.support import countdown


def _run(tmp_path: Path, record: str | None, *flags: str,
         stdin: str = "") -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    add_common_arguments(parser)
    argv = list(flags)
    if record is not None:
        path = tmp_path / "game.txt"
        path.write_text(record)
        argv.insert(0, str(path))
    args = parser.parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    status = run_referee(countdown.GAME, args, countdown.SETUP, {}, out=out, err=err,
                         stdin=io.StringIO(stdin))
    return status, out.getvalue(), err.getvalue()


def test_a_legal_record_prints_one_verdict_per_action_and_exits_0(tmp_path: Path) -> None:
    status, out, _ = _run(tmp_path, "# opening\nroll 3\n\ntake ann 2   # Ann is careful\n")
    assert status == 0
    assert out.splitlines() == ["ok       roll 3  -- rolled(value=3)",
                                "ok       take Ann 2  -- took(player=Ann, count=2)"]


def test_a_refusal_prints_reason_and_rule_and_exits_1(tmp_path: Path) -> None:
    status, out, _ = _run(tmp_path, "roll 3\ntake Ann 5\ntake Ann 1\n", "--json")
    assert status == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["legal"] for line in lines] == [True, False, True]
    refused = lines[1]
    assert refused["action"] == "take Ann 5"
    assert refused["rule"] == 'countdown: "Turn", take'
    assert "no more than the die shows" in refused["reason"]
    assert refused["events"][0]["kind"] == "illegal"


def test_unreadable_input_names_file_and_line_and_exits_2(tmp_path: Path) -> None:
    status, out, err = _run(tmp_path, "roll 3\n\nfly away\ntake Ann 1\n")
    assert status == 2
    assert f"{tmp_path / 'game.txt'}:3: cannot read 'fly away'" in err
    assert len(out.splitlines()) == 1, "nothing after the unreadable line is refereed"


def test_a_bad_setup_file_exits_2_naming_the_key(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_common_arguments(parser)
    err = io.StringIO()
    status = run_referee(countdown.GAME, parser.parse_args([]),
                         {"setup": ("my.toml", "pile = 'many'\n")}, {}, out=io.StringIO(),
                         err=err, stdin=io.StringIO(""))
    assert status == 2
    assert "my.toml: pile: must be a whole number" in err.getvalue()


def test_roll_undo_and_legal_words_from_standard_input(tmp_path: Path) -> None:
    status, out, _ = _run(tmp_path, None, "--seed", "3", stdin="roll\nundo\nlegal\n")
    lines = out.splitlines()
    assert lines[0].startswith("ok       roll ")
    assert lines[1].startswith("REFUSED  undo: A roll made by the companion cannot be taken")
    assert lines[2].startswith("legal    take Ann 1")
    assert status == 1


def test_a_journaled_game_resumes_and_continues(tmp_path: Path,
                                                countdown_registered: None) -> None:
    journal = tmp_path / "game.journal"
    _run(tmp_path, "roll 6\ntake Ann 6\n", "--journal", str(journal))
    status, out, err = _run(tmp_path, "roll 2\ntake Bea 2\n", "--journal", str(journal),
                            "--resume", "--json")
    assert status == 0
    assert "2 action(s) replayed" in err
    assert [json.loads(line)["action"] for line in out.splitlines()] == ["roll 2", "take Bea 2"]


def test_starting_over_an_unfinished_journal_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    _run(tmp_path, "roll 6\n", "--journal", str(journal))
    status, _, err = _run(tmp_path, "roll 6\n", "--journal", str(journal))
    assert status == 2
    assert "resume it" in err
