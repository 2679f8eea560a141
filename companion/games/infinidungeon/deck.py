"""The room cards of Infinidungeon as data: sides, doorways, traps and contents.

The card faces are pictures; this module models what the rules need from them. A deck is
read from TOML by :mod:`companion.games.infinidungeon.setup` and checked against the
rulebook by :mod:`companion.games.infinidungeon.deck_check`.

Example:
    >>> goblin = Monster("goblin", (1, 2, 3))
    >>> goblin.accepts(2), goblin.dice
    (True, 1)
    >>> opposite("north")
    'south'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

DIRECTIONS: tuple[str, ...] = ("north", "east", "south", "west")
"""The four ways out of a room, in the rulebook's order (North, East, South, West)."""

OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}

BASIC, ADVANCED = "basic", "advanced"
SIDES: tuple[str, ...] = (BASIC, ADVANCED)
"""A card's blue "Basic" side and its yellow "Advanced" side."""

ROOM_KINDS: tuple[str, ...] = ("empty", "monsters", "healing_pool", "treasure_vault", "boss")
"""What a side holds: nothing (the Entrance), monsters, a healing pool, a treasure vault
(monsters guarding it), or the boss."""

FIGHT_KINDS = frozenset({"monsters", "treasure_vault", "boss"})
"""Room kinds faced by rolling dice against monsters."""

ALL_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def opposite(direction: str) -> str:
    """The doorway a new room needs to be entered through ``direction``.

    Example:
        >>> opposite("west")
        'east'
    """
    return OPPOSITE[direction]


@dataclass(frozen=True)
class Monster:
    """A monster printed on a side: its name, the die faces below it, and how many dice.

    Attributes:
        name: the monster's name, unique on its side (used in ``assign 4:goblin``).
        faces: the die faces it accepts.
        dice: 1 for an ordinary monster, 2 for the two-equal-dice mark, 3 for the boss.
    """

    name: str
    faces: tuple[int, ...] = ALL_FACES
    dice: int = 1

    @property
    def boss(self) -> bool:
        """Whether this is the boss (three dice of equal value)."""
        return self.dice == 3

    def accepts(self, face: int) -> bool:
        """Whether a die showing ``face`` may be assigned to this monster.

        Example:
            >>> Monster("bat", (5, 6)).accepts(4)
            False
        """
        return face in self.faces


@dataclass(frozen=True)
class Doorway:
    """A doorway of a side: the two symbols printed in it and an optional trap.

    Attributes:
        symbols: the room symbols a new room may carry to be entered through it.
        trap: the die face below the trap, or ``None`` for an open doorway.
    """

    symbols: tuple[str, ...]
    trap: int | None = None


@dataclass(frozen=True)
class Side:
    """One printed side of a room card.

    Attributes:
        symbol: the room symbol in the lower-left corner.
        kind: one of :data:`ROOM_KINDS`.
        doorways: direction -> doorway, for the directions that have one.
        monsters: the monsters to defeat (fight kinds only), in printed order.
        crystal: whether a crystal is present (flips the card when first defeated).
    """

    symbol: str
    kind: str
    doorways: tuple[tuple[str, Doorway], ...]
    monsters: tuple[Monster, ...] = ()
    crystal: bool = False

    def doorway(self, direction: str) -> Doorway | None:
        """The doorway towards ``direction``, or ``None`` if the wall is closed."""
        for name, doorway in self.doorways:
            if name == direction:
                return doorway
        return None

    def monster(self, name: str) -> Monster | None:
        """The monster called ``name`` (case-insensitive), or ``None``."""
        for monster in self.monsters:
            if monster.name.lower() == name.lower():
                return monster
        return None


@dataclass(frozen=True)
class Card:
    """A room card: an id, a name, its Basic side and (except the Entrance) an Advanced side.

    Attributes:
        id: the short name used in records (``shuffle crypt den ...``).
        name: the room's name for the players.
        basic: the blue side.
        advanced: the yellow side, ``None`` for the single-sided Entrance.
        entrance: whether this is the blue Entrance the game starts in.
    """

    id: str
    name: str
    basic: Side
    advanced: Side | None = None
    entrance: bool = False

    def side(self, which: str) -> Side:
        """The side called ``which`` (the Entrance shows its only side either way)."""
        if which == ADVANCED and self.advanced is not None:
            return self.advanced
        return self.basic


@dataclass(frozen=True)
class Deck:
    """The nine cards of a game: the Entrance and the room deck.

    Attributes:
        name: the deck's name.
        cards: every card, the Entrance included, in file order.
        source: the file it was read from (for messages).
    """

    name: str
    cards: tuple[Card, ...]
    source: str = field(default="", compare=False)

    @cached_property
    def _index(self) -> dict[str, Card]:
        """Each card by its id and its lowercased id (computed once, not a field)."""
        index = {card.id: card for card in self.cards}
        index.update({card.id.lower(): card for card in self.cards})
        return index

    def card(self, card_id: str) -> Card:
        """The card called ``card_id`` (case-insensitive).

        Raises:
            KeyError: no such card.
        """
        found = self._index.get(card_id)
        return found if found is not None else self._index[card_id.lower()]

    def has_card(self, card_id: str) -> bool:
        """Whether a card called ``card_id`` exists (case-insensitive)."""
        return card_id in self._index or card_id.lower() in self._index

    @property
    def entrance(self) -> Card:
        """The Entrance card (the first one marked ``entrance``, else the first card)."""
        for card in self.cards:
            if card.entrance:
                return card
        return self.cards[0]

    @property
    def rooms(self) -> tuple[Card, ...]:
        """The cards shuffled into the room deck at the start (all but the Entrance)."""
        entrance = self.entrance
        return tuple(card for card in self.cards if card is not entrance)
