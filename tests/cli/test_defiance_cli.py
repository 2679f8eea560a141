"""``infinite-referee defiance``: verdicts, JSON, exit codes, setup files and journals
(issue 6 "CLI"; rulebook citations from infinities-defiance-of-fate.md)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from companion.cli.main import build_parser

OPENING = """# two-player Quickplay, decks and Roles drawn by the companion
roll
roll
roll
place Ann worldspine 1,0 0
place Ben scrap-dunes -1,0 0
leader Ann aster
leader Ben kael
ready Ann
ready Ben
"""


def _run(tmp_path: Path, record: str | None, *flags: str, stdin: str = ""):
    argv = ["defiance", *flags]
    if record is not None:
        path = tmp_path / "game.txt"
        path.write_text(record)
        argv.append(str(path))
    args = build_parser().parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    status = args.run(args, out=out, err=err, stdin=io.StringIO(stdin))
    return status, out.getvalue(), err.getvalue()


def test_a_legal_record_is_refereed_with_events_and_exit_0(tmp_path: Path) -> None:
    """infinities-defiance-of-fate.md "3. Setup" and "4. Turn Actions": setup then a turn."""
    status, out, _ = _run(tmp_path, OPENING + "check Ann tide\nroll T T F 0\nlock Ann\n"
                          "end Ann\n", "--seed", "4")
    assert status == 0
    lines = out.splitlines()
    assert lines[4] == ("ok       place Ben scrap-dunes -1,0 0  -- turn order: Ann, Ben; "
                        "round 1")
    assert "ok       lock Ann  -- Ann locks T T F 0" in lines
    assert lines[-1] == "ok       end Ann  -- Ben's turn"


def test_a_refusal_prints_the_reason_and_rule_as_json_and_exits_1(tmp_path: Path) -> None:
    """infinities-defiance-of-fate.md "4. Turn Actions": one action check per turn."""
    status, out, _ = _run(tmp_path, OPENING + "check Ann tide\nroll T T F 0\nlock Ann\n"
                          "check Ann power\n", "--seed", "4", "--json")
    assert status == 1
    last = json.loads(out.splitlines()[-1])
    assert last["legal"] is False and last["code"] == "already_rolled"
    assert last["rule"] == 'infinities-defiance-of-fate: "4. Turn Actions"'
    locked = json.loads(out.splitlines()[-2])
    assert locked["events"][0] == {"kind": "dice_locked", "leader": "Ann",
                                   "attribute": "tide", "faces": ["T", "T", "F", "0"]}


def test_unreadable_line_names_file_and_line_and_exits_2(tmp_path: Path) -> None:
    """docs/engine-contract.md: text that is not an action is unreadable, not illegal."""
    status, _, err = _run(tmp_path, "roll\nteleport Ann\n", "--seed", "1")
    assert status == 2
    assert f"{tmp_path / 'game.txt'}:2: cannot read 'teleport Ann'" in err


def test_a_bad_setup_file_names_the_file_and_key(tmp_path: Path) -> None:
    """infinities-defiance-of-fate.md "3. Setup" step 1: two settings are chosen."""
    setup = tmp_path / "game.toml"
    setup.write_text('[game]\nmode = "skirmish"\nplayers = ["Ann", "Ben"]\n'
                     'settings = { obdija = "wardens" }\n')
    status, _, err = _run(tmp_path, None, "--setup", str(setup))
    assert status == 2
    assert f"{setup}: game.settings: choose exactly two settings" in err
    status, _, err = _run(tmp_path, None, "--setup", str(tmp_path / "missing.toml"))
    assert status == 2 and "missing.toml" in err


def test_a_misspelt_key_in_a_data_file_is_refused_with_exit_2(tmp_path: Path) -> None:
    """Issue 14: `copise` in a deck silently lost a card; infinities-defiance-of-fate.md
    "2.4 - Faction Decks" (the deck's cards). --check names the file, the key and the
    closest valid key, and exits 2."""
    from companion.games.defiance.shipped import PACKAGE, shipped_roles
    from companion.resources import shipped_sources

    _, text = shipped_sources(PACKAGE, shipped_roles())["cards"]
    cards = tmp_path / "cards.toml"
    cards.write_text(text.replace("copies = 3", "copise = 3", 1))
    status, out, err = _run(tmp_path, None, "--cards", str(cards), "--check")
    assert status == 2 and out == ""
    assert f"{cards}: card[0].copise: unknown key; did you mean 'copies'?" in err
    assert "Traceback" not in err


def test_check_summarises_the_setup_and_data(tmp_path: Path) -> None:
    """infinities-defiance-of-fate.md "1.1 - Skirmish Mode": the 18-card Roles deck."""
    setup = tmp_path / "game.toml"
    setup.write_text('[game]\nmode = "skirmish"\nplayers = ["Ann", "Ben", "Cid"]\n'
                     'settings = { obdija = "wardens", xilsen = "empire" }\n')
    status, out, _ = _run(tmp_path, None, "--setup", str(setup), "--check")
    assert status == 0
    assert out.startswith("ok: skirmish, 3 players, 6 leaders, 21 tiles, 16 cards")
    assert "18 Roles" in out


def test_players_option_and_legal_listing(tmp_path: Path) -> None:
    """infinities-defiance-of-fate.md "3. Setup" step 5: each player places a tile."""
    status, out, _ = _run(tmp_path, None, "--players", "Xia,Yul", "--seed", "2",
                          stdin="roll\nroll\nroll\nlegal\n")
    assert status == 0
    legal = [line for line in out.splitlines() if line.startswith("legal")]
    assert legal[0] == "legal    588 actions; verbs: place"
    assert legal[1].startswith("legal    place Xia ") and len(legal) == 2


def test_legal_is_grouped_verbs_first_then_arguments(tmp_path: Path) -> None:
    """Issue 17 ("`legal` lists 261 actions for an ordinary position"): the listing names the
    verbs, then one line per verb; infinities-defiance-of-fate.md "4. Turn Actions" (a
    Fortitude check: move, flip, and the Tide and Power results rolled). --json keeps the
    flat list for programs."""
    record = OPENING + "check Ann fortitude\nroll F F T P\nlock Ann\n"
    status, out, _ = _run(tmp_path, record, "--seed", "4", "--legal")
    assert status == 0
    legal = [line[9:] for line in out.splitlines() if line.startswith("legal")]
    total, verbs = legal[0].split(" actions; verbs: ")
    assert int(total) > 250 and len(legal) == 1 + len(verbs.split(", ")) < 15
    assert "gambit Ann/Ben" in legal
    move = next(line for line in legal if line.startswith("move Ann "))
    assert move.startswith("move Ann 0,0 [regroup] | Ann ")
    assert "discover ashen-wilds/moon-well/sun-road 0/1/2/3/4/5 [regroup]" in move
    status, out, _ = _run(tmp_path, record, "--seed", "4", "--legal", "--json")
    flat = json.loads(out.splitlines()[-1])["legal_actions"]
    assert len(flat) == int(total) and "move Ann 0,0 regroup" in flat


def test_journal_resumes_the_game(tmp_path: Path) -> None:
    """docs/engine-contract.md: a journaled game resumes exactly where it stopped."""
    journal = tmp_path / "game.journal"
    status, _, _ = _run(tmp_path, OPENING, "--seed", "9", "--journal", str(journal))
    assert status == 0
    status, out, err = _run(tmp_path, None, "--journal", str(journal), "--resume",
                            stdin="check Ann power\nroll\nlock Ann\n")
    assert status == 0
    assert "9 action(s) replayed" in err
    assert "ok       lock Ann" in out


def test_card_effects_are_entered_resolved_in_one_action_and_undone(tmp_path: Path) -> None:
    """Issue 17: card damage in one action (`step P all` / `step P N`), undo as a replay, a
    heal that does nothing said, and a verdict when a step lacks its choice;
    infinities-defiance-of-fate.md "8.3 - The Queue" and "8.1 - Damage"."""
    record = OPENING + ("effect Ann aster damage 3 Ben\nstep Ann all\nundo\nstep Ann 2\n"
                        "effect Ann aster heal 1 Ann\nstep Ann\n"
                        "effect Ben kael destroy 1 Ann\nstep Ben\n")
    status, out, _ = _run(tmp_path, None, "--seed", "4", stdin=record)
    lines = out.splitlines()
    assert ("ok       step Ann all  -- Ben Health 5 -> 4; Ben Health 4 -> 3; Ben Health 3 -> 2"
            in lines)
    assert "ok       step Ann 2  -- Ben Health 5 -> 4; Ben Health 4 -> 3" in lines
    assert "ok       step Ann  -- Ann has no damage to heal: nothing healed" in lines
    assert status == 1 and lines[-1].startswith("REFUSED  step Ben: Each step of destroy names")
    assert '"8.3 - The Queue"' in lines[-1]
