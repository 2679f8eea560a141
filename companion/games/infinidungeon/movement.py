"""Moving room: doorways, traps, and drawing the next room from the bottom of the deck.

Example:
    >>> from companion.games.infinidungeon.deck import Doorway, Side
    >>> doorway = Doorway(("moon", "star"))
    >>> room = Side("star", "empty", (("south", Doorway(("sun", "sun"))),))
    >>> matches(room, doorway, "north")
    True
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.core import refuse
from companion.games.infinidungeon.deck import DIRECTIONS, Doorway, Side, opposite
from companion.games.infinidungeon.rulebook import MOVING_CRITERIA, MOVING_DOORWAY, Refusal
from companion.games.infinidungeon.state import DungeonState, Placed


def matches(room: Side, doorway: Doorway, direction: str) -> bool:
    """The rulebook's two criteria for the drawn ``room`` entered through ``doorway``.

    The room's symbol is one of the doorway's two symbols, and the room has a doorway on the
    side opposite to ``direction``.

    Example:
        >>> matches(Side("sun", "empty", ()), Doorway(("sun", "moon")), "east")
        False
    """
    return room.symbol in doorway.symbols and room.doorway(opposite(direction)) is not None


def can_lead_anywhere(state: DungeonState, direction: str) -> bool:
    """Whether the doorway towards ``direction`` exists and some card in the deck matches it."""
    doorway = state.side.doorway(direction)
    if doorway is None:
        return False
    return any(matches(state.deck.card(card).side(side), doorway, direction)
               for card, side in state.pile)


def open_directions(state: DungeonState) -> list[str]:
    """The directions the player may choose now (a doorway, and a card that can match)."""
    return [d for d in DIRECTIONS if can_lead_anywhere(state, d)]


def check_direction(state: DungeonState, direction: str) -> Doorway:
    """The doorway towards ``direction``, if the player may go that way.

    Raises:
        IllegalAction: no doorway there (``no_doorway``) or no card in the deck can match it
            (``no_matching_room``: choose another doorway instead of drawing forever).
    """
    doorway = state.side.doorway(direction)
    if doorway is None:
        ways = ", ".join(d for d, _ in state.side.doorways) or "none"
        refuse(Refusal.NO_DOORWAY, f"The {state.deck.card(state.room[0]).name} has no "
               f"doorway to the {direction} (doorways: {ways}).", MOVING_DOORWAY,
               direction=direction, doorways=[d for d, _ in state.side.doorways])
    if not can_lead_anywhere(state, direction):
        refuse(Refusal.NO_MATCHING_ROOM, "No room in the deck can be entered through the "
               f"{direction} doorway (it needs {' or '.join(doorway.symbols)} with a doorway "
               f"to the {opposite(direction)}); choose another doorway.", MOVING_CRITERIA,
               direction=direction)
    return doorway


@dataclass(frozen=True)
class Draw:
    """The result of drawing through a doorway.

    Attributes:
        room: the card entered and the side that shows.
        rejected: the cards drawn before it that did not match (put back on top).
        pile: the deck afterwards, without the old room (bottom first).
    """

    room: Placed
    rejected: tuple[Placed, ...]
    pile: tuple[Placed, ...]


def draw_room(state: DungeonState, direction: str) -> Draw:
    """Draw from the bottom until a room matches; non-matching cards go on top face down.

    The caller checked :func:`can_lead_anywhere`, so a match exists.

    Example:
        >>> from companion.games.infinidungeon.deck import Card, Deck
        >>> from companion.games.infinidungeon.state import Phase
        >>> door = (("north", Doorway(("moon", "star"))), ("south", Doorway(("sun", "sun"))))
        >>> cards = (Card("hall", "Hall", Side("sun", "empty", door), entrance=True),
        ...          Card("den", "Den", Side("sun", "empty", door)),
        ...          Card("cave", "Cave", Side("moon", "empty", door)))
        >>> state = DungeonState(Deck("d", cards), Phase.MOVE, room=("hall", "basic"),
        ...                      pile=(("den", "basic"), ("cave", "basic")))
        >>> draw_room(state, "north")
        Draw(room=('cave', 'basic'), rejected=(('den', 'basic'),), pile=(('den', 'basic'),))
    """
    doorway = state.side.doorway(direction)
    assert doorway is not None
    for index, (card, side) in enumerate(state.pile):
        if matches(state.deck.card(card).side(side), doorway, direction):
            rejected = state.pile[:index]
            return Draw((card, side), rejected, state.pile[index + 1:] + rejected)
    raise AssertionError("draw_room called for a doorway no card can match")


def trap_losses(rolled: tuple[int, ...], face: int) -> int:
    """Dice lost at a trap: those below ``face``, but never the last die.

    Example:
        >>> trap_losses((1, 2, 5), 3), trap_losses((1, 2), 6)
        (2, 1)
    """
    below = sum(1 for value in rolled if value < face)
    return min(below, len(rolled) - 1)
