"""The rulebook sections 401 Infinite refusals cite (``shared/rules/401-infinite.md``).

Example:
    >>> str(ONE_OBJECT)
    '401-infinite: "TECHNICALITIES", One Object One Space'
"""

from __future__ import annotations

from companion.games.core import IllegalAction, RuleRef

RULEBOOK = "401-infinite"

UNITS_AND_HP = RuleRef(RULEBOOK, "UNITS AND HP", "a Unit is Eliminated when it reaches 0 HP")
VICTORY = RuleRef(RULEBOOK, "STARTING THE GAME", "Victory Objective")
QUICK_START = RuleRef(RULEBOOK, "STARTING THE GAME", "Quick Start")
COMPETITOR = RuleRef(RULEBOOK, "STARTING THE GAME", "Competitor's Start")
TURNS = RuleRef(RULEBOOK, "TURNS / ACTIONS", "up to 2 Actions")
TURN_ORDER = RuleRef(RULEBOOK, "TURNS / ACTIONS", "on a player's Turn")
MOVEMENT = RuleRef(RULEBOOK, "TURNS / ACTIONS", "Movement: one Unit up to four (4) Spaces")
ONE_SOURCE = RuleRef(RULEBOOK, "PLAYING ABILITIES",
                     "each Unit can only be the Source Unit of 1 ability per turn")
TARGET_SIDE = RuleRef(RULEBOOK, "PLAYING ABILITIES",
                      "Attack abilities target opponent Units | Defense abilities target your "
                      "own Units")
IN_RANGE = RuleRef(RULEBOOK, "PLAYING ABILITIES", "a Target that is in-range, relative to the "
                   "Source Unit")
UTILITY = RuleRef(RULEBOOK, "PLAYING ABILITIES",
                  "Utility abilities: only Target(s), chosen by the Side color on the card")
CYCLE = RuleRef(RULEBOOK, "PLAYING ABILITIES", "Cycle: put a card at the bottom of your Stack "
                "and Draw a new one")
HAND = RuleRef(RULEBOOK, "GLOSSARY", "Hand: the Ability Cards the player is able to play")
CARD_FLOW = RuleRef(RULEBOOK, "CARD FLOW")
HP_TOKEN = RuleRef(RULEBOOK, "THE HP TOKEN")
PASSIVES = RuleRef(RULEBOOK, "PASSIVES")
STRAIGHT_LINE = RuleRef(RULEBOOK, "TECHNICALITIES", "Straight Line To Target")
RUNNER = RuleRef(RULEBOOK, "TECHNICALITIES", "Runner's Rule")
COLLISION = RuleRef(RULEBOOK, "TECHNICALITIES", "Unit Collision")
ONE_OBJECT = RuleRef(RULEBOOK, "TECHNICALITIES", "One Object One Space")


def status_rule(status: str) -> RuleRef:
    """The rule a status effect refusal cites (the reading is in ``docs/401-infinite.md``).

    Example:
        >>> status_rule("stunned").detail
        'Status Effects: Stunned (reading in docs/401-infinite.md)'
    """
    return RuleRef(RULEBOOK, "GLOSSARY",
                   f"Status Effects: {status.capitalize()} (reading in docs/401-infinite.md)")


def refuse(code: str, reason: str, rule: RuleRef, **params: object) -> IllegalAction:
    """An :class:`IllegalAction` ready to raise.

    Example:
        >>> refuse("no_actions_left", "No actions left.", TURNS).code
        'no_actions_left'
    """
    return IllegalAction(code, reason, rule, params=params)

MOVE_PATH = RuleRef(RULEBOOK, "GLOSSARY", "Move: movement across Spaces with a path that is "
                    "affected by Walls and Status Effects")
