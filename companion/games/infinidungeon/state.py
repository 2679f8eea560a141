"""The state of an Infinidungeon game: the room you are in, the deck, your dice, the phase.

The deck pile is listed from the bottom (the next card drawn) to the top; each entry is a
card id and the side that faces down, which is the side revealed when it is drawn. The state
is written to JSON and read back by the type-driven codec (:mod:`companion.games.codec`).

Example:
    >>> from companion.games.codec import from_json, to_json
    >>> from companion.games.infinidungeon.deck import Card, Deck, Side
    >>> deck = Deck("x", (Card("entrance", "Entrance", Side("sun", "empty", ()), entrance=True),))
    >>> start = DungeonState(deck, Phase.SHUFFLE, room=("entrance", "basic"))
    >>> from_json(DungeonState, to_json(start)) == start
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.games.infinidungeon.deck import Deck, Side
from companion.games.infinidungeon.rulebook import Termination

MAX_DICE = 5


class Phase(StrEnum):
    """What is awaited next, and from whom (chance or the player)."""

    SHUFFLE = "shuffle"
    """Chance: the opening shuffle of the room deck."""
    MOVE = "move"
    """Player: choose a doorway."""
    TRAP_ROLL = "trap_roll"
    """Chance: roll every die at a trapped doorway."""
    TRAP_REROLL = "trap_reroll"
    """Player: choose dice to reroll at the trap (or none)."""
    TRAP_REROLLING = "trap_rerolling"
    """Chance: the values of the dice rerolled at the trap."""
    VAULT = "vault"
    """Player: use the kept treasure vault or not."""
    FIGHT_ROLL = "fight_roll"
    """Chance: roll every die against the monsters."""
    FIGHT_REROLL = "fight_reroll"
    """Player: choose dice to reroll against the monsters (or none)."""
    FIGHT_REROLLING = "fight_rerolling"
    """Chance: the values of the dice rerolled against the monsters."""
    ASSIGN = "assign"
    """Player: assign dice to monsters."""
    RESHUFFLE = "reshuffle"
    """Chance: the fourth crystal's shuffle of the deck."""
    OVER = "over"
    """The game has ended."""


CHANCE_PHASES = frozenset({Phase.SHUFFLE, Phase.TRAP_ROLL, Phase.TRAP_REROLLING,
                           Phase.FIGHT_ROLL, Phase.FIGHT_REROLLING, Phase.RESHUFFLE})
"""The phases at which chance acts (a shuffle or a roll)."""

TRAP_PHASES = frozenset({Phase.TRAP_ROLL, Phase.TRAP_REROLL, Phase.TRAP_REROLLING})
"""The phases of a trapped doorway's roll ("Moving Room", paragraph 2)."""


class Result(StrEnum):
    """How the game ended for the player."""

    VICTORY = "victory"
    DEFEAT = "defeat"


Placed = tuple[str, str]
"""A card and the side that shows (on the table) or faces down (in the pile)."""


@dataclass(frozen=True)
class DungeonState:
    """Everything the referee knows about a game in progress.

    Attributes:
        deck: the cards (their printed data).
        phase: what is awaited next.
        dice: how many dice the player still has (0-5).
        room: the current room (card id, side showing).
        pile: the room deck from the bottom (drawn next) to the top, with the side that
            will show when drawn.
        rolled: the dice as they lie (in position order 1..n) during a roll.
        rerolling: the positions chosen for the reroll whose values are awaited.
        heading: the direction chosen while a trap is being rolled.
        defeated: whether the current room's monsters are defeated.
        vaults: treasure vaults kept aside, not yet used.
        spent: treasure vaults used (out of play, Basic side up).
        crystals: crystal rooms flipped so far (0-4).
        result: ``None`` while playing, else victory or defeat.
        termination: how the game ended (``None`` while playing).
        detail: the end in one sentence.
    """

    deck: Deck
    phase: Phase
    dice: int = MAX_DICE
    room: Placed = ("", "basic")
    pile: tuple[Placed, ...] = ()
    rolled: tuple[int, ...] = ()
    rerolling: tuple[int, ...] = ()
    heading: str = ""
    defeated: bool = False
    vaults: tuple[str, ...] = ()
    spent: tuple[str, ...] = ()
    crystals: int = 0
    result: Result | None = None
    termination: Termination | None = None
    detail: str = ""

    @property
    def side(self) -> Side:
        """The side of the current room that shows."""
        return self.deck.card(self.room[0]).side(self.room[1])

    @property
    def flipping_over(self) -> bool:
        """Whether the fourth crystal has flipped (no more rooms flip)."""
        return self.crystals >= 4
