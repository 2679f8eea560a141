"""What the LEDs and the buzzer would do, for the on-screen simulation panel (no Kivy).

On a desktop there is no LED ring or buzzer; this model listens to the same events the
hardware mapping does (``docs/events.md``) and keeps the state the panel draws: the
five-position turn-counter ring of Infinifield (positions 1-4 and X), a status light and
the last buzzer pattern. On a Pi the real devices in ``hardware/`` listen as well.

Example:
    >>> from companion.games.core import Event
    >>> outputs = SimulatedOutputs()
    >>> outputs(Event("counter_advanced", {"position": 2, "player": "Ann"}))
    >>> outputs.ring
    ('off', 'lit', 'off', 'off', 'off')
    >>> outputs(Event("illegal", {"action": "move Ann W1 R2"}))
    >>> outputs.buzz, outputs.status
    ('illegal', 'refused')
"""

from __future__ import annotations

from collections.abc import Callable

from companion.games.core import Event
from hardware.mapping import sound_for

RING_POSITIONS = ("1", "2", "3", "4", "X")
"""The five places of the counter circle, in the order the arrows go round."""

RECENT = 4
"""How many of the last buzzer patterns the panel lists."""

RING_STATES = ("off", "lit", "due")
"""An LED of the ring: dark, lit (the counter is here), or lit red (a block must go)."""


class SimulatedOutputs:
    """The simulated LED ring, status light and buzzer.

    Attributes:
        ring: the state of each of the five LEDs (see :data:`RING_STATES`).
        status: ``idle``, ``ok`` or ``refused`` (the status light).
        buzz: the last buzzer pattern played (a :data:`hardware.patterns.PATTERNS` name).
        buzz_count: how many patterns were played (the panel animates on change).
        recent: the last few patterns, newest last (one action can sound several).
        causes: the event kind behind each of :attr:`recent`.
    """

    def __init__(self, on_change: Callable[[], object] | None = None) -> None:
        self.ring: tuple[str, ...] = ("off",) * len(RING_POSITIONS)
        self.status = "idle"
        self.buzz: str | None = None
        self.buzz_count = 0
        self.recent: tuple[str, ...] = ()
        self.causes: tuple[str, ...] = ()
        self.sound = True
        self._on_change = on_change

    def __call__(self, event: Event) -> None:
        """Take one event (subscribe this object to a session's bus)."""
        if event.kind == "counter_advanced":
            self._light(str(event.data.get("position", "")), "lit")
        elif event.kind == "removal_due":
            self._light("X", "due")
        elif event.kind == "block_removed":
            self._light("X", "lit")
        self.status = "refused" if event.kind == "illegal" else "ok"
        pattern = sound_for(event)
        if pattern is not None and self.sound:
            self.buzz = pattern
            self.buzz_count += 1
            self.recent = (*self.recent, pattern)[-RECENT:]
            self.causes = (*self.causes, event.kind)[-RECENT:]
        if self._on_change is not None:
            self._on_change()

    def reset(self) -> None:
        """All dark and quiet (a new game)."""
        self.ring = ("off",) * len(RING_POSITIONS)
        self.status = "idle"
        self.buzz = None
        self.recent = ()
        self.causes = ()

    def _light(self, position: str, state: str) -> None:
        if position.upper() not in RING_POSITIONS:
            return
        index = RING_POSITIONS.index(position.upper())
        self.ring = tuple(state if i == index else "off" for i in range(len(RING_POSITIONS)))
