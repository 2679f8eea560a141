"""Everything the table shows and sounds, as one gpiozero composite the session feeds.

:class:`TableOutputs` names its parts (``ring``, ``buzzer``, ``status``), is a context
manager, closes idempotently, and is a session subscriber: ``session.bus.subscribe(outputs)``.
Handling an event only starts background work (gpiozero's blink/pulse threads), so the
referee never waits for a light or a sound.

Example:
    >>> from companion.games.core import Event
    >>> from hardware.factory import mock_factory
    >>> with TableOutputs(pin_factory=mock_factory()) as outputs:
    ...     outputs(Event("removal_due", {"player": "Ann"}))
    ...     outputs.ring.position, outputs.ring.removal_due
    'removal_due'
    ('X', True)
"""

from __future__ import annotations

import logging
from typing import Any

from gpiozero import CompositeDevice

from companion.games.core import Event
from hardware.buzzer import PatternBuzzer
from hardware.factory import choose_pin_factory
from hardware.mapping import ring_for, sound_for
from hardware.patterns import PATTERNS
from hardware.pins import PinMap, load_pins
from hardware.ring import TurnCounterRing
from hardware.status import StatusLight

log = logging.getLogger(__name__)


class TableOutputs(CompositeDevice):
    """The counter ring, the buzzer and the status light.

    Args:
        pins: the pin map (default: :func:`hardware.pins.load_pins`).
        pin_factory: gpiozero's pin factory (default: :func:`choose_pin_factory`).

    The ring starts dark; only Infinifield's events move it. When an Infinifield round starts,
    or after an ``undone`` event, the app shows the counter from the state:
    ``outputs.ring.show(position, removal_due)``. The camera and the card reader report to
    the status light: ``outputs.status.report("camera", ok)``.
    """

    def __init__(self, pins: PinMap | None = None, *, pin_factory: Any = None) -> None:
        pins = pins or load_pins()
        factory = pin_factory if pin_factory is not None else choose_pin_factory()
        self.pins = pins
        super().__init__(
            ring=TurnCounterRing(*(pins.ring[k] for k in ("one", "two", "three", "four", "x")),
                                 pin_factory=factory),
            buzzer=PatternBuzzer(pins.buzzer, active_high=pins.buzzer_active_high,
                                 pin_factory=factory),
            status=StatusLight(pins.status, pin_factory=factory),
            _order=("ring", "buzzer", "status"), pin_factory=factory)

    # The parts, typed (CompositeDevice exposes them as attributes too).
    ring: TurnCounterRing
    buzzer: PatternBuzzer
    status: StatusLight

    def __call__(self, event: Event) -> str | None:
        """Show ``event``; return the pattern name started (``None``: silent or superseded)."""
        if self.closed:
            return None
        shown = ring_for(event)
        if shown is not None:
            try:
                self.ring.show(*shown)
            except ValueError:
                log.warning("counter event with a bad position: %s", event.to_json())
        name = sound_for(event)
        if name is None:
            return None
        return name if self.buzzer.offer(PATTERNS[name]) else None
