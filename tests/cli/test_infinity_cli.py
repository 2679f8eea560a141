"""``infinite-referee infinity``: referee a record, check profiles, print exact odds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli.main import main

RECORD = """# Ann's Fusilier shoots the Grenzer, who shoots back from Partial Cover
shoot Ann Fusilier combi_rifle Grenzer@12+cover
aro Ben Grenzer shoot combi_rifle Fusilier@12
pass Ben
roll 3 16 7 12     # Fusilier BS 12: 3 and 7 hit; the Grenzer's 12 beats them
arm 10             # Fusilier ARM 1: 11 is not higher than Damage 13
"""


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["infinity", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_record_is_refereed_with_the_odds_shown_before_the_roll(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 5 "CLI" and "Exact odds": verdicts as for every game; the exact odds of the
    declared exchange are shown before the dice are rolled."""
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    status, out, _ = _run(capsys, str(record))
    assert status == 0
    lines = out.splitlines()
    assert lines[2] == "ok       pass Ben"
    assert lines[3] == "         odds: Fusilier target 12 x3 vs Grenzer target 15 x1"
    assert any("nobody succeeds" in line for line in lines[3:9])
    assert "Grenzer hits Fusilier" in out
    assert "Fusilier loses a Wound (0 left)" in out
    assert "Fusilier (Ann) is removed from play" in out


def test_json_verdicts_carry_events_and_structured_odds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 5 "CLI": `--json` output as the other games."""
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    status, out, _ = _run(capsys, str(record), "--json")
    assert status == 0
    verdicts = [json.loads(line) for line in out.splitlines()]
    odds = verdicts[2]["odds"][0]
    assert (odds["active"], odds["reactive"], odds["burst"]) == ("Fusilier", "Grenzer", 3)
    total = sum(odds["active_hits"].values()) - odds["active_hits"]["0/0"] \
        + sum(odds["reactive_hits"].values()) - odds["reactive_hits"]["0/0"] + odds["nobody"]
    assert total == pytest.approx(100)
    kinds = [event["kind"] for event in verdicts[4]["events"]]
    assert kinds == ["roll", "wound", "trooper_removed"]


def test_a_refused_declaration_exits_1_citing_the_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """infinity-n3-intro.md "CC ATTACK": only in base to base contact; refusals exit 1 with the
    rule."""
    record = tmp_path / "game.txt"
    record.write_text("cc Ann Fusilier knife Grenzer\n")
    status, out, _ = _run(capsys, str(record))
    assert status == 1
    assert 'REFUSED  cc Ann Fusilier knife Grenzer: Fusilier is not in base to base contact ' \
           'with Grenzer. [infinity-n3-intro: "CC ATTACK"]' in out


def test_virtual_rolls_replay_from_the_journal(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 5 "CLI": rolls are actions in the record, so a game replays (journal resume)."""
    record = tmp_path / "game.txt"
    record.write_text("shoot Ann Iguana combi_rifle Grenzer@12\npass Ben\nroll\n")
    journal = tmp_path / "game.journal"
    status, first, _ = _run(capsys, str(record), "--journal", str(journal), "--seed", "5")
    assert status == 0
    rolled = first.splitlines()[-1]
    assert rolled.startswith("ok       roll ") and "Iguana BS 17" in rolled
    again = tmp_path / "again.txt"
    again.write_text("undo\n")
    status, resumed, err = _run(capsys, str(again), "--journal", str(journal), "--resume")
    assert "3 action(s) replayed" in err
    assert status == 1 and "cannot be taken back" in resumed  # the virtual roll stands


def test_odds_mode_prints_the_exact_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 5 "Exact odds": `infinite-referee infinity odds ...`; 10 against 10, Burst 1:
    nobody 27.50%, each side 36.25% (worked by hand in tests/games/infinity/test_odds.py), of
    which a Critical 10 that the other die does not match: 1/20 x 19/20 = 4.75%."""
    status, out, _ = _run(capsys, "odds", "--active", "10", "--reactive", "10")
    assert status == 0
    assert out.splitlines() == ["active target 10 x1 vs reactive target 10 x1",
                                "  active succeeds 36.25%: 1 = 36.25% (1 Critical 4.75%)",
                                "  reactive succeeds 36.25%: 1 = 36.25% (1 Critical 4.75%)",
                                "  nobody succeeds 27.50%"]


def test_odds_mode_applies_partial_cover_and_prints_wounds(
        capsys: pytest.CaptureFixture[str]) -> None:
    """infinity-n3-intro.md "Cover": -3 to the attacker's BS and +3 to the target's ARM. BS 15 in
    cover is 12: hits on 1-11 (55%), Critical on 12 (5%); ARM 1+3 fails on 1-9 against Damage 13."""
    status, out, _ = _run(capsys, "odds", "--active", "15", "--damage", "13",
                          "--reactive-arm", "1", "--reactive-cover", "--json")
    data = json.loads(out)
    assert status == 0 and data["active_target"] == 12
    assert data["wounds_on_reactive"]["1"] == pytest.approx((0.55 * 9 / 20 + 0.05) * 100)


def test_odds_mode_without_active_target_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input gets a clear error naming what is missing."""
    status, _, err = _run(capsys, "odds", "--burst", "3")
    assert status == 2 and "--active TARGET is required" in err


def test_check_prints_profiles_and_names_a_bad_key(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 5 "Profiles as data": a checker for profile files."""
    status, out, _ = _run(capsys, "--check")
    assert status == 0 and "trooper fusilier: Fusilier MOV 4-4 CC 13 BS 12" in out
    bad = tmp_path / "bad.toml"
    bad.write_text("[weapons.knife]\nname = 'Knife'\nkind = 'cc'\ndamage = 'PH-1'\nburst = 0\n")
    status, _, err = _run(capsys, "--profiles", str(bad), "--check")
    assert status == 2
    assert f"{bad}: weapons.knife.burst: must be between 1 and 6, not 0" in err


def test_an_armies_file_over_the_points_exits_2(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """infinity-n3-intro.md "INFINITY: GAME SUMMARY": the Army List cannot exceed the agreed Army
    Points."""
    armies = tmp_path / "armies.toml"
    armies.write_text("[game]\npoints = 5\n[[armies]]\nplayer = 'Ann'\ntroopers = [{id = 'F', "
                      "profile = 'fusilier', cost = 10, lieutenant = true}]\n[[armies]]\n"
                      "player = 'Ben'\ntroopers = [{id = 'G', profile = 'grenzer', cost = 5, "
                      "lieutenant = true}]\n")
    status, _, err = _run(capsys, "--setup", str(armies), "legal")
    assert status == 2 and "armies[0].troopers" in err and "more than the 5" in err


def test_odds_flags_outside_the_odds_mode_are_an_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input gets a clear error: odds flags only mean something in `infinity odds`."""
    status, out, err = _run(capsys, "--active", "12")
    assert status == 2 and out == ""
    assert "--active belongs to the odds mode" in err
