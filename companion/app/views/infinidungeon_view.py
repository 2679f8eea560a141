"""What the Infinidungeon screen shows: the room, the deck, the dice and the advisor's odds.

No Kivy here; the screen draws this. The advisor is the engine's exact one
(:func:`companion.games.infinidungeon.advise`): every reroll choice with its odds, best first.

Example:
    >>> reroll_text(set())
    'reroll none'
    >>> reroll_text({3, 1})
    'reroll 1 3'
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from companion.games.infinidungeon import advise
from companion.games.infinidungeon.state import FIGHT_REROLL, TRAP_REROLL, DungeonState

DIRECTIONS = ("north", "east", "south", "west")
REROLL_PHASES = frozenset({FIGHT_REROLL, TRAP_REROLL})


@dataclass(frozen=True)
class DungeonView:
    """The Infinidungeon screen's content.

    Attributes:
        room: the room's name and the side showing (``Entrance (basic)``).
        kind: monsters, healing pool, treasure vault, boss...
        symbol: the room's symbol (lower-left corner of the card).
        doorways: one line per doorway: direction, symbols, and the trap's face if any.
        monsters: one line per monster: name, the faces that beat it, dice it needs.
        dice_left: dice the player still has (0-5).
        deck_left: cards in the room deck.
        crystals: crystal rooms flipped (0-4).
        rolled: the dice on the table, positions 1..n.
        choosing_reroll: whether the player is choosing dice to reroll now.
        odds: the advisor's best choices, one line each, best first.
        best: the positions the advisor would reroll.
    """

    room: str
    kind: str
    symbol: str
    doorways: tuple[str, ...]
    monsters: tuple[str, ...]
    dice_left: int
    deck_left: int
    crystals: int
    rolled: tuple[int, ...]
    choosing_reroll: bool
    odds: tuple[str, ...]
    best: tuple[int, ...]


def dungeon_view(state: DungeonState, odds_shown: int = 3) -> DungeonView:
    """The screen's content for ``state``."""
    card_id, side_name = state.room
    card = state.deck.card(card_id) if card_id else None
    side = state.side if card is not None else None
    doorways = []
    monsters = []
    if side is not None:
        exits = dict(side.doorways)
        for direction in DIRECTIONS:
            doorway = exits.get(direction)
            if doorway is None:
                continue
            trap = f"  trap {doorway.trap}+" if doorway.trap is not None else ""
            doorways.append(f"{direction[0].upper()}  {' / '.join(doorway.symbols)}{trap}")
        for monster in side.monsters:
            need = f" x{monster.dice}" if monster.dice > 1 else ""
            monsters.append(f"{monster.name}: {' '.join(map(str, monster.faces))}{need}")
    advice = advise(state) if state.phase in REROLL_PHASES else None
    odds: tuple[str, ...] = ()
    best: tuple[int, ...] = ()
    if advice is not None:
        odds = tuple(choice.describe() for choice in advice.choices[:odds_shown])
        best = advice.best.reroll
    return DungeonView(
        room=f"{card.name} ({side_name})" if card is not None else "",
        kind=side.kind if side is not None else "",
        symbol=side.symbol if side is not None else "",
        doorways=tuple(doorways), monsters=tuple(monsters), dice_left=state.dice,
        deck_left=len(state.pile), crystals=state.crystals, rolled=state.rolled,
        choosing_reroll=state.phase in REROLL_PHASES, odds=odds, best=best)


def reroll_text(selected: Collection[int]) -> str:
    """The reroll action for the dice the player tapped (positions 1..n)."""
    return "reroll " + (" ".join(map(str, sorted(selected))) if selected else "none")
