"""The table's buzzer: a gpiozero :class:`~gpiozero.Buzzer` that also plays rhythms.

:meth:`PatternBuzzer.play` runs a :class:`~hardware.patterns.Pattern` in a background thread
of its own, switching the buzzer with the device's public ``on``/``off``, so the referee never
waits; :meth:`PatternBuzzer.offer` applies the priority rule between a new pattern and the one
still playing. Anything else that drives the buzzer (``on``, ``off``, ``toggle``, ``beep``,
``blink``, ``value``, ``close``) first stops the pattern, as gpiozero's own ``beep`` stops when
the buzzer is switched by hand.

Example:
    >>> from hardware.factory import mock_factory
    >>> from hardware.patterns import CAPTURE
    >>> with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
    ...     buzzer.play(CAPTURE, background=False)
    ...     buzzer.is_active
    False
"""

from __future__ import annotations

import atexit
import threading
import weakref
from typing import Any

from gpiozero import Buzzer

from hardware.patterns import Pattern

_BUZZERS: weakref.WeakSet[PatternBuzzer] = weakref.WeakSet()


@atexit.register
def _stop_patterns() -> None:
    # Registered after gpiozero's own exit handler, so it runs first: no pattern thread
    # writes to a pin after gpiozero has closed the pin factory.
    for buzzer in list(_BUZZERS):
        buzzer.stop()


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
        self._player: threading.Thread | None = None
        self._stopping = threading.Event()
        self._playing_lock = threading.RLock()
        super().__init__(pin, active_high=active_high, initial_value=False,
                         pin_factory=pin_factory)
        _BUZZERS.add(self)

    @property
    def playing(self) -> Pattern | None:
        """The pattern playing now, or ``None``."""
        player = self._player
        if player is None or not player.is_alive():
            return None
        return self._pattern

    def play(self, pattern: Pattern, background: bool = True) -> None:
        """Play ``pattern`` now, stopping whatever played before.

        Args:
            pattern: the rhythm to play.
            background: return at once (``True``) or when the pattern has finished.

        Raises:
            gpiozero.DeviceClosed: the buzzer is closed.
        """
        with self._playing_lock:
            self.off()  # stops the pattern (or gpiozero's beep) playing before
            self._stopping = threading.Event()
            self._pattern = pattern
            player = threading.Thread(target=self._play_steps,
                                      args=(pattern.steps, self._stopping),
                                      name=f"buzzer-{pattern.name}", daemon=True)
            self._player = player
            player.start()
        if not background:
            player.join()

    def offer(self, pattern: Pattern) -> bool:
        """Play ``pattern`` unless a higher-priority one is still playing; say if it plays.

        Example:
            >>> from hardware.factory import mock_factory
            >>> from hardware.patterns import TICK, VICTORY
            >>> with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
            ...     buzzer.offer(VICTORY), buzzer.offer(TICK)
            (True, False)
        """
        with self._playing_lock:
            current = self.playing
            if current is not None and current.priority > pattern.priority:
                return False
            self.play(pattern)
            return True

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the pattern playing now has finished; say whether it has.

        Example:
            >>> from hardware.factory import mock_factory
            >>> from hardware.patterns import TICK
            >>> with PatternBuzzer("GPIO12", pin_factory=mock_factory()) as buzzer:
            ...     buzzer.play(TICK)
            ...     buzzer.wait(1.0), buzzer.playing
            (True, None)
        """
        player = self._player
        if player is not None and player is not threading.current_thread():
            player.join(timeout)
        return self.playing is None

    def stop(self) -> None:
        """Stop the pattern playing now, if any, leaving the buzzer silent."""
        with self._playing_lock:
            player = self._player
            self._stopping.set()
            if player is not None and player is not threading.current_thread():
                player.join()
            self._player = None

    # Everything that drives the buzzer by hand stops the pattern first.
    def on(self) -> None:
        """Sound the buzzer (stopping any pattern)."""
        self.stop()
        super().on()

    def off(self) -> None:
        """Silence the buzzer (stopping any pattern)."""
        self.stop()
        super().off()

    def blink(self, on_time: float = 1, off_time: float = 1, n: int | None = None,
              background: bool = True) -> None:
        """Blink (gpiozero's, also ``beep``) after stopping any pattern."""
        self.stop()
        super().blink(on_time, off_time, n, background)

    beep = blink

    @property
    def value(self) -> Any:
        """1 while the buzzer sounds, else 0; setting it stops any pattern."""
        return super().value

    @value.setter
    def value(self, value: Any) -> None:
        self.stop()
        Buzzer.value.fset(self, value)

    def close(self) -> None:
        """Stop any pattern and release the pin (closing twice is harmless)."""
        if hasattr(self, "_stopping"):  # gpiozero closes a device whose __init__ failed
            self.stop()
        super().close()

    def _sound(self, active: bool) -> None:
        # The device's own on/off, not this class's (those stop the pattern playing).
        if active:
            Buzzer.on(self)
        else:
            Buzzer.off(self)

    def _play_steps(self, steps: tuple[tuple[float, float], ...],
                    stopping: threading.Event) -> None:
        for on_time, off_time in steps:
            self._sound(True)
            if stopping.wait(on_time):
                break
            self._sound(False)
            if off_time and stopping.wait(off_time):
                break
        self._sound(False)
