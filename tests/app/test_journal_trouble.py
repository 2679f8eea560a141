"""The app never crashes on its own files: journals it cannot use, disk full, bad settings.

Issue 14: "A truncated settings.json makes the kiosk crash-loop until systemd gives up: move a
bad settings file aside, start with defaults, and say so on screen"; the app creates and
resumes journals too, so a journal held by another referee, hand-edited, or on a full disk
gives a clear message on the banner instead of ending the main loop; an action that cannot be
recorded is shown as "Not recorded" and the game goes on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.app import trouble
from companion.app.journal_shelf import JournalShelf
from companion.app.settings_store import AppSettings
from companion.journal import encode_record
from companion.session import NOT_RECORDED, Session
from tests.support import countdown
from tests.support.small_disk import fill, mounted, remount_read_only

ROOT = Path(__file__).resolve().parents[2]

BAD_SETTINGS = {
    "truncated": b'{"language": "es", "sou',
    "garbled": b'{"language": "es"\x00\xff\xfe}',
    "nan": b'{"language": "es", "sound": NaN}',
    "deep": b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "huge": b'{"language": "' + b"e" * 2_000_000 + b'"}',
    "wrong type": b'{"sound": "loud"}',
    "empty": b"",
}


# -- settings (no window needed) -------------------------------------------------------------
@pytest.mark.parametrize("kind", list(BAD_SETTINGS))
def test_a_bad_settings_file_is_moved_aside_and_the_defaults_used(tmp_path: Path,
                                                                  kind: str) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(BAD_SETTINGS[kind])
    settings = AppSettings.load_or_reset(path)
    assert settings == AppSettings()
    assert settings.reset is not None and settings.reset.moved
    assert str(path) in settings.reset.problem and len(settings.reset.problem) < 300
    kept = settings.reset.kept
    assert kept.name.startswith("settings.json.bad-") and kept.read_bytes() == BAD_SETTINGS[kind]
    assert not path.exists()
    settings.language = "ru"
    assert settings.save()
    assert AppSettings.load(path).language == "ru"


def test_a_second_bad_file_never_replaces_the_first_one_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    for content in (b"{", b"[1,"):
        path.write_bytes(content)
        AppSettings.load_or_reset(path)
    kept = sorted(p.read_bytes() for p in tmp_path.glob("settings.json.bad-*"))
    assert kept == [b"[1,", b"{"]


def test_a_bad_settings_file_that_cannot_be_moved_is_never_saved_over() -> None:
    with mounted(64) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        path = disk / "settings.json"
        path.write_bytes(b'{"language": "e')
        if not remount_read_only(disk):
            pytest.skip("cannot remount read-only")
        settings = AppSettings.load_or_reset(path)
        assert settings.reset is not None and not settings.reset.moved
        assert settings.reset.kept == path and settings.language == "en"
        settings.language = "es"
        assert not settings.save()
        assert path.read_bytes() == b'{"language": "e'


def test_saving_on_a_full_disk_keeps_the_old_settings() -> None:
    with mounted(16) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        path = disk / "settings.json"
        settings = AppSettings.load(path)
        settings.language = "es"
        assert settings.save()
        fill(disk)
        settings.language = "ru" * 5000  # a file too big for what is left
        assert not settings.save()
        assert AppSettings.load(path).language == "es"
        assert not path.with_suffix(".tmp").exists()


# -- the kiosk, started as systemd starts it ---------------------------------------------------
def test_the_kiosk_starts_once_with_bad_settings_and_an_unusable_journal(tmp_path: Path) -> None:
    """No crash loop: one process comes up, on the home screen, the bad settings set aside."""
    if not os.environ.get("DISPLAY"):
        pytest.skip("needs an X display (Xvfb)")
    from tests.app.watchdog_supervisor import Supervisor

    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "settings.json").write_bytes(BAD_SETTINGS["truncated"])
    shelf = JournalShelf(data_dir / "journals")
    path = shelf.new_path("infinifield")
    from companion.games.registry import load_game
    from companion.resources import shipped_sources

    sources = shipped_sources("companion.games.infinifield", {"setup": "fields/quickstart.toml"})
    with Session.new(load_game("infinifield"), sources, {"players": ["Ann", "Ben"]}, seed=3,
                     journal_path=path) as session:
        assert session.propose("start Ben W5").legal
        assert session.propose("start Ann W1").legal
    records = [json.loads(line.rpartition(b"\t")[0]) for line in path.read_bytes().splitlines()]
    del records[1]  # a hand edit with valid checksums: the record numbers no longer run on
    edited = b"".join(encode_record(record) for record in records)
    path.write_bytes(edited)
    command = [sys.executable, "-m", "companion.app.main", "--resume-latest", "--data-dir",
               str(data_dir), "--fps", "20"]
    supervisor = Supervisor(command, tmp_path / "notify.sock", watchdog_sec=5.0,
                            env={"KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_ARGS": "1"})
    supervisor.start()
    try:
        ready = supervisor.wait_for("READY", "1", timeout=60)
        assert ready.fields["STATUS"] == "home screen, no game open"
        assert len(supervisor.pids) == 1, "the app must not have crashed and restarted"
    finally:
        supervisor.stop()
    assert len(list(data_dir.glob("settings.json.bad-*"))) == 1
    assert path.read_bytes() == edited, "the unusable journal is left untouched"


# -- on screen (the shared app window) ---------------------------------------------------------
def _as_main_loop(driver: Any, action: Any) -> None:
    """Run ``action`` as Kivy's main loop runs a touch: an exception goes to the manager."""
    from kivy.base import ExceptionManager

    try:
        action()
    except BaseException as error:
        assert ExceptionManager.handle_exception(error) == ExceptionManager.PASS, error
    driver.frames(3)


def _countdown_journal(shelf: JournalShelf) -> Path:
    path = shelf.new_path("countdown")
    with Session.new(countdown.GAME, countdown.SETUP, {}, seed=4, journal_path=path) as session:
        assert session.propose("roll 3").legal
        assert session.propose("take Ann 2").legal  # a move: the shelf keeps the game
    return path


def _resume_button(driver: Any) -> Any:
    from tests.app.harness import go_home

    go_home(driver)
    driver.screen.refresh()
    driver.frames(2)
    buttons = [b for b in driver.buttons(driver.screen.ids.unfinished)
               if b.text.startswith("Countdown")]
    assert len(buttons) == 1
    return buttons[0]


@pytest.mark.gui
def test_resuming_a_journal_another_referee_holds_says_so_and_stays_home(driver: Any) -> None:
    app = driver.app
    path = _countdown_journal(app.table.shelf)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from companion.journal import Journal; j = Journal.open(sys.argv[1]); "
         "print('open', flush=True); sys.stdin.read()", str(path)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        button = _resume_button(driver)
        _as_main_loop(driver, lambda: driver.tap(button))
        assert driver.screen.name == "home"
        assert app.banner.shown and not app.banner.legal
        assert app.banner.headline == "This game's journal cannot be used"
        assert f"process {holder.pid} is already writing this journal" in app.banner.reason
        driver.screenshot("journal_locked")
    finally:
        holder.communicate("")
        app.banner.hide()
        path.unlink()


@pytest.mark.gui
def test_resuming_a_hand_edited_journal_names_the_line(driver: Any) -> None:
    app = driver.app
    path = app.table.shelf.new_path("countdown")
    with Session.new(countdown.GAME, countdown.SETUP, {}, seed=4, journal_path=path) as session:
        assert session.propose("roll 3").legal
        assert not session.propose("take Ann 6").legal
        assert session.propose("take Ann 2").legal
    records = [json.loads(line.rpartition(b"\t")[0]) for line in path.read_bytes().splitlines()]
    del records[2]  # the refusal's line: the game still replays, the numbers do not run on
    path.write_bytes(b"".join(encode_record(record) for record in records))
    try:
        button = _resume_button(driver)
        _as_main_loop(driver, lambda: driver.tap(button))
        assert driver.screen.name == "home"
        assert app.banner.reason == (f"{path}: line 3: record number 3 where 2 was expected: "
                                     f"a line was deleted, repeated or moved")
    finally:
        app.banner.hide()
        path.unlink()


@pytest.mark.gui
def test_an_action_the_full_disk_cannot_take_is_shown_not_recorded(driver: Any) -> None:
    app = driver.app
    with mounted(64) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        shelf = app.table.shelf
        app.table.shelf = JournalShelf(disk)
        try:
            app.table.start_from("countdown", {"setup": ("countdown.toml", "pile = 100000\n")},
                                 seed=4)
            app.open_game_screen()
            driver.frames(2)
            fill(disk)
            verdict = None
            for turn in range(300):
                verdict = app.roll() if app.table.session.is_chance() else \
                    app.propose(app.table.legal_texts()[0])
                if verdict.code == NOT_RECORDED:
                    break
                assert verdict.legal and turn < 299
            assert verdict is not None and verdict.code == NOT_RECORDED
            driver.frames(2)
            assert app.banner.headline == f"Not recorded: {verdict.action}"
            assert "disk full" in app.banner.reason
            driver.screenshot("not_recorded_disk_full")
            history = list(app.table.session.history)
            (disk / "filler.bin").unlink()
            again = app.propose(verdict.action) if verdict.source != "virtual" else app.roll()
            assert again.legal and again.action == verdict.action, \
                "the same action (the same virtual roll) is taken once there is room"
            journal = app.table.session.journal.path
            app.table.close_game()
            with Session.resume(journal) as resumed:
                assert resumed.history == [*history, verdict.action]
        finally:
            app.table.close_game()
            app.table.shelf = shelf
            app.banner.hide()
            from tests.app.harness import go_home
            go_home(driver)


@pytest.mark.gui
@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_the_settings_reset_is_said_on_screen(driver: Any, tmp_path: Path, lang: str) -> None:
    app = driver.app
    path = tmp_path / "settings.json"
    path.write_bytes(BAD_SETTINGS["truncated"])
    kept_settings = app.settings
    app.settings = AppSettings.load_or_reset(path)
    app.translator.set_language(lang)
    try:
        trouble.show_settings_reset(app)
        driver.frames(2)
        assert app.banner.shown and not app.banner.legal
        assert app.banner.headline == app.tr("banner.settings_reset")
        assert str(app.settings.reset.kept) in app.banner.reason
        assert "line 1" in app.banner.reason
    finally:
        app.translator.set_language("en")
        app.settings = kept_settings
        app.banner.hide()


@pytest.mark.gui
@pytest.mark.parametrize("trouble_kind", ["read-only", "full"])
def test_starting_a_game_whose_journal_cannot_be_written_says_so(driver: Any,
                                                                 trouble_kind: str) -> None:
    """New game, Start: with the journal folder read-only or the disk full, the banner says
    why and the new-game screen stays; no half-written journal is left."""
    from tests.app.harness import go_home

    app = driver.app
    with mounted(16) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        if trouble_kind == "read-only":
            if not remount_read_only(disk):
                pytest.skip("cannot remount read-only")
            headline, said = "This game's journal cannot be used", "read-only file system"
        else:
            (disk / "pad").write_bytes(b"\0" * 8000)  # leave less than a page
            fill(disk)
            headline = "The game was not started: its journal cannot be written"
            said = "not recorded: disk full; no game was started"
        shelf = app.table.shelf
        app.table.shelf = JournalShelf(disk)
        try:
            go_home(driver)
            driver.tap_text("Countdown")
            assert driver.screen.name == "newgame"
            _as_main_loop(driver, lambda: driver.tap(driver.widget("start")))
            assert driver.screen.name == "newgame"
            assert app.table.session is None
            assert app.banner.headline == headline and said in app.banner.reason
            assert not list(disk.glob("*.journal"))
        finally:
            app.table.shelf = shelf
            app.banner.hide()
            go_home(driver)
