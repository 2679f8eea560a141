"""The turn-counter ring and the status light on gpiozero mock pins."""

from __future__ import annotations

import time

import pytest

from hardware.factory import mock_factory
from hardware.ring import TurnCounterRing
from hardware.status import StatusLight

RING_PINS = ("GPIO5", "GPIO6", "GPIO13", "GPIO19", "GPIO26")


def pulse_cycle(fade: float) -> list[tuple[float, float]]:
    """One cycle of gpiozero's pulse at 25 frames/s: (delay, brightness) pairs."""
    frames = int(25 * fade)
    rising = [(0.04, i * (1 / 25) / fade) for i in range(1, frames)]
    falling = [(0.04, 1 - (i * (1 / 25) / fade)) for i in range(frames)]
    return [*rising, *falling, (0.04, 0.0)]


@pytest.fixture
def ring() -> TurnCounterRing:
    with TurnCounterRing(*RING_PINS, pin_factory=mock_factory()) as device:
        yield device


def test_the_current_position_alone_is_lit(ring: TurnCounterRing) -> None:
    """infinifield.md "Chase-and-capture" step 7: the counter advances 1, 2, 3, 4, X."""
    for index, position in enumerate((1, 2, 3, 4, "X")):
        ring.show(position)
        assert tuple(ring.value) == tuple(1.0 if i == index else 0.0 for i in range(5))
        assert ring.position == position and not ring.removal_due


def test_moving_on_switches_the_old_light_off_as_the_new_one_comes_on(
        ring: TurnCounterRing) -> None:
    ring.show(1)
    one, two = ring.one.pin, ring.two.pin
    one.clear_states()
    two.clear_states()
    time.sleep(0.1)
    ring.show(2)
    one.assert_states_and_times([(0, 1), (0.1, 0)])
    two.assert_states_and_times([(0, 0), (0.1, 1)])
    assert (len(one.states), len(two.states)) == (2, 2)


def test_x_pulses_while_a_removal_is_due(ring: TurnCounterRing) -> None:
    """infinifield.md "Chase-and-capture" step 7: whoever puts the counter on X removes a
    block; X pulses (fades in and out, 0.5 s each way) until then."""
    x_pin = ring.x.pin
    ring.show("X")
    x_pin.clear_states()
    ring.show("X", removal_due=True)
    # steady on, then the pulse starts dark, fades in and out (0.5 s each way), and again
    expected = [(0, 1), (0, 0), *pulse_cycle(0.5)]
    deadline = time.monotonic() + 10
    while len(x_pin.states) <= len(expected) and time.monotonic() < deadline:
        time.sleep(0.05)
    ring.show("X")  # the block was removed: steady again
    x_pin.assert_states([value for _, value in expected])  # the whole fade, frame by frame
    x_pin.assert_states_and_times(expected[:8])            # and its 40 ms frame rate
    assert len(x_pin.states) > len(expected)
    assert ring.x.value == 1.0 and not ring.removal_due


def test_advancing_stops_the_pulse_and_lights_the_next_position(ring: TurnCounterRing) -> None:
    ring.show("X", removal_due=True)
    time.sleep(0.1)
    ring.show(1)
    value = ring.x.value
    time.sleep(0.2)
    assert value == 0.0 and ring.x.value == 0.0 and ring.one.value == 1.0


@pytest.mark.parametrize(("position", "removal", "message"), [
    (5, False, "must be one of 1, 2, 3, 4, X"),
    ("Y", False, "must be one of 1, 2, 3, 4, X"),
    (3, True, "only due with the counter on X"),
])
def test_impossible_counter_states_are_refused(ring: TurnCounterRing, position: object,
                                               removal: bool, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ring.show(position, removal_due=removal)  # type: ignore[arg-type]


def test_the_ring_closes_twice_without_complaint() -> None:
    ring = TurnCounterRing(*RING_PINS, pin_factory=mock_factory())
    ring.show("X", removal_due=True)
    ring.close()
    ring.close()
    assert ring.closed


@pytest.mark.parametrize(("lost", "state", "on", "off"), [
    (["camera"], "camera_lost", 0.2, 0.2),
    (["reader"], "reader_lost", 1.0, 1.0),
    (["camera", "reader"], "both_lost", 0.05, 0.15),
])
def test_the_status_light_blinks_its_trouble(lost: list[str], state: str, on: float,
                                             off: float) -> None:
    with StatusLight("GPIO16", pin_factory=mock_factory()) as light:
        light.ready()
        light.pin.clear_states()
        for sense in lost:
            light.report(sense, ok=False)
        time.sleep(on + off + on / 2)
        assert light.state == state
        expected = [(0, 1), (on, 0), (off, 1)]
        light.pin.assert_states_and_times(expected)
        light.report(lost[0], ok=True)
        if len(lost) == 1:
            assert light.state == "ready" and light.is_lit


def test_the_status_light_is_off_while_starting_then_steady_when_ready() -> None:
    with StatusLight("GPIO16", pin_factory=mock_factory()) as light:
        assert light.state == "starting" and not light.is_lit
        light.ready()
        time.sleep(0.1)
        assert light.state == "ready" and light.is_lit
        light.pin.assert_states_and_times([(0, 0), (0, 1)])
        with pytest.raises(ValueError, match="unknown sense 'microphone'"):
            light.report("microphone", ok=False)
