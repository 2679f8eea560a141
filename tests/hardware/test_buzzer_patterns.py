"""Every buzzer pattern on gpiozero mock pins, checked with ``assert_states_and_times``.

The rhythms are the ones documented in ``docs/wiring.md`` "What the players hear" and issue 8
("distinct patterns for trap sprung, illegal action, capture, removal due, victory, defeat").
"""

from __future__ import annotations

import time

import pytest

from hardware.buzzer import PatternBuzzer
from hardware.factory import mock_factory
from hardware.patterns import (
    CAPTURE,
    CHIME,
    DEFEAT,
    ILLEGAL,
    KNOCK,
    PATTERNS,
    REMOVAL_DUE,
    TICK,
    TRAP_SPRUNG,
    VICTORY,
    Pattern,
)

# (seconds since the previous change, buzzer sounding) as gpiozero's MockPin records them.
EXPECTED = {
    "trap_sprung": [(0, 0), (0, 1), (0.06, 0), (0.06, 1), (0.06, 0), (0.06, 1), (0.06, 0),
                    (0.06, 1), (0.06, 0)],
    "illegal": [(0, 0), (0, 1), (0.4, 0), (0.1, 1), (0.4, 0)],
    "capture": [(0, 0), (0, 1), (0.05, 0), (0.05, 1), (0.25, 0)],
    "removal_due": [(0, 0), (0, 1), (0.15, 0), (0.15, 1), (0.15, 0), (0.15, 1), (0.15, 0)],
    "victory": [(0, 0), (0, 1), (0.1, 0), (0.05, 1), (0.1, 0), (0.05, 1), (0.1, 0), (0.05, 1),
                (0.5, 0)],
    "defeat": [(0, 0), (0, 1), (0.8, 0), (0.2, 1), (0.2, 0), (0.2, 1), (0.8, 0)],
    "knock": [(0, 0), (0, 1), (0.15, 0)],
    "chime": [(0, 0), (0, 1), (0.03, 0), (0.05, 1), (0.03, 0)],
    "tick": [(0, 0), (0, 1), (0.02, 0)],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_pattern_sounds_its_documented_rhythm(name: str) -> None:
    with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
        buzzer.pin.clear_states()
        buzzer.play(PATTERNS[name], background=False)
        buzzer.pin.assert_states_and_times(EXPECTED[name])
        assert len(buzzer.pin.states) == len(EXPECTED[name])
        assert not buzzer.is_active


def test_the_six_table_patterns_are_told_apart_by_rhythm() -> None:
    """Issue 8: distinct patterns for trap sprung, illegal, capture, removal due, victory,
    defeat (the cues the players must recognise without looking)."""
    six = [TRAP_SPRUNG, ILLEGAL, CAPTURE, REMOVAL_DUE, VICTORY, DEFEAT]
    assert len({pattern.steps for pattern in six}) == 6
    assert {KNOCK.steps, CHIME.steps, TICK.steps}.isdisjoint(p.steps for p in six)


def test_an_active_low_buzzer_is_driven_low_to_sound() -> None:
    with PatternBuzzer("GPIO12", active_high=False, pin_factory=mock_factory()) as buzzer:
        buzzer.pin.clear_states()
        buzzer.play(CAPTURE, background=False)
        buzzer.pin.assert_states_and_times([(0, 1), (0, 0), (0.05, 1), (0.05, 0), (0.25, 1)])


def test_play_returns_at_once_and_the_pattern_runs_in_the_background() -> None:
    with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
        buzzer.play(DEFEAT)
        assert buzzer.playing is DEFEAT
        deadline = time.monotonic() + 0.5
        while not buzzer.is_active and time.monotonic() < deadline:
            time.sleep(0.001)
        assert buzzer.is_active
        time.sleep(DEFEAT.duration + 0.2)
        assert buzzer.playing is None and not buzzer.is_active


def test_a_higher_or_equal_priority_pattern_cuts_in_and_a_lower_one_is_dropped() -> None:
    with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
        buzzer.pin.clear_states()
        assert buzzer.offer(CAPTURE)
        time.sleep(0.02)
        assert buzzer.offer(VICTORY)          # the capture won the game: fanfare at once
        assert not buzzer.offer(TICK)         # a later tick must not cut the fanfare
        assert buzzer.wait(VICTORY.duration + 1.0)
        expected = [(0, 0), (0, 1), (0.02, 0), (0, 1), *EXPECTED["victory"][2:]]
        buzzer.pin.assert_states_and_times(expected)
        assert len(buzzer.pin.states) == len(expected)


def test_closing_twice_is_harmless_and_stops_the_sound() -> None:
    buzzer = PatternBuzzer("GPIO12", pin_factory=mock_factory())
    buzzer.play(Pattern("long", ((5.0, 0.0),), 1))
    buzzer.close()
    buzzer.close()
    assert buzzer.closed


def test_switching_the_buzzer_by_hand_stops_the_pattern() -> None:
    """gpiozero's own beep stops when the buzzer is switched by hand; a pattern does too, so a
    pattern never overrides what the caller set (on, off, value, beep)."""
    with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
        buzzer.pin.clear_states()
        buzzer.play(DEFEAT)
        time.sleep(0.1)
        buzzer.off()
        assert buzzer.playing is None
        time.sleep(0.05)
        buzzer.on()
        time.sleep(DEFEAT.steps[0][0])  # past the end of the pattern's first buzz
        assert buzzer.is_active
        assert [state.state for state in buzzer.pin.states] == [False, True, False, True]
        buzzer.play(TICK)
        buzzer.value = 1
        assert buzzer.playing is None and buzzer.is_active
        buzzer.play(VICTORY)
        buzzer.beep(0.05, 0.05, n=1, background=False)
        assert buzzer.playing is None and not buzzer.is_active


def test_closing_in_the_middle_of_a_buzz_silences_the_buzzer_first() -> None:
    buzzer = PatternBuzzer("GPIO12", pin_factory=mock_factory())
    pin = buzzer.pin
    pin.clear_states()
    buzzer.play(Pattern("long", ((5.0, 0.0),), 1))
    time.sleep(0.1)
    buzzer.close()
    assert [state.state for state in pin.states][:3] == [False, True, False]
    assert pin.states[2].timestamp < 1.0  # silenced at close, not at the end of the 5 s buzz


def test_a_closed_buzzer_refuses_a_new_pattern() -> None:
    from gpiozero import DeviceClosed

    buzzer = PatternBuzzer("GPIO12", pin_factory=mock_factory())
    buzzer.close()
    with pytest.raises(DeviceClosed):
        buzzer.play(TICK)
    assert buzzer.playing is None
