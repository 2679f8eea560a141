"""The app's logic without Kivy: the table controller, journals shelf, Infinifield view
model, dice tray, settings, translations, simulated outputs, NFC link and sd_notify."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.controller import TableController
from companion.app.dice_tools import (
    DIE_KINDS,
    WORD_KEYS,
    DiceTray,
    UnknownDie,
    parse_physical,
)
from companion.app.game_setups import SETUPS, PlayerRange
from companion.app.i18n import LANGUAGES, Translator, UnknownLanguage, catalogue
from companion.app.journal_shelf import JournalShelf
from companion.app.nfc_link import NfcLink, simulated_uid
from companion.app.settings_store import AppSettings, SettingsError
from companion.app.simulated_outputs import SimulatedOutputs
from companion.app.verdict_text import GAME_TEXT_PREFIXES
from companion.app.views.infinifield_view import block_at, block_views, counter_ring, tap_action
from companion.games.core import Event
from hardware.patterns import PATTERNS
from tests.app.countdown_setup import register_countdown

APP = Path(__file__).resolve().parents[2] / "companion" / "app"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableController]:
    unregister = register_countdown()
    controller = TableController(JournalShelf(tmp_path / "journals"))
    yield controller
    controller.close_game()
    unregister()


# -- the table -----------------------------------------------------------------------------
def test_undo_check_refuses_a_virtual_roll_but_allows_a_typed_one(table: TableController) -> None:
    """session.py "Undo": a virtual roll stands; a mistyped physical roll can be taken back."""
    table.start("countdown", "pile of 7", seed=4)
    assert table.undo_check().code == "nothing_to_undo"
    table.roll()
    check = table.undo_check()
    assert not check.allowed and check.code == "virtual_roll_stands"
    assert check.rule == 'companion: "Undo", a virtual roll stands'
    refused = table.undo()
    assert not refused.legal and len(table.require_session().record) == 1
    table.close_game()
    table.start("countdown", "pile of 7", seed=4)
    table.propose("roll 3", source="typed")
    assert table.undo_check().allowed and table.undo().legal
    assert table.require_session().history == []
    assert [entry.legal for entry in table.log] == [True, True]


def test_unreadable_text_is_a_refusal_not_a_crash(table: TableController) -> None:
    """An unreadable entry becomes a refused verdict naming the problem (nothing recorded)."""
    table.start("countdown", "pile of 7", seed=4)
    verdict = table.propose("dance wildly")
    assert not verdict.legal and verdict.code == "unreadable"
    assert "expected `roll D`" in verdict.reason
    assert table.require_session().history == []
    assert table.log[-1].legal is False


def test_listeners_and_outputs_follow_every_game(table: TableController) -> None:
    """Outputs subscribe to each new session's bus; listeners hear every change."""
    seen: list[str] = []
    changes: list[int] = []
    table.add_output(lambda event: seen.append(event.kind))
    table.on_change(lambda: changes.append(1))
    table.start("countdown", "pile of 7", seed=4)
    table.propose("roll 9", source="typed")
    table.start("countdown", "pile of 7", seed=4)
    table.propose("roll 2", source="typed")
    assert seen == ["illegal", "rolled"]
    assert len(changes) >= 4


def test_shelf_lists_unfinished_games_newest_first_and_resumes(table: TableController,
                                                                tmp_path: Path) -> None:
    """The home screen's resume list: unfinished journals only; a finished game is left out."""
    first = table.start("countdown", "pile of 7", seed=1)
    first.propose("roll 6")
    first.propose("take Ann 6")
    second = table.start("countdown", "pile of 7", seed=2)
    second.propose("roll 6")
    second.propose("take Ann 6")
    second.propose("roll 1")
    second.propose("take Bea 1")
    assert second.finished
    table.close_game()
    (tmp_path / "journals" / "broken.journal").write_text("not a journal\n")
    unfinished = table.shelf.unfinished()
    assert [game.path for game in unfinished] == [first.journal.path]  # type: ignore[union-attr]
    assert unfinished[0].actions == 2 and unfinished[0].game == "countdown"
    resumed = table.resume_latest()
    assert resumed is not None and resumed.history == ["roll 6", "take Ann 6"]
    assert [entry.number for entry in table.log] == [1, 2]


def test_new_journal_paths_never_clash(tmp_path: Path) -> None:
    shelf = JournalShelf(tmp_path)
    first = shelf.new_path("401", now=0)
    first.write_text("x")
    assert shelf.new_path("401", now=0).name == "401-19700101-000000-2.journal"


def test_chosen_options_reach_the_engine_and_bad_values_are_named(
        table: TableController) -> None:
    """infinifield.md "Scoring": rounds won or points, agreed before the match."""
    session = table.start("infinifield", "quickstart", ["Ann", "Ben"], seed=1,
                          chosen={"scoring": "rounds"})
    assert session.state.rules.scoring == "rounds"
    with pytest.raises(ValueError, match="scoring cannot be 'goals'; choose one of points"):
        SETUPS["infinifield"].build_options(["Ann", "Ben"], "quickstart", {"scoring": "goals"})


def test_player_range_refuses_a_wrong_count() -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        PlayerRange(2, 4, ("A", "B", "C", "D")).defaults(5)
    assert SETUPS["infinifield"].build_options(["Ann", "Ben"]) == {"players": ["Ann", "Ben"]}


# -- Infinifield view ----------------------------------------------------------------------
def _infinifield(table: TableController):  # type: ignore[no-untyped-def]
    return table.start("infinifield", "quickstart", ["Ann", "Ben"], seed=1)


def test_a_tap_stands_for_the_phase_action(table: TableController) -> None:
    """infinifield.md "Select starting positions" 2, "Chase-and-capture" 6 and 7."""
    session = _infinifield(table)
    assert tap_action(session.state, "W1") == "start Ben W1"
    session.propose("start Ben W1")
    session.propose("start Ann W8")
    assert tap_action(session.state, "Y1") == "move Ben W1 Y1"
    assert session.propose(tap_action(session.state, "R6") or "").code != ""


def test_counter_ring_mirrors_the_counter_and_a_due_removal() -> None:
    """infinifield.md "Chase-and-capture" 7: the player who puts the counter on X removes."""
    from types import SimpleNamespace

    assert counter_ring(SimpleNamespace(counter=0, phase="move")) == \
        ["off", "off", "off", "off", "lit"]
    assert counter_ring(SimpleNamespace(counter=3, phase="move")) == \
        ["off", "off", "lit", "off", "off"]
    assert counter_ring(SimpleNamespace(counter=0, phase="remove"))[4] == "due"


def test_blocks_fit_the_board_and_taps_find_them(table: TableController) -> None:
    """Every block still on the field is drawn inside the board; a tap finds the top one."""
    session = _infinifield(table)
    views = block_views(session.state, 500, 300)
    assert len(views) == 24 and {v.letter for v in views} == {"W", "Y", "R", "B"}
    for view in views:
        assert all(0 <= x <= 500 and 0 <= y <= 300 for x, y in view.outline)
        assert block_at(views, *view.centre) == view.id
    assert block_at(views, -5, -5) is None
    assert not any(v.removable for v in views), "highlighted only when a removal is due"


def test_raised_blocks_are_drawn_over_the_ones_they_rest_on(tmp_path: Path) -> None:
    """infinifield.md pictures 1-2 (3D fields): a bridge block is drawn on top."""
    from companion.games.registry import load_game
    from companion.resources import shipped_sources

    game = load_game("infinifield")
    sources = shipped_sources("companion.games.infinifield", {"setup": "fields/castle3d.toml"})
    state = game.initial_state(game.load_setup(sources, {"players": ["Ann", "Ben"]}))
    views = block_views(state, 500, 300)
    order = [v.id for v in views]
    assert order.index("W1") > order.index("Y5") and order.index("W1") > order.index("Y7")
    w1 = next(v for v in views if v.id == "W1")
    assert w1.raised and block_at(views, *w1.centre) == "W1"


# -- dice, settings, translations ----------------------------------------------------------
def test_action_dice_faces_follow_the_rulebook() -> None:
    """infinities-defiance-of-fate.md "2.6.1 - Action checks": 3 sides of the die's own
    attribute, 1 of each other attribute, and a 0."""
    for kind, own in (("fortitude", "F"), ("power", "P"), ("tide", "T")):
        faces = DIE_KINDS[kind].faces
        assert len(faces) == 6 and faces.count(own) == 3 and faces.count("0") == 1
        assert {f for f in faces if f not in (own, "0")} == {"F", "P", "T"} - {own}
    tray = DiceTray(random.Random(1))
    assert all(face in DIE_KINDS["d20"].faces for face in tray.roll("d20", 10))
    with pytest.raises(UnknownDie, match="the tray has d6"):
        tray.roll("d7")
    with pytest.raises(ValueError, match="1 to 10 dice"):
        tray.roll("d6", 11)
    assert parse_physical("tide", "T 0 F") == ("T", "0", "F")
    with pytest.raises(ValueError, match="'7' is not a face of a d6"):
        parse_physical("d6", "3 7")


def test_settings_errors_name_the_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"language": "fr"}))
    with pytest.raises(SettingsError, match=r"settings.json: language 'fr' is not one of"):
        AppSettings.load(path)
    path.write_text(json.dumps({"sound": "loud"}))
    with pytest.raises(SettingsError, match="sound must be a bool"):
        AppSettings.load(path)
    path.write_text(json.dumps({"volume": 3}))
    with pytest.raises(SettingsError, match="unknown key 'volume'"):
        AppSettings.load(path)


def test_every_language_has_every_string_with_the_same_placeholders() -> None:
    """Issue 9: English, Spanish and Russian, every user-visible string translatable.

    The engines' own words (``refusal.*``, ``event.*``, ``term.*``) are checked against the
    engines' call sites in ``test_verdict_text.py``: English may leave them to the engine.
    """
    english = {key: text for key, text in catalogue("en").items()
               if not key.startswith(GAME_TEXT_PREFIXES)}
    for lang in LANGUAGES:
        table = catalogue(lang)
        assert {key for key in table if not key.startswith(GAME_TEXT_PREFIXES)} \
            == set(english), lang
        for key, text in english.items():
            assert set(re.findall(r"{(\w+)}", table[key])) == set(re.findall(r"{(\w+)}", text))
            assert table[key].strip(), f"{lang}: {key} is empty"
    assert catalogue("ru")["home.settings"] == "Настройки"
    with pytest.raises(UnknownLanguage, match="choose one of en, es, ru"):
        Translator("fr")


def test_every_key_the_views_use_exists() -> None:
    """No .kv or screen module shows a literal the catalogue does not have."""
    english = catalogue("en")
    used: set[str] = set()
    for path in list(APP.rglob("*.kv")) + list(APP.rglob("*.py")):
        used.update(re.findall(r"""tr\(\s*["']([a-z_]+\.[a-z_.]+)["']""", path.read_text()))
    used.update(f"source.{s}" for s in ("typed", "touch", "virtual", "camera", "nfc"))
    used.update(f"keypad.{key}" for key in WORD_KEYS)
    used.update(f"buzz.{name}" for name in PATTERNS)  # the simulated buzzer names them
    assert len(used) > 40
    assert sorted(used - set(english)) == []


def test_kv_labels_never_hold_literal_words() -> None:
    """Every ``text:`` in the .kv files is an expression (translated), never a quoted word."""
    for path in APP.rglob("*.kv"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = re.match(r"\s*text:\s*'([^']*)'\s*$", line)
            if match:
                assert not re.search(r"[A-Za-z]{2,}", match.group(1)), f"{path.name}:{number}"


# -- outputs, NFC, systemd -----------------------------------------------------------------
def test_simulated_outputs_follow_the_hardware_mapping() -> None:
    """docs/events.md: illegal, capture, removal_due, victory each have a buzzer pattern."""
    outputs = SimulatedOutputs()
    outputs(Event("removal_due", {"player": "Ann"}))
    assert outputs.ring == ("off", "off", "off", "off", "due") and outputs.buzz == "removal_due"
    outputs(Event("illegal", {"action": "x"}))
    outputs(Event("capture", {"by": "Ann", "captured": "Ben", "block": "Y1"}))
    assert outputs.recent == ("removal_due", "illegal", "capture") and outputs.status == "ok"
    outputs.sound = False
    outputs(Event("victory", {"winners": ["Ann"]}))
    assert outputs.buzz == "capture", "no sound when the players turned it off"


def test_simulated_nfc_tap_crosses_threads_into_the_main_loop(table: TableController) -> None:
    """A tap arrives on another thread; only the posted call (main loop) touches the session."""
    session = _infinifield(table)
    posted: list[tuple[object, tuple[object, ...]]] = []
    link = NfcLink(table, lambda fn, *args: posted.append((fn, args)))
    assert "W1" in link.simulated_cards()
    thread = link.simulate_tap("W1")
    assert thread is not None
    thread.join(timeout=5)
    assert session.history == [], "nothing happened on the tapping thread"
    function, args = posted[0]
    assert threading.current_thread() is threading.main_thread()
    function(*args)  # type: ignore[operator]
    assert session.history == ["start Ben W1"] and session.record[-1].source == "nfc"
    assert table.log[-1].source == "nfc"
    assert link.simulated.card_for("infinifield", simulated_uid("W1")) == "W1"
    assert link.cards.card_for("infinifield", simulated_uid("W1")) is None, \
        "simulated pairings never reach the players' pairings (saved to cards.toml)"


def test_a_torn_journal_tail_is_set_aside_and_told(table: TableController) -> None:
    """DESIGN.md "Session, journal": a torn last line from a power cut is dropped, never
    corrupting what came before; the players are told what was set aside."""
    session = table.start("countdown", "pile of 7", seed=4)
    session.propose("roll 3", source="typed")
    path = session.journal.path  # type: ignore[union-attr]
    table.close_game()
    with open(path, "ab") as journal:
        journal.write(b'{"type":"action","n":2,"act')
    resumed = table.resume(path)
    assert resumed.history == ["roll 3"]
    assert "were cut short or garbled (power cut?) and were set aside" in table.notice
    table.close_game()
    assert table.notice == ""


@pytest.mark.parametrize("module", [
    "companion.app.controller", "companion.app.dice_tools", "companion.app.game_setups",
    "companion.app.i18n", "companion.app.journal_shelf", "companion.app.nfc_link",
    "companion.app.sdnotify", "companion.app.settings_store", "companion.app.simulated_outputs",
    "companion.app.theme", "companion.app.camera_replay", "companion.app.main",
    "companion.app.views.infinifield_view", "companion.app.views.infinidungeon_view",
    "companion.app.views.infinite401_view", "companion.app.views.infinity_view",
    "companion.app.views.defiance_view"])
def test_docstring_examples_run(module: str) -> None:
    """The examples in the app's docstrings are true."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_live_camera_frames_reach_the_watcher_once_each_on_the_main_loop(
        table: TableController, tmp_path: Path) -> None:
    """DESIGN.md: the camera's thread only grabs; the main loop feeds each new frame once to
    the watcher, and the grabber's status reaches the app through the posted call."""
    import shutil

    from companion.app.camera_watch import CameraFeed, CameraWatch, sample_game_sources

    sources = sample_game_sources()
    if sources is None:
        pytest.skip("vision.samples (the recorded footage) is not installed")
    folder = tmp_path / "camera"
    folder.mkdir()
    from importlib import resources

    samples = Path(str(resources.files("vision.samples")))
    shutil.copy(samples / "00_field.jpg", folder / "a.jpg")
    table.start_from("infinifield", sources, seed=1)
    posted: list[tuple[object, tuple[object, ...]]] = []
    statuses: list[str] = []
    feed = CameraFeed(str(folder), CameraWatch(table),
                      lambda fn, *args: posted.append((fn, args)), on_status=statuses.append)
    feed.start()
    try:
        number, frame = feed.grabber.wait_frame(0, timeout=10)
        assert frame is not None and number >= 1
        report = feed.poll()
        assert report is not None and feed.watch.status == "moving"
        if feed.grabber.latest()[0] == number:
            assert feed.poll() is None, "the same frame is not fed twice"
        for _ in range(100):
            if posted:
                break
            threading.Event().wait(0.05)
        assert posted and statuses == [], "nothing ran on the grabber's thread"
        function, args = posted[0]
        function(*args)  # type: ignore[operator]
        assert statuses and statuses[0].startswith("camera_")
    finally:
        feed.close()


def test_games_started_in_the_same_second_list_newest_first(
        table: TableController, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15 item 10: the unfinished list is newest started first, also for two games
    started within one second (the second's journal is named ``...-2.journal``)."""
    monkeypatch.setattr("companion.app.journal_shelf.time.time", lambda: 1_800_000_000.0)
    first = table.start("countdown", "pile of 7", seed=4)
    first.propose("roll 3", source="typed")
    table.close_game()
    second = table.start("countdown", "pile of 7", seed=5)
    second.propose("roll 2", source="typed")
    assert second.journal is not None and second.journal.path.name.endswith("-2.journal")
    table.close_game()
    names = [game.path.name for game in table.shelf.unfinished()]
    assert names[0].endswith("-2.journal") and len(names) == 2
