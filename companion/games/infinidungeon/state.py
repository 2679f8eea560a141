"""The state of an Infinidungeon game: the room you are in, the deck, your dice, the phase.

The deck pile is listed from the bottom (the next card drawn) to the top; each entry is a
card id and the side that faces down, which is the side revealed when it is drawn.

Example:
    >>> from companion.games.infinidungeon.deck import Card, Deck, Side
    >>> deck = Deck("x", (Card("entrance", "Entrance", Side("sun", "empty", ()), entrance=True),))
    >>> start = DungeonState(deck, SHUFFLE, room=("entrance", "basic"))
    >>> state_from_json(state_to_json(start)) == start
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.infinidungeon.deck import Deck, Side, deck_to_json
from companion.games.infinidungeon.deck_toml import deck_from_data

MAX_DICE = 5

# Phases: who acts and what is awaited.
SHUFFLE = "shuffle"                  # chance: the opening shuffle of the room deck
MOVE = "move"                        # player: choose a doorway
TRAP_ROLL = "trap_roll"              # chance: roll every die at a trapped doorway
TRAP_REROLL = "trap_reroll"          # player: choose dice to reroll (or none)
TRAP_REROLLING = "trap_rerolling"    # chance: the rerolled dice's values
VAULT = "vault"                      # player: use the kept treasure vault or not
FIGHT_ROLL = "fight_roll"            # chance: roll every die against the monsters
FIGHT_REROLL = "fight_reroll"        # player: choose dice to reroll (or none)
FIGHT_REROLLING = "fight_rerolling"  # chance: the rerolled dice's values
ASSIGN = "assign"                    # player: assign dice to monsters
RESHUFFLE = "reshuffle"              # chance: the fourth crystal's shuffle of the deck
OVER = "over"                        # the game has ended

CHANCE_PHASES = frozenset({SHUFFLE, TRAP_ROLL, TRAP_REROLLING, FIGHT_ROLL, FIGHT_REROLLING,
                           RESHUFFLE})
PHASES = frozenset(CHANCE_PHASES | {MOVE, TRAP_REROLL, VAULT, FIGHT_REROLL, ASSIGN, OVER})

Placed = tuple[str, str]
"""A card and the side that shows (on the table) or faces down (in the pile)."""


@dataclass(frozen=True)
class DungeonState:
    """Everything the referee knows about a game in progress.

    Attributes:
        deck: the cards (their printed data).
        phase: what is awaited next (the constants of this module).
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
        result: ``""`` while playing, else ``victory`` or ``defeat``.
        termination: the end's reason code (``boss_defeated``, ``last_die_lost``...).
        detail: the end in one sentence.
    """

    deck: Deck
    phase: str
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
    result: str = ""
    termination: str = ""
    detail: str = ""

    @property
    def side(self) -> Side:
        """The side of the current room that shows."""
        return self.deck.card(self.room[0]).side(self.room[1])

    @property
    def flipping_over(self) -> bool:
        """Whether the fourth crystal has flipped (no more rooms flip)."""
        return self.crystals >= 4


def state_to_json(state: DungeonState) -> dict[str, Any]:
    """The state as JSON-ready data (the deck included, so it stands alone)."""
    return {"deck": deck_to_json(state.deck), "phase": state.phase, "dice": state.dice,
            "room": list(state.room), "pile": [list(entry) for entry in state.pile],
            "rolled": list(state.rolled), "rerolling": list(state.rerolling),
            "heading": state.heading, "defeated": state.defeated, "vaults": list(state.vaults),
            "spent": list(state.spent), "crystals": state.crystals, "result": state.result,
            "termination": state.termination, "detail": state.detail}


def state_from_json(data: Mapping[str, Any]) -> DungeonState:
    """Rebuild a state from :func:`state_to_json` output.

    Raises:
        SetupError: the embedded deck is not a valid deck.
        KeyError, ValueError: the data is not a saved state.
    """
    deck = deck_from_data("saved state", data["deck"])
    phase = str(data["phase"])
    if phase not in PHASES:
        raise ValueError(f"saved state: unknown phase {phase!r}")
    room = data["room"]
    return DungeonState(
        deck=deck, phase=phase, dice=int(data["dice"]), room=(str(room[0]), str(room[1])),
        pile=tuple((str(card), str(side)) for card, side in data["pile"]),
        heading=str(data["heading"]), defeated=bool(data["defeated"]),
        crystals=int(data["crystals"]), result=str(data["result"]),
        termination=str(data["termination"]), detail=str(data["detail"]),
        rolled=tuple(int(face) for face in data["rolled"]),
        rerolling=tuple(int(position) for position in data["rerolling"]),
        vaults=tuple(str(card) for card in data["vaults"]),
        spent=tuple(str(card) for card in data["spent"]))
