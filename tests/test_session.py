"""The session: journal before outputs, refusals with rules, chance, undo and resume.

DESIGN.md "Session, journal, outputs" and "The engine contract" (chance is an action; dice
rolls are not undoable to prevent rerolling).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.core import Event, NotationError, SetupError
from companion.journal import read_journal
from companion.session import Session, UndoRefused, journal_summary
from tests.support import countdown


def _new(tmp_path: Path, seed: int = 5) -> Session:
    return Session.new(countdown.GAME, countdown.SETUP, seed=seed,
                       journal_path=tmp_path / "game.journal")


def test_an_accepted_action_is_on_disk_before_any_output_sees_it(tmp_path: Path) -> None:
    seen_on_disk: list[list[str]] = []

    def output(event: Event) -> None:
        records = read_journal(tmp_path / "game.journal").records
        seen_on_disk.append([r["action"] for r in records if r["type"] == "action"])

    with _new(tmp_path) as session:
        session.bus.subscribe(output)
        session.propose("roll 4")
        session.propose("take Ann 3")
    assert seen_on_disk == [["roll 4"], ["roll 4", "take Ann 3"]]


def test_a_refusal_names_the_action_reason_and_rule_and_reaches_the_outputs(
        tmp_path: Path) -> None:
    heard: list[Event] = []
    with _new(tmp_path) as session:
        session.bus.subscribe(heard.append, kinds={"illegal"})
        session.propose("roll 2")
        verdict = session.propose("TAKE ann 3")
        assert not verdict.legal
        assert verdict.action == "take Ann 3"
        assert verdict.code == "too_many"
        assert verdict.rule == 'countdown: "Turn", take'
        assert verdict.params == {"rolled": 2, "pile": 30}, "a translated screen needs these"
        assert session.history == ["roll 2"]
    assert [e.data["code"] for e in heard] == ["too_many"]
    assert verdict.to_json()["rule"] == 'countdown: "Turn", take'


def test_unreadable_text_is_a_notation_error_and_records_nothing(tmp_path: Path) -> None:
    with _new(tmp_path) as session, pytest.raises(NotationError, match="expected"):
        session.propose("jump Ann")
    assert read_journal(tmp_path / "game.journal").records == []


def test_a_bad_setup_names_the_file_and_key() -> None:
    with pytest.raises(SetupError, match=r"countdown.toml: pile: must be a whole number"):
        Session.new(countdown.GAME, {"setup": ("countdown.toml", "pile = -3\n")})


def test_a_subscriber_that_fails_does_not_stop_the_referee(tmp_path: Path) -> None:
    def broken_led(event: Event) -> None:
        raise RuntimeError("LED on fire")

    with _new(tmp_path) as session:
        session.bus.subscribe(broken_led)
        assert session.propose("roll 6").legal
        assert session.propose("take Ann 1").legal


def test_a_virtual_roll_cannot_be_undone(tmp_path: Path) -> None:
    with _new(tmp_path) as session:
        verdict = session.roll()
        assert verdict.legal and verdict.source == "virtual"
        with pytest.raises(UndoRefused) as refusal:
            session.undo()
        assert refusal.value.code == "virtual_roll_stands"
        assert session.history == [verdict.action]


def test_a_mistyped_physical_roll_can_be_corrected(tmp_path: Path,
                                                    countdown_registered: None) -> None:
    with _new(tmp_path) as session:
        session.propose("roll 1")
        session.undo()
        assert session.history == []
        session.propose("roll 5")
        assert session.propose("take Ann 5").legal
    with Session.resume(tmp_path / "game.journal") as resumed:
        assert resumed.history == ["roll 5", "take Ann 5"]


def test_undo_with_nothing_to_undo_is_refused(tmp_path: Path) -> None:
    with _new(tmp_path) as session, pytest.raises(UndoRefused, match="nothing to undo"):
        session.undo()


def test_a_resumed_game_rolls_exactly_as_the_uninterrupted_one(
        tmp_path: Path, countdown_registered: None) -> None:
    uninterrupted = Session.new(countdown.GAME, countdown.SETUP, seed=99)
    resumed_path = tmp_path / "game.journal"
    first = Session.new(countdown.GAME, countdown.SETUP, seed=99, journal_path=resumed_path)
    for step in range(12):
        for session in (uninterrupted, first):
            if session.is_chance():
                session.roll()
            else:
                session.propose(session.legal_actions()[0])
        if step == 5:
            first.close()
            first = Session.resume(resumed_path)
    assert first.history == uninterrupted.history
    assert first.state == uninterrupted.state
    first.close()


def test_the_journal_keeps_refusals_and_undos_but_replays_only_the_game(
        tmp_path: Path, countdown_registered: None) -> None:
    with _new(tmp_path) as session:
        session.propose("roll 3")
        session.propose("take Ann 4")
        session.propose("take Ann 2")
        session.undo()
    kinds = [r["type"] for r in read_journal(tmp_path / "game.journal").records]
    assert kinds == ["action", "refused", "action", "undo"]
    summary = journal_summary(tmp_path / "game.journal")
    assert summary["game"] == "countdown" and summary["actions"] == 1
    with Session.resume(tmp_path / "game.journal") as resumed:
        assert resumed.history == ["roll 3"]
