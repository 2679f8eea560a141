"""The table's buzzer: a gpiozero :class:`~gpiozero.Buzzer` that also plays rhythms.

:meth:`PatternBuzzer.play` runs a :class:`~hardware.patterns.Pattern` in gpiozero's own
background thread machinery (exactly as :meth:`Buzzer.beep` does), so the referee never
waits; :meth:`PatternBuzzer.offer` applies the priority rule between a new pattern and the one
still playing.

Example:
    >>> from hardware.factory import mock_factory
    >>> from hardware.patterns import CAPTURE
    >>> with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
    ...     buzzer.play(CAPTURE, background=False)
    ...     buzzer.is_active
    False
"""

from __future__ import annotations

from typing import Any

from gpiozero import Buzzer
from gpiozero.threads import GPIOThread

from hardware.patterns import Pattern


class PatternBuzzer(Buzzer):
    """A buzzer that plays :class:`Pattern` rhythms in the background.

    Args:
        pin: the GPIO the buzzer is wired to.
        active_high: whether the buzzer sounds when the pin is high.
        pin_factory: gpiozero's pin factory (see :mod:`hardware.factory`).
    """

    def __init__(self, pin: Any = None, *, active_high: bool = True,
                 pin_factory: Any = None) -> None:
        self._pattern: Pattern | None = None
        super().__init__(pin, active_high=active_high, initial_value=False,
                         pin_factory=pin_factory)

    @property
    def playing(self) -> Pattern | None:
        """The pattern playing now, or ``None``."""
        thread = self._blink_thread
        if thread is None or not thread.is_alive():
            return None
        return self._pattern

    def play(self, pattern: Pattern, background: bool = True) -> None:
        """Play ``pattern`` now, stopping whatever played before.

        Args:
            pattern: the rhythm to play.
            background: return at once (``True``) or when the pattern has finished.
        """
        self._stop_blink()
        self._write(False)
        self._pattern = pattern
        self._blink_thread = GPIOThread(self._play_steps, (pattern.steps,))
        self._blink_thread.start()
        if not background:
            self._blink_thread.join()
            self._blink_thread = None

    def offer(self, pattern: Pattern) -> bool:
        """Play ``pattern`` unless a higher-priority one is still playing; say if it plays.

        Example:
            >>> from hardware.factory import mock_factory
            >>> from hardware.patterns import TICK, VICTORY
            >>> with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
            ...     buzzer.offer(VICTORY), buzzer.offer(TICK)
            (True, False)
        """
        current = self.playing
        if current is not None and current.priority > pattern.priority:
            return False
        self.play(pattern)
        return True

    def _play_steps(self, steps: tuple[tuple[float, float], ...]) -> None:
        stopping = self._blink_thread.stopping
        for on_time, off_time in steps:
            self._write(True)
            if stopping.wait(on_time):
                break
            self._write(False)
            if off_time and stopping.wait(off_time):
                break
        self._write(False)
