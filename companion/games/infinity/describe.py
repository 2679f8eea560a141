"""One short English line per event, for the command line and the log (docs/events.md).

Example:
    >>> from companion.games.core import Event
    >>> describe_event(Event("wound", {"trooper": "Grenzer", "wounds_left": 0}))
    'Grenzer loses a Wound (0 left)'
    >>> describe_event(Event("unknown")) is None
    True
"""

from __future__ import annotations

from companion.games.core import Event


def describe_event(event: Event) -> str | None:
    """The line for ``event``, or ``None`` for a kind this game does not word itself."""
    data = event.data
    if event.kind == "roll":
        pairs = ", ".join(f"{d} {r}" for d, r in zip(data["dice"], data["results"],
                                                     strict=True))
        if data["attribute"] == "ARM":
            return f"{data['trooper']} ARM Roll against Damage {data['target']}: {pairs}"
        return f"{data['trooper']} {data['attribute']} {data['target']}: {pairs}"
    if event.kind == "hit":
        return f"{data['attacker']} hits {data['target']}" + \
            (" (Critical)" if data["critical"] else "")
    if event.kind == "wound":
        return f"{data['trooper']} loses a Wound ({data['wounds_left']} left)"
    if event.kind == "trooper_removed":
        return f"{data['trooper']} ({data['side']}) is removed from play"
    if event.kind == "turn_changed":
        return f"{data['player']}'s Active Turn (round {data['round']})"
    if event.kind == "critical":
        return f"Critical by {data['trooper']}"
    if event.kind == "round_changed":
        return f"Game Round {data['round']}"
    if event.kind == "victory":
        return str(data["detail"])
    return None
