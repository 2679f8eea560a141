"""``infinite-referee infinidungeon``: verdicts, --advise, --check-deck, --simulate (issue 3)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from companion.cli.main import build_parser
from companion.games.infinidungeon.advisor import fresh_roll_defeat
from tests.games.infinidungeon.helpers import DECK, DEFAULT_TEXT

ORDER = "hall spring den crypt armoury library shrine throne"
# From the Entrance north (moon/star, south doorway): the Great Hall (ghost 5, slime 1 3).
RECORD = f"""# a short game typed from physical dice
shuffle {ORDER}
go north
roll 5 1 2 4 4
reroll 3 -> 3
assign 1:slime 3:slime 5:ghost
"""


def _run(tmp_path: Path, *argv: str, record: str | None = None,
         stdin: str = "") -> tuple[int, str, str]:
    args = list(argv)
    if record is not None:
        path = tmp_path / "game.txt"
        path.write_text(record)
        args.append(str(path))
    parsed = build_parser().parse_args(["infinidungeon", *args])
    out, err = io.StringIO(), io.StringIO()
    status = parsed.run(parsed, out=out, err=err, stdin=io.StringIO(stdin))
    return status, out.getvalue(), err.getvalue()


def test_a_record_is_refereed_line_by_line_with_the_room_shown(tmp_path: Path) -> None:
    """infinidungeon.md "Moving Room": the referee names the room to draw and place."""
    status, out, _ = _run(tmp_path, record=RECORD)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"ok       shuffle {ORDER}"
    assert lines[1].startswith("         room: Entrance (entrance, basic side")
    assert lines[2] == "ok       go north"
    assert lines[3].startswith("         room: Great Hall (hall, basic side, symbol star): "
                               "monsters: ghost [5], slime [1 3]")
    assert lines[-1] == "ok       assign 1:slime 3:slime 5:ghost"


def test_a_refusal_prints_the_rule_and_exits_1(tmp_path: Path) -> None:
    """infinidungeon.md "Facing the Room", Monster Room: a face the monster does not accept."""
    bad = RECORD.replace("assign 1:slime 3:slime 5:ghost", "assign 4:ghost")
    status, out, _ = _run(tmp_path, "--json", record=bad)
    assert status == 1
    last = json.loads(out.splitlines()[-1])
    assert last["legal"] is False and last["code"] == "face_not_accepted"
    assert last["rule"] == 'infinidungeon: "Facing the Room", Monster Room'


def test_unreadable_lines_name_the_file_and_line_and_exit_2(tmp_path: Path) -> None:
    """DESIGN.md "Notation": text that is not an action is unreadable, not illegal."""
    status, _, err = _run(tmp_path, record=RECORD.replace("go north", "go up"))
    assert status == 2
    assert f"{tmp_path / 'game.txt'}:3: cannot read 'go up'" in err


def test_advise_adds_exact_odds_to_each_roll(tmp_path: Path) -> None:
    """infinidungeon.md "Facing the Room", Monster Room: after a roll, the odds of every
    reroll choice and the best one."""
    status, out, _ = _run(tmp_path, "--json", "--advise", record=RECORD)
    assert status == 0
    verdicts = [json.loads(line) for line in out.splitlines()]
    roll = next(v for v in verdicts if v["action"] == "roll 5 1 2 4 4")
    advice = roll["advice"]
    assert advice["kind"] == "fight" and advice["dice"] == [5, 1, 2, 4, 4]
    assert len(advice["choices"]) == 32
    assert advice["best"] == "reroll none" and advice["choices"][0]["p_defeat"] == 1.0
    assert "advice" not in next(v for v in verdicts if v["action"].startswith("assign"))
    entered = next(v for v in verdicts if v["action"] == "go north")
    # The Great Hall: a 5 for the ghost and a 1 or 3 for the slime, from five dice.
    hall = DECK.card("hall").basic.monsters
    assert entered["odds_before_rolling"] == {
        "dice": 5, "p_defeat": float(fresh_roll_defeat(hall, 5)),
        "exact": str(fresh_roll_defeat(hall, 5))}
    _, text, _ = _run(tmp_path, "--advise", record=RECORD)
    assert "         advice: best: reroll none: P(defeat) = 1.0000 (1)" in text.splitlines()


def test_virtual_dice_and_the_journal_resume_the_same_game(tmp_path: Path) -> None:
    """DESIGN.md "Session, journal": rolls from the seeded roller are recorded and replay."""
    journal = tmp_path / "dungeon.journal"
    status, out, _ = _run(tmp_path, "--seed", "9", "--journal", str(journal),
                          stdin="roll\ngo north\nroll\n")
    assert status == 0 and out.count("ok ") == 3
    status, out, err = _run(tmp_path, "--journal", str(journal), "--resume", "--legal",
                            stdin="reroll none\n")
    assert "3 action(s) replayed" in err
    assert status == 0 and "ok       reroll none" in out
    assert "legal    assign " in out and "legal    assign none" not in out


def test_check_deck_passes_the_shipped_deck() -> None:
    """infinidungeon.md "Introduction": the shipped deck agrees with the rulebook."""
    status, out, _ = _run(Path("."), "--check-deck")
    assert status == 0 and "the deck agrees with the rulebook (9 cards)" in out


def test_check_deck_lists_every_problem_and_exits_1(tmp_path: Path) -> None:
    """infinidungeon.md "Facing the Room": a deck without a healing pool or boss."""
    deck = tmp_path / "deck.toml"
    deck.write_text(DEFAULT_TEXT.replace('room = "healing_pool"', 'room = "empty"')
                    .replace('room = "boss"', 'room = "monsters"')
                    .replace('{ name = "dragon", boss = true }', '{ name = "dragon" }'))
    status, out, _ = _run(tmp_path, "--deck", str(deck), "--check-deck", "--json")
    assert status == 1
    report = json.loads(out)
    assert {p["problem"] for p in report["problems"]} == {"the deck has no boss room",
                                                          "the deck has no healing pool"}


def test_a_malformed_deck_names_the_key_and_exits_2(tmp_path: Path) -> None:
    """docs/infinidungeon.md deck format: errors name the file and key path."""
    deck = tmp_path / "deck.toml"
    deck.write_text(DEFAULT_TEXT.replace('symbol = "moon"', 'symbol = 7', 1))
    status, _, err = _run(tmp_path, "--deck", str(deck), record=RECORD)
    assert status == 2
    assert f"{deck}: card[2].basic.symbol: missing or not a string" in err


def test_simulate_reports_the_win_rate_with_a_confidence_interval() -> None:
    """Issue 3, "The advisor": whole games on the advisor's policy, win rate and 95% CI."""
    status, out, _ = _run(Path("."), "--simulate", "40", "--seed", "3", "--json")
    assert status == 0
    report = json.loads(out)
    assert report["games"] == 40 and 0 <= report["wins"] <= 40
    low, high = report["ci95"]
    assert low <= report["win_rate"] <= high
    assert sum(report["terminations"].values()) == 40
    status, text, _ = _run(Path("."), "--simulate", "40", "--seed", "3")
    assert f"40 games, {report['wins']} won" in text and "95% CI" in text


def test_an_inconsistent_deck_is_refereed_with_a_warning(tmp_path: Path) -> None:
    """infinidungeon.md "Flipping Rooms": four crystal rooms; a home-made deck with three
    still plays, and the referee warns about it."""
    deck = tmp_path / "deck.toml"
    deck.write_text(DEFAULT_TEXT.replace("crystal = true\n", "", 1))
    status, out, err = _run(tmp_path, "--deck", str(deck), record=RECORD)
    assert status == 0 and out.startswith("ok       shuffle")
    assert f"warning: {deck}: 1 inconsistency with the rulebook" in err
    assert "exactly four crystal rooms (found 3)" in err


def test_a_trap_is_announced_and_its_losses_described(tmp_path: Path) -> None:
    """infinidungeon.md "Moving Room": a trapped doorway (the Den's west door, face 3)."""
    record = ("shuffle den hall spring crypt armoury library shrine throne\n"
              "go east\nroll 1 2 2 5 6\nreroll none\n"
              "assign 1:rat 2:spider 2:spider 5:spider 6:spider\n"
              "go west\nroll 1 2 3 4 6\nreroll none\n")
    status, out, _ = _run(tmp_path, record=record)
    assert status == 0
    lines = out.splitlines()
    assert "ok       go west  -- trap! roll every die, lose those below 3" in lines
    assert "ok       reroll none  -- lost 2 dice (3 left)" in lines
    assert lines[-1].startswith("         room: Great Hall (hall, basic side")
