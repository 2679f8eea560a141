"""Which sound and which counter light each game event calls for (``docs/events.md``).

Every kind any game emits has a sound (``None``: silent), so a new kind is a deliberate
choice: each game states its own kinds' sounds in its ``GameInfo.sounds``, and
:func:`all_sounds` gathers them; the test reads ``docs/events.md`` and fails when a kind has
none.

Special cases:

- ``defeat`` with ``losers`` ends a game (the defeat pattern); Defiance of Fate's ``defeat``
  with a ``leader`` is one pawn knocked down while the game goes on (a knock).
- The counter ring follows Infinifield only: ``counter_advanced`` moves the light,
  ``removal_due`` pulses X, and ``block_removed``, ``eliminated`` for want of a legal removal
  and ``round_over`` leave it steady on X (a new round starts there).

Example:
    >>> import functools
    >>> sound_for(Event("trap_sprung", {"room": "R1"}))
    'trap_sprung'
    >>> ring_for(Event("counter_advanced", {"position": 3, "player": "Ann"}))
    (3, False)
"""

from __future__ import annotations

import functools

from companion.games.core import Event
from companion.games.registry import all_games

SHARED_SOUNDS: dict[str, str | None] = {
    "illegal": "illegal", "undone": "tick", "victory": "victory", "defeat": "defeat",
}
"""The kinds every game shares (the session's and the engines' ends of a game)."""


class SoundClash(ValueError):
    """Two games give one event kind different sounds."""


@functools.cache
def all_sounds() -> dict[str, str | None]:
    """Event kind -> buzzer pattern name (see :mod:`hardware.patterns`), ``None`` for silence.

    The shared kinds, then each installed game's own (``GameInfo.sounds``), so a new game
    brings its sounds in its own package.

    Raises:
        SoundClash: two games give one kind different sounds.

    Example:
        >>> all_sounds()["removal_due"], all_sounds()["block_removed"]
        ('removal_due', None)
    """
    sounds = dict(SHARED_SOUNDS)
    owner = dict.fromkeys(SHARED_SOUNDS, "every game")
    for game in all_games():
        info = getattr(game, "info", None)  # a game without facts has no sounds of its own
        for kind, pattern in (info.sounds.items() if info is not None else ()):
            if kind in sounds and sounds[kind] != pattern:
                raise SoundClash(f"{game.name}: event {kind!r} sounds {pattern!r}, but "
                                 f"{owner[kind]} gives it {sounds[kind]!r}")
            sounds[kind], owner[kind] = pattern, owner.get(kind, game.name)
    return sounds


def sound_for(event: Event) -> str | None:
    """The pattern name ``event`` calls for, or ``None`` (silent or unknown kind)."""
    if event.kind == "defeat" and "losers" not in event.data and "leader" in event.data:
        return "knock"
    return all_sounds().get(event.kind)


def ring_for(event: Event) -> tuple[int | str, bool] | None:
    """``(position, removal_due)`` for the counter ring, or ``None`` to leave it as it is."""
    if event.kind == "counter_advanced":
        position = event.data.get("position")
        return (position if isinstance(position, int) else str(position).upper(), False)
    if event.kind == "removal_due":
        return ("X", True)
    if event.kind in ("block_removed", "round_over"):
        return ("X", False)
    if event.kind == "eliminated" and event.data.get("why") == "no_legal_removal":
        return ("X", False)
    return None
