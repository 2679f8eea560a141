"""The rulebook sections Infinidungeon's refusals cite, and a helper to raise them.

Example:
    >>> str(MOVING)
    'infinidungeon: "Moving Room"'
"""

from __future__ import annotations

from typing import Any, NoReturn

from companion.games.core import IllegalAction, RuleRef

GAME_NAME = "infinidungeon"

INTRODUCTION = RuleRef(GAME_NAME, "Introduction")
TURN_ORDER = RuleRef(GAME_NAME, "Turn Order")
MOVING = RuleRef(GAME_NAME, "Moving Room")
MOVING_DOORWAY = RuleRef(GAME_NAME, "Moving Room", "paragraph 1: only through a doorway")
MOVING_TRAP = RuleRef(GAME_NAME, "Moving Room", "paragraph 2: trapped doorways")
MOVING_CRITERIA = RuleRef(GAME_NAME, "Moving Room", "the two criteria")
MONSTER_ROOM = RuleRef(GAME_NAME, "Facing the Room", "Monster Room")
HEALING_POOL = RuleRef(GAME_NAME, "Facing the Room", "Healing Pool")
TREASURE_VAULT = RuleRef(GAME_NAME, "Facing the Room", "Treasure Vault")
BOSS_ROOM = RuleRef(GAME_NAME, "Facing the Room", "Boss Room")
FLIPPING = RuleRef(GAME_NAME, "Flipping Rooms")
WINNING = RuleRef(GAME_NAME, "Winning or Losing")


def dice(count: int) -> str:
    """``1 die``, ``2 dice``: the count with the word that fits it (never "1 dice").

    Example:
        >>> dice(1), dice(3)
        ('1 die', '3 dice')
    """
    return f"{count} {'die' if count == 1 else 'dice'}"


def refuse(code: str, reason: str, rule: RuleRef, **params: Any) -> NoReturn:
    """Raise the refusal ``code`` with its sentence, rule and the values it mentions.

    Example:
        >>> try:
        ...     refuse("no_doorway", "There is no doorway to the north.", MOVING_DOORWAY)
        ... except IllegalAction as error:
        ...     error.code
        'no_doorway'
    """
    raise IllegalAction(code, reason, rule, params=params)
