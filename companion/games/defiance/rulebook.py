"""The Defiance rulebook: its file, the sections refusals cite, refusal codes and terminations.

``RULEBOOK`` is the stem of ``shared/rules/infinities-defiance-of-fate.md``; every
:class:`~companion.games.core.RuleRef` below points into it by the rulebook's own section
headings. :class:`Refusal` lists every refusal code the engine gives (its values are the
JSON and translation keys), :class:`Termination` every way a game ends.

Example:
    >>> str(POWER_ACTIONS)
    'infinities-defiance-of-fate: "4. Turn Actions", Power Actions'
    >>> Refusal.NOT_IN_HAND == "not_in_hand"
    True
"""

from __future__ import annotations

from enum import StrEnum

from companion.games.core import RuleRef

RULEBOOK = "infinities-defiance-of-fate"
"""The rulebook's file stem under ``shared/rules``."""


def _rule(section: str, detail: str = "") -> RuleRef:
    return RuleRef(RULEBOOK, section, detail)


def detailed(rule: RuleRef, detail: str) -> RuleRef:
    """``rule`` with a detail computed from the game (``reveal 4 Role cards``).

    Example:
        >>> str(detailed(SKIRMISH, "reveal 4 Role cards"))
        'infinities-defiance-of-fate: "1.1 - Skirmish Mode", reveal 4 Role cards'
    """
    return RuleRef(rule.game, rule.section, detail)


# -- sections ------------------------------------------------------------------------------
SKIRMISH = _rule("1.1 - Skirmish Mode")
OBJECT = _rule("1.1 - Skirmish Mode", "1.1.1 - Object of the Game")
ADVENTURE = _rule("1.2.2 - Object of the Game")
CARDS = _rule("2.4 - Faction Decks")
UNIT_CARDS = _rule("2.4 - Faction Decks", "Unit Cards")
TILES = _rule("2.5 - Setting Tiles")
WALLS = _rule("2.5 - Setting Tiles", "Walls")
CHECKS = _rule("2.6.1 - Action Checks")
REROLL = _rule("2.6.1 - Action Checks", "Reroll")
CONVERT = _rule("2.6.1 - Action Checks", "Convert")
ADD_DIE = _rule("2.6.1 - Action Checks", "Add 1 Die")
GAMBITS = _rule("2.6.2 - Gambits")
SETUP = _rule("3. Setup")
SETUP_STEP_2 = _rule("3. Setup", "step 2")
SETUP_STEP_5 = _rule("3. Setup", "step 5")
SETUP_STEP_6 = _rule("3. Setup", "step 6")
SETUP_STEP_7 = _rule("3. Setup", "step 7")
TURN = _rule("4. Turn Actions")
TIDE_ACTIONS = _rule("4. Turn Actions", "Tide Actions")
POWER_ACTIONS = _rule("4. Turn Actions", "Power Actions")
FORTITUDE_ACTIONS = _rule("4. Turn Actions", "Fortitude Actions")
CURRENT_HEALTH = _rule("4. Turn Actions", "current Health")
SPENDING_DICE = _rule("4. Turn Actions", "spending action dice")
PROTECTION = _rule("5. Protection")
MOVEMENT = _rule("6. Movement")
BASIC_RULES = _rule("6. Movement", "Basic Rules")
DISCOVER = _rule("6. Movement", "Discover")
FLIPPING_TILES = _rule("6. Movement", "Flipping Tiles")
FORCED_MOVEMENT = _rule("6. Movement", "Forced Movement")
TIMELINE = _rule("7. Card Properties")
THE_TIMELINE = _rule("7. Card Properties", "The Timeline")
UNLOCKS = _rule("7. Card Properties", "Unlocks")
DAMAGE = _rule("8.1 - Damage")
SELF_TARGETED = _rule("8.1 - Damage", "except when the damage is self-targeted")
ORDER = _rule("8.2 - Order of Activation")
QUEUE = _rule("8.3 - The Queue")
RESHUFFLE = _rule("8.5 - Decks, Piles, and Hands", "shuffle its discard pile to reset the deck")
DEFEAT = _rule("8.6 - Defeat and Respawn")
CONCEDE = _rule("8.6 - Defeat and Respawn", "concede")
RESPAWN_DEPLOY = _rule("8.6 - Defeat and Respawn", "respawn then complete a deploy")


class Refusal(StrEnum):
    """Every refusal code of the engine (the value is the JSON and translation key)."""

    ACTION_UNBLOCKABLE = "action_unblockable"
    ADDED_DIE = "added_die"
    ALREADY_RESOLVING = "already_resolving"
    ALREADY_ROLLED = "already_rolled"
    BAD_COUNT = "bad_count"
    BAD_OPTION = "bad_option"
    BAD_REVEAL = "bad_reveal"
    BAD_ROLL = "bad_roll"
    BAD_ROTATION = "bad_rotation"
    BLOCK_COST = "block_cost"
    CHANCE_DUE = "chance_due"
    CONCEDED = "conceded"
    CONVERTED = "converted"
    DEPLOYING = "deploying"
    FATED = "fated"
    FORCED_ONTO_TILE = "forced_onto_tile"
    GAMBIT_COMPLETE = "gambit_complete"
    GAME_OVER = "game_over"
    GROUP_FULL = "group_full"
    GROUP_NOT_FULL = "group_not_full"
    HEALTH_LIMIT = "health_limit"
    LEADER_TAKEN = "leader_taken"
    LOCKED = "locked"
    MULLIGAN_USED = "mulligan_used"
    MUST_DISCOVER = "must_discover"
    NO_ABILITIES_IN_SETUP = "no_abilities_in_setup"
    NO_CHANCE_PENDING = "no_chance_pending"
    NO_CHAPTER = "no_chapter"
    NO_CLEAR_PATH = "no_clear_path"
    NO_CONVERSION = "no_conversion"
    NO_DIE = "no_die"
    NO_REROLL = "no_reroll"
    NO_ROLES = "no_roles"
    NO_SPACE_TO_PUSH = "no_space_to_push"
    NO_SUCH_DIE = "no_such_die"
    NO_SUCH_UNIT = "no_such_unit"
    NO_TILE = "no_tile"
    NOBODY_TO_PUSH = "nobody_to_push"
    NOT_ADJACENT = "not_adjacent"
    NOT_AN_ALLY = "not_an_ally"
    NOT_AN_ASSET = "not_an_asset"
    NOT_DEPLOYING = "not_deploying"
    NOT_EMPTY = "not_empty"
    NOT_ENOUGH_TIDE = "not_enough_tide"
    NOT_IN_HAND = "not_in_hand"
    NOT_IN_STACK = "not_in_stack"
    NOT_IN_TIMELINE = "not_in_timeline"
    NOT_LOCKED = "not_locked"
    NOT_NEXT_TO_RIFT = "not_next_to_rift"
    NOT_RESOLVING = "not_resolving"
    NOT_ROLLED = "not_rolled"
    NOT_TARGETED = "not_targeted"
    NOT_THIS_DECK = "not_this_deck"
    NOT_TURN_START = "not_turn_start"
    NOT_YOUR_TURN = "not_your_turn"
    NOTHING_TO_BLOCK = "nothing_to_block"
    OCCUPIED = "occupied"
    OFF_BOARD = "off_board"
    OUT_OF_REACH = "out_of_reach"
    PREPARED_THIS_TURN = "prepared_this_turn"
    PUSH_WHERE = "push_where"
    QUEUE_EMPTY = "queue_empty"
    QUEUE_PENDING = "queue_pending"
    REDISCOVER = "rediscover"
    REROLL_AFTER_CONVERT = "reroll_after_convert"
    REROLL_USED = "reroll_used"
    ROLE_DONE = "role_done"
    ROLE_NOT_REVEALED = "role_not_revealed"
    ROLE_PROGRESS = "role_progress"
    SELF_DAMAGE_ASSET = "self_damage_asset"
    SELF_TARGET = "self_target"
    SOURCE_NOT_IN_PLAY = "source_not_in_play"
    STEAL_GROUP_FULL = "steal_group_full"
    STEAL_OWN = "steal_own"
    STEP_COUNT = "step_count"
    STEP_NEEDS_CHOICE = "step_needs_choice"
    TILE_TAKEN = "tile_taken"
    TIMELINE_COMPLIANT = "timeline_compliant"
    TIMELINE_FULL = "timeline_full"
    TIMELINE_NOT_FULL = "timeline_not_full"
    TRIM_FIRST = "trim_first"
    UNITS_FIRST = "units_first"
    UNKNOWN_CARD = "unknown_card"
    UNKNOWN_CONDITION = "unknown_condition"
    UNKNOWN_LEADER = "unknown_leader"
    UNKNOWN_PLAYER = "unknown_player"
    UNKNOWN_SOURCE = "unknown_source"
    UNKNOWN_TILE = "unknown_tile"
    WALL = "wall"
    WRONG_DECK = "wrong_deck"
    WRONG_FACTION = "wrong_faction"
    WRONG_STEP = "wrong_step"


class Termination(StrEnum):
    """How a game ends (``Outcome.termination``).

    An Adventure claim ends it as ``condition_<id>`` (see :func:`condition_met`).
    """

    POINTS_TARGET = "points_target"
    """A side reached its Points at the end of a round (rulebook 1.1.1, 1.1.2)."""
    ROUND_LIMIT = "round_limit"
    """The last round ended (rulebook 1.1.1, 1.1.2, an Adventure chapter's limit)."""
    LAST_STANDING = "last_standing"
    """Every opponent is defeated (rulebook 8.6)."""
    ALL_CONCEDED = "all_conceded"
    """Every leader conceded."""
    NO_TURNS = "no_turns"
    """No leader can take a turn."""
    CONDITION = "condition"
    """The prefix of an Adventure win condition met (rulebook 1.2.2)."""


def condition_met(condition: str) -> str:
    """The termination of a game won by the Adventure win condition ``condition``.

    Example:
        >>> condition_met("hold-the-rift")
        'condition_hold-the-rift'
    """
    return f"{Termination.CONDITION}_{condition}"
