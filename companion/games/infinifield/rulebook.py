"""What the referee cites from ``infinifield.md``: its sections, refusal codes and terminations.

Every refusal names a :class:`Refusal` code (its value is the JSON and translation key) and a
:class:`~companion.games.core.RuleRef` from here, so a citation is written once.

Example:
    >>> str(CHASE_STEP_6)
    'infinifield: "Chase-and-capture", step 6'
    >>> str(removal_rule(Refusal.WOULD_SPLIT))
    'infinifield: "Chase-and-capture", step 7, bullet 3'
"""

from __future__ import annotations

from enum import StrEnum

from companion.games.core import RuleRef

RULEBOOK = "infinifield"
"""The rulebook's file stem (``shared/rules/infinifield.md``)."""

BUILD = "Build the field"
STARTING = "Select starting positions"
CHASE = "Chase-and-capture"
SCORING = "Scoring"
OFFICIAL = "Official field-building rules"

BUILD_STEP_1 = RuleRef(RULEBOOK, BUILD, "step 1")
BUILD_STEP_1_BULLET_1 = RuleRef(RULEBOOK, BUILD, "step 1, bullet 1")
BUILD_STEP_1_BULLET_2 = RuleRef(RULEBOOK, BUILD, "step 1, bullet 2")
BUILD_STEP_1_BULLET_3 = RuleRef(RULEBOOK, BUILD, "step 1, bullet 3")
STARTING_STEP_2 = RuleRef(RULEBOOK, STARTING, "step 2")
STARTING_STEPS_2_3 = RuleRef(RULEBOOK, STARTING, "steps 2-3")
CHASE_STEP_5 = RuleRef(RULEBOOK, CHASE, "step 5")
CHASE_STEP_6 = RuleRef(RULEBOOK, CHASE, "step 6")
CHASE_STEP_7 = RuleRef(RULEBOOK, CHASE, "step 7")
CHASE_STEP_8 = RuleRef(RULEBOOK, CHASE, "step 8")
MATCH_SCORING = RuleRef(RULEBOOK, SCORING)
OFFICIAL_BULLET_1 = RuleRef(RULEBOOK, OFFICIAL, "bullet 1 - blocks stand on a flat surface")
OFFICIAL_BULLET_2 = RuleRef(RULEBOOK, OFFICIAL, "bullet 2")
OFFICIAL_BULLET_3 = RuleRef(RULEBOOK, OFFICIAL, "bullet 3")
OFFICIAL_BULLET_4 = RuleRef(RULEBOOK, OFFICIAL, "bullet 4")
OFFICIAL_BULLET_5 = RuleRef(RULEBOOK, OFFICIAL, "bullet 5")
OFFICIAL_BULLET_6 = RuleRef(RULEBOOK, OFFICIAL, "bullet 6")
OFFICIAL_BULLET_7 = RuleRef(RULEBOOK, OFFICIAL, "bullet 7")
OFFICIAL_BULLET_8 = RuleRef(RULEBOOK, OFFICIAL, "bullet 8")


class Refusal(StrEnum):
    """Every reason the referee refuses an action.

    The value is the code in JSON and the key of the translated sentence.
    """

    MATCH_OVER = "match_over"
    UNKNOWN_PLAYER = "unknown_player"
    UNKNOWN_BLOCK = "unknown_block"
    CHOOSE_START_FIRST = "choose_start_first"
    REMOVAL_DUE = "removal_due"
    REBUILD_DUE = "rebuild_due"
    MOVE_DUE = "move_due"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_BUILDER = "not_builder"
    ELIMINATED = "eliminated"
    NOT_WHITE = "not_white"
    START_TAKEN = "start_taken"
    PAWN_NOT_THERE = "pawn_not_there"
    BLOCK_REMOVED = "block_removed"
    MUST_MOVE = "must_move"
    NOT_ADJACENT = "not_adjacent"
    FIELD_BREAKS_RULES = "field_breaks_rules"
    TOO_FEW_WHITES = "too_few_whites"
    # "Chase-and-capture" step 7: the four reasons a block cannot be removed, in bullet order
    BLOCK_ON_TOP = "block_on_top"
    PAWN_ON_BLOCK = "pawn_on_block"
    WOULD_SPLIT = "would_split"
    ENCLOSED = "enclosed"


REMOVAL_BULLETS: dict[Refusal, RuleRef] = {
    Refusal.BLOCK_ON_TOP: RuleRef(RULEBOOK, CHASE, "step 7, bullet 1"),
    Refusal.PAWN_ON_BLOCK: RuleRef(RULEBOOK, CHASE, "step 7, bullet 2"),
    Refusal.WOULD_SPLIT: RuleRef(RULEBOOK, CHASE, "step 7, bullet 3"),
    Refusal.ENCLOSED: RuleRef(RULEBOOK, CHASE, "step 7, bullet 4"),
}
"""The four removal refusals of "Chase-and-capture" step 7 and the bullet each cites."""


def removal_rule(code: str) -> RuleRef:
    """The bullet of "Chase-and-capture" step 7 a removal refusal ``code`` cites.

    Raises:
        KeyError: ``code`` is not one of the four removal refusals.
    """
    return REMOVAL_BULLETS[Refusal(code)]


class Termination(StrEnum):
    """Why a match ended ("Scoring")."""

    ROUNDS_PLAYED = "rounds_played"
    """The agreed number of rounds has been played."""
    TARGET_REACHED = "target_reached"
    """A player reached the target total (points scoring) when a round ended."""
