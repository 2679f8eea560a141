"""``infinite-referee 401``: verdicts, --json, exit codes, journal, --legal, --check, --show."""

from __future__ import annotations

import io
import json
from pathlib import Path

from companion.cli.main import build_parser
from companion.games.infinite401.cardset import load_cards
from companion.resources import shipped_text

DECK = " ".join(load_cards("default", shipped_text("companion.games.infinite401",
                                                   "cards/default.toml")).deck("blue"))
OPENING = f"shuffle blue {DECK}\nshuffle red {DECK}\nflip blue\n"
# Both hands: Serration Chainbind Strike Shockwave (the shuffles keep the card-file order).


def run(tmp_path: Path, record: str | None, *flags: str,
        stdin: str = "") -> tuple[int, str, str]:
    argv = ["401", *flags]
    if record is not None:
        path = tmp_path / "game.txt"
        path.write_text(record)
        argv.append(str(path))
    args = build_parser().parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    status = args.run(args, out=out, err=err, stdin=io.StringIO(stdin))
    return status, out.getvalue(), err.getvalue()


def test_a_legal_record_prints_one_ok_per_action_and_exits_0(tmp_path: Path) -> None:
    """Issue 4 "Notation and CLI": the same verdict output as the other games."""
    record = OPENING + "move blue B1 c5  # up the c column\nend blue\nmove red R1 c6\n" \
        "play red Serration R1 -> B1\n"
    status, out, _ = run(tmp_path, record)
    assert status == 0
    lines = out.splitlines()
    assert lines[3] == "ok       move blue B1 c5"
    assert lines[-1] == ("ok       play red Serration R1 -> B1  -- B1 2->1 HP (turn the "
                         "indicator 90° counter-clockwise)")


def test_a_refusal_cites_the_rule_and_exits_1(tmp_path: Path) -> None:
    """401-infinite.md "TECHNICALITIES" Straight Line To Target, through the CLI."""
    record = OPENING + ("move blue B1 c3\nend blue\nmove red R1 c5\nmove red R1 d5\n"
                        "end red\nplay blue Serration B1 -> R1  # crosses the wall on d4\n"
                        "play blue Strike B1 -> B2\n")
    status, out, _ = run(tmp_path, record, "--json")
    assert status == 1
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert [v["legal"] for v in verdicts] == [True] * 8 + [False, False]
    refused = verdicts[-2]
    assert refused["action"] == "play blue Serration B1 -> R1"
    assert refused["code"] == "line_hits_wall" and "d4" in refused["reason"]
    assert refused["rule"] == '401-infinite: "TECHNICALITIES", Straight Line To Target'
    assert verdicts[-1]["code"] == "wrong_side"
    assert verdicts[2]["events"] == [] and verdicts[2]["source"] == "typed"


def test_an_arrow_without_spaces_and_the_tested_line_in_json(tmp_path: Path) -> None:
    """401-infinite.md "TECHNICALITIES" Straight Line To Target: ``B1->R1`` is read (issue 17)
    and the refusal names the line it tested (docs/401-infinite.md)."""
    record = OPENING + ("move blue B1 c3\nend blue\nmove red R1 c5\nmove red R1 d5\n"
                        "end red\nplay blue Serration B1->R1\n")
    status, out, _ = run(tmp_path, record, "--json")
    assert status == 1
    refused = [json.loads(line) for line in out.splitlines()][-1]
    assert refused["action"] == "play blue Serration B1 -> R1"
    assert refused["code"] == "line_hits_wall"
    assert "joins the centres of c3 to d5" in refused["reason"]


def test_unreadable_text_names_the_file_and_line_and_exits_2(tmp_path: Path) -> None:
    """docs/engine-contract.md: text that is not an action is invalid (exit 2)."""
    status, _, err = run(tmp_path, OPENING + "teleport blue B1 d4\n")
    assert status == 2
    assert "game.txt:4" in err and "unknown verb" in err


def test_legal_lists_the_actions_of_the_position_sorted(tmp_path: Path) -> None:
    """Issue 4: the CLI can list the legal actions of the current position."""
    status, out, _ = run(tmp_path, OPENING, "--legal", "--json")
    assert status == 0
    listed = json.loads(out.splitlines()[-1])["legal_actions"]
    assert listed == sorted(listed)
    assert "end blue" in listed and "move blue B1 c5" in listed
    assert "play blue Strike B2 -> R2" not in listed  # out of range from the bases


def test_a_chance_step_is_drawn_by_the_companion_with_roll(tmp_path: Path) -> None:
    """401-infinite.md Quick Start: the shuffles and the coin flip can be left to the
    companion (``roll``/``shuffle``/``flip``) and are recorded with their result."""
    status, out, _ = run(tmp_path, None, "--seed", "5", stdin="shuffle\nshuffle\nflip\n")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("ok       shuffle blue ") and len(lines[0].split()) == 14
    assert lines[2] in ("ok       flip blue", "ok       flip red")


def test_the_journal_resumes_the_game(tmp_path: Path) -> None:
    """DESIGN.md "Session, journal, outputs": an unfinished game resumes exactly."""
    journal = tmp_path / "game.journal"
    status, _, _ = run(tmp_path, OPENING + "move blue B1 c4\n", "--journal", str(journal))
    assert status == 0
    status, out, err = run(tmp_path, None, "--journal", str(journal), "--resume", "--legal",
                           stdin="move blue B1 c5\n")
    assert "4 action(s) replayed" in err
    assert status == 0 and out.splitlines()[0] == "ok       move blue B1 c5"


def test_check_summarises_good_files_and_names_the_problem_in_bad_ones(tmp_path: Path) -> None:
    """docs/401-infinite.md "Board files": the checker names the file, key and problem."""
    status, out, _ = run(tmp_path, None, "--check")
    assert status == 0 and "Default board, 7x9" in out and "11 ability cards" in out
    bad = tmp_path / "board.toml"
    bad.write_text(shipped_text("companion.games.infinite401", "boards/default.toml")
                   .replace('token = "a5"', 'token = "d5"'))
    status, _, err = run(tmp_path, None, "--board", str(bad), "--check")
    assert status == 2 and f"{bad}: token:" in err and "not a spawner" in err
    status, _, err = run(tmp_path, None, "--board", str(tmp_path / "missing.toml"))
    assert status == 2 and "missing.toml" in err


def test_competitors_start_and_show(tmp_path: Path) -> None:
    """401-infinite.md Competitor's Start through the CLI; --show prints the position."""
    eight = "Serration Chainbind Strike Shockwave Lunge Guard Escort Hex"
    record = (f"deck blue {eight} passive Bulwark\ndeck red {eight} passive Fleetfoot\n"
              "hand blue Strike Guard Hex Lunge\n")
    status, out, _ = run(tmp_path, record, "--start", "competitor", "--show")
    assert status == 0
    assert "position:   hand Strike Lunge Guard Hex; stack 4 (top first: Serration " \
           "Chainbind Shockwave Escort), passive Bulwark" in out


def test_show_in_json_carries_the_position_without_the_setup_texts(tmp_path: Path) -> None:
    """Issue 4: units' HP, hands/stacks and actions left for a screen or log, per verdict."""
    status, out, _ = run(tmp_path, OPENING + "move blue B1 c5\n", "--show", "--json")
    assert status == 0
    position = json.loads(out.splitlines()[-1])["position"]
    assert "setup" not in position
    assert position["units"][0] == ["B1", "blue", 2, [2, 4]]
    assert position["actions_left"] == 1 and position["to_move"] == "blue"
