"""What the buzzer plays: named on/off rhythms with a priority.

A pattern is a sequence of ``(on, off)`` steps in seconds. Its priority decides what happens
when a new event arrives while another pattern plays: an equal or higher priority replaces it
at once, a lower one is dropped (a tick must not cut the victory fanfare short). The six
patterns the players must tell apart (issue 8) have distinct rhythms:

=============  ==========================================  ========
pattern        rhythm                                      priority
=============  ==========================================  ========
trap_sprung    four rapid 60 ms rattles                    3
illegal        two long 400 ms "nope" buzzes               4
capture        a 50 ms tap then a 250 ms buzz              3
removal_due    three even 150 ms beeps                     3
victory        three 100 ms beeps then a 500 ms one        5
defeat         long 800, short 200, long 800 ms            5
=============  ==========================================  ========

Example:
    >>> PATTERNS["capture"].duration
    0.35
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pattern:
    """A named rhythm: ``steps`` of ``(on_seconds, off_seconds)`` and a priority."""

    name: str
    steps: tuple[tuple[float, float], ...]
    priority: int

    @property
    def duration(self) -> float:
        """How long the pattern lasts, in seconds (trailing silence included)."""
        return round(sum(on + off for on, off in self.steps), 6)


TRAP_SPRUNG = Pattern("trap_sprung", ((0.06, 0.06),) * 3 + ((0.06, 0.0),), 3)
ILLEGAL = Pattern("illegal", ((0.4, 0.1), (0.4, 0.0)), 4)
CAPTURE = Pattern("capture", ((0.05, 0.05), (0.25, 0.0)), 3)
REMOVAL_DUE = Pattern("removal_due", ((0.15, 0.15), (0.15, 0.15), (0.15, 0.0)), 3)
VICTORY = Pattern("victory", ((0.1, 0.05), (0.1, 0.05), (0.1, 0.05), (0.5, 0.0)), 5)
DEFEAT = Pattern("defeat", ((0.8, 0.2), (0.2, 0.2), (0.8, 0.0)), 5)
# Quieter cues for the rest of the games' events.
KNOCK = Pattern("knock", ((0.15, 0.0),), 2)
"""A piece, die, wound or unit is lost."""
CHIME = Pattern("chime", ((0.03, 0.05), (0.03, 0.0)), 2)
"""Something good but not decisive: a crystal, points, a round won."""
TICK = Pattern("tick", ((0.02, 0.0),), 1)
"""A turn passed or an action was undone."""

PATTERNS: dict[str, Pattern] = {pattern.name: pattern for pattern in (
    TRAP_SPRUNG, ILLEGAL, CAPTURE, REMOVAL_DUE, VICTORY, DEFEAT, KNOCK, CHIME, TICK)}
"""Every pattern by name."""
