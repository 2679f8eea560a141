"""The Infinifield five-turn counter circle as a ring of five LEDs.

The counter pawn moves 1, 2, 3, 4, X, 1...; the LED of its position is lit. When it lands on
X a block removal is due and the X LED pulses until the block is removed
(``infinifield.md`` "Chase-and-capture" step 7). At the start of a round the counter sits on X
(setup step 4), lit steadily.

Example:
    >>> from hardware.factory import mock_factory
    >>> with TurnCounterRing("GPIO5", "GPIO6", "GPIO13", "GPIO19", "GPIO26",
    ...                      pin_factory=mock_factory()) as ring:
    ...     ring.show(3)
    ...     tuple(ring.value)
    (0.0, 0.0, 1.0, 0.0, 0.0)
"""

from __future__ import annotations

from typing import Any

from gpiozero import LEDBoard

POSITIONS: tuple[int | str, ...] = (1, 2, 3, 4, "X")
"""The counter's positions, in the order the arrows go."""


class TurnCounterRing(LEDBoard):
    """Five PWM LEDs named ``one``, ``two``, ``three``, ``four`` and ``x``.

    Attributes:
        PULSE_FADE: seconds to fade X in, and again to fade it out, while a removal is due.
    """

    PULSE_FADE = 0.5

    def __init__(self, one: Any, two: Any, three: Any, four: Any, x: Any, *,
                 pin_factory: Any = None) -> None:
        self._position: int | str | None = None
        self._removal_due = False
        super().__init__(one=one, two=two, three=three, four=four, x=x, pwm=True,
                         _order=("one", "two", "three", "four", "x"), pin_factory=pin_factory)

    @property
    def position(self) -> int | str | None:
        """The position shown (1-4 or ``"X"``), or ``None`` when dark."""
        return self._position

    @property
    def removal_due(self) -> bool:
        """Whether X is pulsing."""
        return self._removal_due

    def show(self, position: int | str, removal_due: bool = False) -> None:
        """Light ``position`` (1-4 or ``"X"``); pulse X when ``removal_due``.

        Raises:
            ValueError: an unknown position, or a removal due away from X.
        """
        key = str(position).upper()
        index = {str(p): i for i, p in enumerate(POSITIONS)}.get(key)
        if index is None:
            raise ValueError(f"counter position must be one of 1, 2, 3, 4, X, not {position!r}")
        if removal_due and key != "X":
            raise ValueError("a removal is only due with the counter on X")
        for i, led in enumerate(self.leds):
            if i != index:
                led.off()
        if removal_due:
            self.leds[index].pulse(fade_in_time=self.PULSE_FADE, fade_out_time=self.PULSE_FADE)
        else:
            self.leds[index].on()
        self._position = POSITIONS[index]
        self._removal_due = removal_due

    def dark(self) -> None:
        """Turn every LED off."""
        self.off()
        self._position = None
        self._removal_due = False
