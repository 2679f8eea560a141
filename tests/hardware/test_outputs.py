"""The table outputs as the session's subscriber: event mapping, pin map, pin factory."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from companion.events import EventBus
from companion.games.core import Event
from hardware.factory import PinFactoryError, choose_pin_factory
from hardware.mapping import all_sounds, sound_for
from hardware.outputs import TableOutputs
from hardware.patterns import PATTERNS
from hardware.pins import PinMapError, load_pins, pins_from_text

EVENTS_DOC = Path(__file__).parents[2] / "docs" / "events.md"


def documented_kinds() -> set[str]:
    """Every event kind in the tables of docs/events.md (first column, in backticks)."""
    kinds = set()
    for line in EVENTS_DOC.read_text().splitlines():
        match = re.match(r"^\|\s*((?:`[a-z_]+`(?:\s*/\s*)?)+)\s*\|", line)
        if match:
            kinds.update(re.findall(r"`([a-z_]+)`", match.group(1)))
    return kinds


@pytest.fixture
def outputs() -> TableOutputs:
    from hardware.factory import mock_factory
    with TableOutputs(pin_factory=mock_factory()) as device:
        yield device


def test_every_documented_event_kind_of_every_game_has_a_deliberate_output() -> None:
    kinds = documented_kinds()
    assert {"trap_sprung", "capture", "removal_due", "hp_changed", "respawn", "wound"} <= kinds
    assert kinds - set(all_sounds()) == set()
    assert {name for name in all_sounds().values() if name} <= set(PATTERNS)


@pytest.mark.parametrize(("event", "pattern"), [
    (Event("illegal", {"action": "move Ann W1 R9", "code": "not_adjacent", "reason": "",
                       "rule": ""}), "illegal"),
    (Event("trap_sprung", {"room": "R1", "doorway": "north", "face": 6}), "trap_sprung"),
    (Event("capture", {"by": "Ann", "captured": "Ben", "block": "Y2"}), "capture"),
    (Event("removal_due", {"player": "Ann"}), "removal_due"),
    (Event("victory", {"winners": ["Ann"], "termination": "last_pawn", "detail": ""}),
     "victory"),
    (Event("defeat", {"losers": ["solo"], "termination": "no_dice", "detail": ""}), "defeat"),
    (Event("defeat", {"leader": "Kira"}), "knock"),
])
def test_the_six_table_events_each_start_their_own_pattern(outputs: TableOutputs,
                                                           event: Event, pattern: str) -> None:
    """docs/events.md: illegal, trap_sprung, capture, removal_due, victory and defeat each have
    a pattern of their own; Defiance's per-leader defeat is a knock (the game goes on)."""
    assert sound_for(event) == pattern
    assert outputs(event) == pattern
    assert outputs.buzzer.playing is PATTERNS[pattern]


def test_the_counter_ring_follows_an_infinifield_turn_cycle(outputs: TableOutputs) -> None:
    """infinifield.md "Chase-and-capture" step 7 and setup step 4."""
    bus = EventBus()
    bus.subscribe(outputs)
    seen = []
    for position in (1, 2, 3, 4):
        bus.publish([Event("counter_advanced", {"position": position, "player": "Ann"})])
        seen.append((outputs.ring.position, outputs.ring.removal_due))
    bus.publish([Event("counter_advanced", {"position": "X", "player": "Ben"}),
                 Event("removal_due", {"player": "Ben"})])
    seen.append((outputs.ring.position, outputs.ring.removal_due))
    bus.publish([Event("block_removed", {"player": "Ben", "block": "R2"})])
    seen.append((outputs.ring.position, outputs.ring.removal_due))
    assert seen == [(1, False), (2, False), (3, False), (4, False), ("X", True), ("X", False)]


def test_handling_an_event_returns_while_the_sound_still_plays(outputs: TableOutputs) -> None:
    outputs(Event("defeat", {"losers": ["solo"], "termination": "t", "detail": ""}))
    assert outputs.buzzer.playing is PATTERNS["defeat"]  # its thread is still running
    time.sleep(0.3)
    assert outputs.buzzer.is_active  # 0.3 s in: still inside the first 0.8 s buzz


def test_one_action_s_events_end_on_the_most_important_sound(outputs: TableOutputs) -> None:
    """A capture that ends the match: capture, eliminated, round_over, match_over, victory.
    The fanfare plays; the knock and the chime in between do not cut in after it."""
    played = [outputs(Event(kind, data)) for kind, data in [
        ("capture", {"by": "Ann", "captured": "Ben", "block": "Y2"}),
        ("eliminated", {"player": "Ben", "why": "captured"}),
        ("round_over", {"round": 3, "winner": "Ann", "scores": {}}),
        ("match_over", {"winners": ["Ann"], "scores": {}}),
        ("victory", {"winners": ["Ann"], "termination": "match", "detail": ""}),
        ("turn_changed", {"player": "Ben", "round": 4}),
    ]]
    assert played == ["capture", None, None, None, "victory", None]
    assert outputs.buzzer.playing is PATTERNS["victory"]


def test_after_a_sound_ends_a_quieter_one_plays_again(outputs: TableOutputs) -> None:
    outputs(Event("capture", {"by": "Ann", "captured": "Ben", "block": "Y2"}))
    time.sleep(PATTERNS["capture"].duration + 0.1)
    assert outputs(Event("counter_advanced", {"position": 2, "player": "Ann"})) == "tick"


def test_closing_the_outputs_twice_is_harmless_and_later_events_are_ignored() -> None:
    from hardware.factory import mock_factory
    outputs = TableOutputs(pin_factory=mock_factory())
    outputs.close()
    outputs.close()
    assert outputs.closed
    assert outputs(Event("victory", {"winners": [], "termination": "", "detail": ""})) is None


def test_the_shipped_pin_map_wires_every_output_to_its_own_pin() -> None:
    pins = load_pins(Path(__file__).parents[2] / "hardware" / "pins.toml")
    used = [*pins.ring.values(), pins.buzzer, pins.status]
    assert len(set(used)) == 7 and pins.buzzer_active_high


@pytest.mark.parametrize(("text", "message"), [
    ("[buzzer]\npin = 'GPIO5'", r"mine.toml: buzzer.pin: GPIO5 is already used by ring.one"),
    ("[ring]\nsix = 'GPIO2'", r"mine.toml: ring.six: unknown key; .*expected one of: four, one"),
    ("[lights]\npin = 3", r"mine.toml: lights: unknown key; .*expected one of: buzzer, ring"),
    ("[status]\npin = 'pin seven'", r"mine.toml: status.pin: 'pin seven' is not a pin name"),
    ("[buzzer]\nactive_high = 'yes'", r"mine.toml: buzzer.active_high: expected true or false"),
    ("[buzzer\npin = 3", r"mine.toml: .*line 1"),
])
def test_a_bad_pin_map_names_the_file_and_key(text: str, message: str) -> None:
    with pytest.raises(PinMapError, match=message):
        pins_from_text(text, "mine.toml")


def test_a_user_pin_map_overrides_only_what_it_names(tmp_path: Path) -> None:
    path = tmp_path / "pins.toml"
    path.write_text("[buzzer]\npin = 18\nactive_high = false\n")
    pins = load_pins(path)
    assert (pins.buzzer, pins.buzzer_active_high, pins.ring["x"]) == ("GPIO18", False, "GPIO26")
    with pytest.raises(PinMapError, match=r"missing\.toml: cannot read"):
        load_pins(tmp_path / "missing.toml")


def test_pin_factory_is_mock_off_a_pi_and_lgpio_on_one(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    assert type(choose_pin_factory({}, str(tmp_path / "none"))).__name__ == "MockFactory"
    assert type(choose_pin_factory({"GPIOZERO_PIN_FACTORY": "mock"}, str(model))
                ).__name__ == "MockFactory"
    assert choose_pin_factory({"GPIOZERO_PIN_FACTORY": "lgpio"}, str(model)) is None
    try:
        import lgpio  # noqa: F401
    except ImportError:
        with pytest.raises(PinFactoryError, match=r"pip install '.\[pi\]'"):
            choose_pin_factory({}, str(model))
    else:  # pragma: no cover - only on a Pi with lgpio installed
        assert type(choose_pin_factory({}, str(model))).__name__ == "LGPIOFactory"


def test_a_pi_without_lgpio_gets_gpiozero_s_bad_pin_factory_naming_the_extra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/wiring.md: on a Pi the outputs need lgpio (``pip install '.[pi]'``); without it
    gpiozero's own BadPinFactory (an ImportError) says so, on any machine."""
    from gpiozero import BadPinFactory, GPIOZeroError

    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.5\x00")
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # lgpio cannot be imported
    with pytest.raises(BadPinFactory, match=r"lgpio is not installed: pip install '.\[pi\]'"
                       ) as caught:
        choose_pin_factory({}, str(model))
    assert isinstance(caught.value, ImportError)
    assert isinstance(caught.value.__cause__, ImportError)
    assert PinFactoryError is BadPinFactory
    assert issubclass(PinMapError, GPIOZeroError) and issubclass(PinMapError, ValueError)


def test_each_game_brings_its_own_sounds_and_two_games_may_not_disagree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: a game's event sounds live in its own GameInfo; the hardware gathers them, and
    a kind two games give different sounds is refused naming both."""
    from dataclasses import replace
    from types import SimpleNamespace

    import hardware.mapping as mapping
    from companion.games.registry import all_games

    games = [game for game in all_games() if game.__module__.startswith("companion.games.")]
    assert len(games) >= 5  # other tests may register engines of their own
    for game in games:
        assert game.info.sounds, f"{game.name} states no sounds"
        for kind, pattern in game.info.sounds.items():
            assert all_sounds()[kind] == pattern
    field = next(game for game in games if game.name == "infinifield")
    rival = SimpleNamespace(name="rival", info=replace(field.info, sounds={"capture": "knock"}))
    monkeypatch.setattr(mapping, "all_games", lambda: [field, rival])
    mapping.all_sounds.cache_clear()
    try:
        with pytest.raises(mapping.SoundClash, match="rival: event 'capture' sounds 'knock', "
                                                     "but infinifield gives it 'capture'"):
            mapping.all_sounds()
    finally:
        mapping.all_sounds.cache_clear()
