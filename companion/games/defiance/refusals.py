"""Refusals citing the rulebook's own section headings.

Example:
    >>> str(rule("4. Turn Actions", "Power Actions"))
    'infinities-defiance-of-fate: "4. Turn Actions", Power Actions'
"""

from __future__ import annotations

from typing import Any, NoReturn

from companion.games.core import IllegalAction, RuleRef

RULEBOOK = "infinities-defiance-of-fate"

SETUP = "3. Setup"
TURN = "4. Turn Actions"
CHECKS = "2.6.1 - Action Checks"
GAMBITS = "2.6.2 - Gambits"
PROTECTION = "5. Protection"
MOVEMENT = "6. Movement"
CARDS = "2.4 - Faction Decks"
TIMELINE = "7. Card Properties"
DAMAGE = "8.1 - Damage"
QUEUE = "8.3 - The Queue"
DEFEAT = "8.6 - Defeat and Respawn"
SKIRMISH = "1.1 - Skirmish Mode"
ADVENTURE = "1.2.2 - Object of the Game"
TILES = "2.5 - Setting Tiles"


def rule(section: str, detail: str = "") -> RuleRef:
    """A reference into the Defiance rulebook."""
    return RuleRef(RULEBOOK, section, detail)


def refuse(code: str, reason: str, section: str, detail: str = "",
           **params: Any) -> NoReturn:
    """Raise :class:`IllegalAction` with a reason code, sentence and rule.

    Example:
        >>> refuse("x", "No.", TURN)
        Traceback (most recent call last):
        companion.games.errors.IllegalAction: No. [infinities-defiance-of-fate: "4. Turn Actions"]
    """
    raise IllegalAction(code, reason, rule(section, detail), params=params)
