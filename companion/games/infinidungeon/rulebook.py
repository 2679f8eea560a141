"""The rulebook Infinidungeon cites: its file, its sections, its refusal and end codes.

Every refusal of the game is raised with :func:`companion.games.core.refuse`, a
:class:`Refusal` code and one of the sections below; a game ends with a
:class:`Termination`. The codes' values are the JSON and translation keys.

Example:
    >>> str(MOVING)
    'infinidungeon: "Moving Room"'
    >>> Refusal.NO_DOORWAY == "no_doorway", Termination.DEAD_END.value
    (True, 'dead_end')
"""

from __future__ import annotations

from enum import StrEnum

from companion.games.core import RuleRef

RULEBOOK = "infinidungeon"
"""The rulebook's file stem: ``shared/rules/infinidungeon.md``."""

INTRODUCTION = RuleRef(RULEBOOK, "Introduction")
TURN_ORDER = RuleRef(RULEBOOK, "Turn Order")
MOVING = RuleRef(RULEBOOK, "Moving Room")
MOVING_DOORWAY = RuleRef(RULEBOOK, "Moving Room", "paragraph 1: only through a doorway")
MOVING_TRAP = RuleRef(RULEBOOK, "Moving Room", "paragraph 2: trapped doorways")
MOVING_CRITERIA = RuleRef(RULEBOOK, "Moving Room", "the two criteria")
MONSTER_ROOM = RuleRef(RULEBOOK, "Facing the Room", "Monster Room")
HEALING_POOL = RuleRef(RULEBOOK, "Facing the Room", "Healing Pool")
TREASURE_VAULT = RuleRef(RULEBOOK, "Facing the Room", "Treasure Vault")
BOSS_ROOM = RuleRef(RULEBOOK, "Facing the Room", "Boss Room")
FLIPPING = RuleRef(RULEBOOK, "Flipping Rooms")
WINNING = RuleRef(RULEBOOK, "Winning or Losing")


class Refusal(StrEnum):
    """Every reason code an Infinidungeon action can be refused with."""

    GAME_OVER = "game_over"
    """The game has ended ("Winning or Losing")."""
    OUT_OF_TURN = "out_of_turn"
    """The action is not the one awaited now ("Turn Order")."""
    WRONG_CARDS = "wrong_cards"
    """A shuffle that does not list each card of the room deck once."""
    WRONG_DICE_COUNT = "wrong_dice_count"
    """A roll of more or fewer dice than are rolled."""
    ALREADY_REROLLED = "already_rerolled"
    """A second reroll of the same roll."""
    NO_SUCH_DIE = "no_such_die"
    """A reroll naming a die position that was not rolled."""
    NO_SUCH_MONSTER = "no_such_monster"
    """A die assigned to a monster not in the room."""
    DIE_NOT_ROLLED = "die_not_rolled"
    """More dice of a face assigned than show it."""
    FACE_NOT_ACCEPTED = "face_not_accepted"
    """A die given to a monster that does not accept its face."""
    DIE_UNASSIGNED = "die_unassigned"
    """A die some monster accepts left unassigned."""
    NO_DOORWAY = "no_doorway"
    """No doorway that way ("Moving Room", paragraph 1)."""
    NO_MATCHING_ROOM = "no_matching_room"
    """No card in the deck can be entered through that doorway (the two criteria)."""


class Termination(StrEnum):
    """How a game of Infinidungeon ends ("Winning or Losing")."""

    BOSS_DEFEATED = "boss_defeated"
    """The boss has its three equal dice: the player wins."""
    LAST_DIE_LOST = "last_die_lost"
    """The player's last die is lost: the player loses."""
    DEAD_END = "dead_end"
    """No card in the deck can be entered through any doorway: the player loses."""


def dice(count: int) -> str:
    """``1 die``, ``2 dice``: the count with the word that fits it (never "1 dice").

    Example:
        >>> dice(1), dice(3)
        ('1 die', '3 dice')
    """
    return f"{count} {'die' if count == 1 else 'dice'}"
