"""Which sound and which counter light each game event calls for (``docs/events.md``).

Every kind any game emits is listed in :data:`SOUNDS` (``None``: silent), so a new kind is a
deliberate choice; the test reads ``docs/events.md`` and fails when a kind is missing here.

Special cases:

- ``defeat`` with ``losers`` ends a game (the defeat pattern); Defiance of Fate's ``defeat``
  with a ``leader`` is one pawn knocked down while the game goes on (a knock).
- The counter ring follows Infinifield only: ``counter_advanced`` moves the light,
  ``removal_due`` pulses X, and ``block_removed``, ``eliminated`` for want of a legal removal
  and ``round_over`` leave it steady on X (a new round starts there).

Example:
    >>> from companion.games.core import Event
    >>> sound_for(Event("trap_sprung", {"room": "R1"}))
    'trap_sprung'
    >>> ring_for(Event("counter_advanced", {"position": 3, "player": "Ann"}))
    (3, False)
"""

from __future__ import annotations

from companion.games.core import Event

SOUNDS: dict[str, str | None] = {
    # every game
    "illegal": "illegal", "undone": "tick", "victory": "victory", "defeat": "defeat",
    # Infinifield
    "counter_advanced": "tick", "removal_due": "removal_due", "block_removed": None,
    "capture": "capture", "eliminated": "knock", "round_over": "chime", "match_over": None,
    "field_rebuilt": None,
    # Infinidungeon
    "trap_sprung": "trap_sprung", "die_lost": "knock", "die_regained": "chime",
    "room_flipped": None, "crystal": "chime", "deck_reshuffled": None,
    # 401 Infinite
    "hp_changed": None, "unit_eliminated": "knock", "hp_token_collected": "chime",
    "hp_token_removed": None, "runner_scored": "chime",
    # Infinity
    "roll": None, "hit": None, "critical": None, "wound": "knock", "trooper_removed": "knock",
    "turn_changed": "tick", "round_changed": "tick",
    # Infinities: Defiance of Fate
    "turn_order": None, "dice_locked": None, "health_changed": None, "respawn": "chime",
    "points_scored": "chime", "game_over": None, "unit_destroyed": "knock",
    "nothing_healed": None, "turn_lost": "tick", "timeline_over_limit": "chime",
    "timeline_card_destroyed": None, "card_discarded": None, "card_stolen": "capture",
    "card_attached": None, "forced_move": None, "canceled": None,
}
"""Event kind -> buzzer pattern name (see :mod:`hardware.patterns`), ``None`` for silence."""


def sound_for(event: Event) -> str | None:
    """The pattern name ``event`` calls for, or ``None`` (silent or unknown kind)."""
    if event.kind == "defeat" and "losers" not in event.data and "leader" in event.data:
        return "knock"
    return SOUNDS.get(event.kind)


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
