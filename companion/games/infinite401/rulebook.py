"""The rulebook 401 Infinite refusals cite, its sections, and the game's refusal and end codes.

Every refusal of the engine goes through :func:`companion.games.core.refuse` with a
:class:`Refusal` code and one of the :class:`~companion.games.core.RuleRef` constants below
(sections of ``shared/rules/401-infinite.md``); a finished game ends with a
:class:`Termination`. The codes' values are the strings the JSON output and the
translations (``refusal.401.<code>``) use.

Example:
    >>> str(ONE_OBJECT)
    '401-infinite: "TECHNICALITIES", One Object One Space'
    >>> Refusal.NOT_YOUR_TURN == "not_your_turn", Termination.TURN_LIMIT.value
    (True, 'turn_limit')
"""

from __future__ import annotations

from enum import StrEnum

from companion.games.core import RuleRef

RULEBOOK = "401-infinite"
"""The rulebook's file stem (``shared/rules/401-infinite.md``)."""

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
MOVE_PATH = RuleRef(RULEBOOK, "GLOSSARY", "Move: movement across Spaces with a path that is "
                    "affected by Walls and Status Effects")


def status_rule(status: str) -> RuleRef:
    """The rule a status effect refusal cites (the reading is in ``docs/401-infinite.md``).

    Example:
        >>> status_rule("stunned").detail
        'Status Effects: Stunned (reading in docs/401-infinite.md)'
    """
    return RuleRef(RULEBOOK, "GLOSSARY",
                   f"Status Effects: {status.capitalize()} (reading in docs/401-infinite.md)")


class Refusal(StrEnum):
    """Why an action is refused: the ``code`` of its :class:`~.core.IllegalAction`."""

    # the game and its starting steps
    GAME_OVER = "game_over"
    SETUP_STEP_DUE = "setup_step_due"
    NOT_A_SHUFFLE = "not_a_shuffle"
    DECK_SIZE = "deck_size"
    NOT_YOUR_PASSIVE = "not_your_passive"
    HAND_SIZE = "hand_size"
    # turns and cards
    NOT_NOW = "not_now"
    NOT_YOUR_TURN = "not_your_turn"
    NO_ACTIONS_LEFT = "no_actions_left"
    NOT_IN_HAND = "not_in_hand"
    # Runner's Rule
    RUNNER_PENDING = "runner_pending"
    NO_RUNNER = "no_runner"
    NOT_A_FREE_BASE_SPACE = "not_a_free_base_space"
    NOT_AN_OPPONENT = "not_an_opponent"
    BASE_GUARDED = "base_guarded"
    # movement
    NOT_YOUR_UNIT = "not_your_unit"
    UNIT_ELIMINATED = "unit_eliminated"
    NO_MOVEMENT = "no_movement"
    OUT_OF_REACH = "out_of_reach"
    TOO_FAR = "too_far"
    NOT_A_STEP = "not_a_step"
    WALL_IN_PATH = "wall_in_path"
    OPPONENT_IN_PATH = "opponent_in_path"
    SPACE_IS_WALL = "space_is_wall"
    SPACE_OCCUPIED = "space_occupied"
    # sources, targets and effects
    NEEDS_SOURCE = "needs_source"
    SOURCE_NOT_YOURS = "source_not_yours"
    SOURCE_USED = "source_used"
    ONE_TARGET = "one_target"
    NOT_SELF_TARGETABLE = "not_self_targetable"
    OUT_OF_RANGE = "out_of_range"
    LINE_HITS_WALL = "line_hits_wall"
    LINE_HITS_OPPONENT = "line_hits_opponent"
    WRONG_SIDE = "wrong_side"
    UTILITY_HAS_NO_SOURCE = "utility_has_no_source"
    TARGET_COUNT = "target_count"
    PLACEMENT_UNAVAILABLE = "placement_unavailable"
    # status effects that forbid an action: the code is the status
    STUNNED = "stunned"
    SILENCED = "silenced"
    GROUNDED = "grounded"
    UNTARGETABLE = "untargetable"


class Termination(StrEnum):
    """How a game ended (``Outcome.termination``)."""

    ALL_UNITS_ELIMINATED = "all_units_eliminated"
    """"STARTING THE GAME", Victory Objective: every opposing unit is eliminated."""
    TURN_LIMIT = "turn_limit"
    """A draw after the ``turn_limit`` option's turns (a companion option, not a rule)."""
