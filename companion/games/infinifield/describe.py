"""One short English line per Infinifield event (the CLI's text output and the app's log).

Example:
    >>> from companion.games.core import Event
    >>> describe_event(Event("capture", {"by": "Ann", "captured": "Ben", "block": "Y1"}))
    'Ann captured Ben on Y1'
    >>> describe_event(Event("unheard_of", {})) is None
    True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.core import Event


def _scores(data: Mapping[str, Any]) -> str:
    return ", ".join(f"{player} {score}" for player, score in data["scores"].items())


def _eliminated(data: Mapping[str, Any]) -> str:
    why = "captured" if data["why"] == "captured" else "no legal block to remove"
    return f"{data['player']} eliminated ({why})"


def _rebuilt(data: Mapping[str, Any]) -> str:
    how = "a new field" if data["new"] else "the same layout"
    name = f", {data['name']}" if data["name"] else ""
    return f"{data['player']} built {how} for the next round ({data['blocks']} blocks{name})"


TEXTS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "counter_advanced": lambda data: f"counter -> {data['position']}",
    "removal_due": lambda data: f"{data['player']} must remove a block",
    "block_removed": lambda data: f"{data['player']} removed {data['block']}",
    "capture": lambda data: f"{data['by']} captured {data['captured']} on {data['block']}",
    "eliminated": _eliminated,
    "round_over": lambda data: (f"round {data['round']} won by {data['winner']} "
                                f"(scores: {_scores(data)})"),
    "match_over": lambda data: (f"match over, winner(s): {', '.join(data['winners'])} "
                                f"({_scores(data)})"),
    "field_rebuilt": _rebuilt,
    "victory": lambda data: str(data["detail"]),
}
"""Event kind -> the line it reads as."""


def describe_event(event: Event) -> str | None:
    """The line for ``event``, or ``None`` for a kind this game does not describe."""
    text = TEXTS.get(event.kind)
    return None if text is None else text(event.data)
