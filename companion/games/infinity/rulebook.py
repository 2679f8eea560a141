"""The rulebook Infinity refusals cite, its sections, and the game's refusal and end codes.

Every refusal of the engine names one of the :class:`~companion.games.core.RuleRef`
constants below (headings of ``shared/rules/infinity-n3-intro.md``) and a :class:`Refusal`
code; a finished game ends with a :class:`Termination`. The codes' values are the strings the
JSON output and the translations use.

Example:
    >>> str(BS_ATTACK)
    'infinity-n3-intro: "BS ATTACK"'
    >>> Refusal.TOO_FAR == "too_far", Termination.DRAW.value
    (True, 'draw')
"""

from __future__ import annotations

from enum import StrEnum

from companion.games.core import RuleRef

RULEBOOK = "infinity-n3-intro"
"""The rulebook's file stem (``shared/rules/infinity-n3-intro.md``)."""

MOVE = RuleRef(RULEBOOK, "MOVE")
BS_ATTACK = RuleRef(RULEBOOK, "BS ATTACK")
BURST = RuleRef(RULEBOOK, "BS Attack Roll and Burst")
COVER = RuleRef(RULEBOOK, "Cover")
CC_ATTACK = RuleRef(RULEBOOK, "CC ATTACK")
DODGE = RuleRef(RULEBOOK, "DODGE")
ARMOR = RuleRef(RULEBOOK, "ARMOR AND DAMAGE")
SUMMARY = RuleRef(RULEBOOK, "INFINITY: GAME SUMMARY")
PRIVATE = RuleRef(RULEBOOK, "OPEN AND PRIVATE INFORMATION")
ROLLS = RuleRef(RULEBOOK, "Rolls", "third edition, referred to by the excerpt")
ALIGNMENT = RuleRef(RULEBOOK, "ALIGNMENT")
LOF = RuleRef(RULEBOOK, "LINE OF FIRE (LOF)",
              "the target must be within the troop's front 180º arc")


class Refusal(StrEnum):
    """Why an action is refused (the ``code`` of its :class:`IllegalAction`)."""

    GAME_OVER = "game_over"
    DICE_DUE = "dice_due"
    NOT_YOUR_TURN = "not_your_turn"
    NO_ROLL_DUE = "no_roll_due"
    WRONG_ROLL = "wrong_roll"
    WRONG_DICE = "wrong_dice"
    OBJECTIVE_POINTS = "objective_points"
    NOT_AN_ORDER = "not_an_order"
    ARO_EXPECTED = "aro_expected"
    DODGE_CONTACT = "dodge_contact"
    DODGE_TOO_FAR = "dodge_too_far"
    AFTER_ORDER = "after_order"
    NOT_YOUR_TROOPER = "not_your_trooper"
    REMOVED = "removed"
    FRIENDLY_TARGET = "friendly_target"
    NOT_ON_TABLE = "not_on_table"
    NO_SUCH_WEAPON = "no_such_weapon"
    OUT_OF_RANGE = "out_of_range"
    TOO_MANY_MOVES = "too_many_moves"
    TOO_FAR = "too_far"
    ENGAGED = "engaged"
    TARGET_TWICE = "target_twice"
    BURST_EXCEEDED = "burst_exceeded"
    NO_BASE_CONTACT = "no_base_contact"
    ARO_TWICE = "aro_twice"
    NOTHING_TO_DODGE = "nothing_to_dodge"
    DODGE_NO_LOF = "dodge_no_lof"
    ARO_TARGET = "aro_target"
    REACTIVE_BURST = "reactive_burst"
    ARO_NO_LOF = "aro_no_lof"
    DISTANCE_MISMATCH = "distance_mismatch"


class Termination(StrEnum):
    """How a game ended (``Outcome.termination``): "INFINITY: GAME SUMMARY"."""

    OBJECTIVE_POINTS = "objective_points"
    VICTORY_POINTS = "victory_points"
    DRAW = "draw"
