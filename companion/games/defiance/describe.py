"""One short English line per Defiance event, for the command line and the log.

Example:
    >>> from companion.games.core import Event
    >>> describe(Event("round_changed", {"round": 3}))
    'round 3'
    >>> describe(Event("dice_rolled", {})) is None
    True
"""

from __future__ import annotations

from companion.games.core import Event


def describe(event: Event) -> str | None:
    """The line for ``event``, or None for a kind without its own wording."""
    data = event.data
    texts = {
        "turn_order": lambda: "turn order: " + ", ".join(data["order"]),
        "turn_changed": lambda: f"{data['leader']}'s turn",
        "round_changed": lambda: f"round {data['round']}",
        "dice_locked": lambda: f"{data['leader']} locks {' '.join(data['faces'])}",
        "health_changed": lambda: f"{data.get('unit') or data['leader']} Health "
                                  f"{data['old']} -> {data['new']}",
        "unit_destroyed": lambda: f"{data['leader']}'s {data['unit']} is destroyed"
                                  + (f" (with {', '.join(data['attached'])})"
                                     if data["attached"] else ""),
        "nothing_healed": lambda: f"{data['asset']} has no damage to heal: nothing "
                                  "healed",
        "turn_lost": lambda: f"{data['leader']} loses this turn (defeated, 8.6)",
        "timeline_card_destroyed": lambda: f"{data['leader']}'s timeline card "
                                           f"{data['card']} is destroyed",
        "timeline_over_limit": lambda: data["detail"],
        "card_discarded": lambda: f"{data['leader']} discards {data['card']}",
        "card_stolen": lambda: f"{data['leader']} steals {data['as']} from {data['from']}",
        "card_attached": lambda: f"{data['card']} is attached to {data['asset']}",
        "forced_move": lambda: f"{data['leader']} is moved {data['from']} -> {data['to']}",
        "canceled": lambda: f"{data['leader']} cancels {data['card']} ({data['effect']})",
        "defeat": lambda: data["detail"],
        "respawn": lambda: f"{data['leader']} respawns in {data['tile']}",
        "points_scored": lambda: f"{data['leader']} scores {data['points']} "
                                 f"(total {data['total']})",
        "game_over": lambda: f"game over (decided by {data['tiebreaker']})",
        "victory": lambda: data["detail"],
    }
    if event.kind in texts:
        return str(texts[event.kind]())
    return None
