"""The status light: one LED telling the players whether the companion's senses work.

=================  ====================================
state              light
=================  ====================================
starting           off
ready              steady on
reader lost        slow blink (1 s on, 1 s off)
camera lost        fast blink (0.2 s on, 0.2 s off)
both lost          flicker (0.05 s on, 0.15 s off)
=================  ====================================

Example:
    >>> from hardware.factory import mock_factory
    >>> with StatusLight("GPIO16", pin_factory=mock_factory()) as light:
    ...     light.report("camera", ok=True)
    ...     light.state, light.is_lit
    ('ready', True)
"""

from __future__ import annotations

from typing import Any

from gpiozero import LED

BLINKS: dict[str, tuple[float, float]] = {
    "reader_lost": (1.0, 1.0),
    "camera_lost": (0.2, 0.2),
    "both_lost": (0.05, 0.15),
}
"""``(on, off)`` seconds of each trouble state."""
SENSES = ("camera", "reader")


class StatusLight(LED):
    """An LED showing ``starting``, ``ready``, ``reader_lost``, ``camera_lost`` or ``both_lost``.

    It stays off until :meth:`ready` or a first :meth:`report`; senses never reported count as
    working (a table without a card reader is ready).
    """

    def __init__(self, pin: Any = None, *, pin_factory: Any = None) -> None:
        self._lost: set[str] = set()
        self._state = "starting"
        super().__init__(pin, initial_value=False, pin_factory=pin_factory)

    @property
    def state(self) -> str:
        """What the light shows now."""
        return self._state

    def ready(self) -> None:
        """The companion has started: show ``ready`` unless a sense is lost."""
        self._show()

    def report(self, sense: str, ok: bool) -> None:
        """Record that the ``camera`` or the ``reader`` works (``ok``) or is lost.

        Raises:
            ValueError: an unknown sense.
        """
        if sense not in SENSES:
            raise ValueError(f"unknown sense {sense!r}; expected one of {', '.join(SENSES)}")
        if ok:
            self._lost.discard(sense)
        else:
            self._lost.add(sense)
        self._show()

    def _show(self) -> None:
        if self._lost == {"camera", "reader"}:
            state = "both_lost"
        elif self._lost:
            state = f"{next(iter(self._lost))}_lost"
        else:
            state = "ready"
        if state == self._state:
            return
        self._state = state
        if state == "ready":
            self.on()
        else:
            on_time, off_time = BLINKS[state]
            self.blink(on_time, off_time)
