"""What the Infinidungeon screen shows: the room, the deck, the dice and the advisor's odds.

No Kivy here; the screen draws this. The advisor is the engine's exact one
(:func:`companion.games.infinidungeon.advise`): every reroll choice with its odds, best first.
:func:`advice_rows` words them for the players (issue 15): "Keep all: 100 %" under the
heading "Chance you win this room", never "P(defeat) = 1.0000" (which read as the chance of
losing); at a trap, the dice lost on average.

Example:
    >>> reroll_text(set())
    'reroll none'
    >>> reroll_text({3, 1})
    'reroll 1 3'
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.games.infinidungeon import advise
from companion.games.infinidungeon.actions import Reroll
from companion.games.infinidungeon.advisor import Advice, ChoiceOdds
from companion.games.infinidungeon.deck import DIRECTIONS
from companion.games.infinidungeon.state import DungeonState, Phase

REROLL_PHASES = frozenset({Phase.FIGHT_REROLL, Phase.TRAP_REROLL})
"""The phases at which the player chooses dice to reroll (the advisor's odds show)."""


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
    """The reroll action for the dice the player tapped (positions 1..n), in notation."""
    return str(Reroll(tuple(sorted(selected))))


Translate = Callable[..., str]
"""The app's ``tr(key, **params)``."""


def percent(chance: Fraction) -> str:
    """A probability as a whole percentage that never rounds to a certainty it is not.

    Example:
        >>> [percent(Fraction(n, 1000)) for n in (1000, 996, 455, 3, 0)]
        ['100 %', '>99 %', '46 %', '<1 %', '0 %']
    """
    if chance >= 1:
        return "100 %"
    if chance <= 0:
        return "0 %"
    value = round(float(chance) * 100)
    if value >= 100:
        return ">99 %"
    if value <= 0:
        return "<1 %"
    return f"{value} %"


def choice_words(choice: ChoiceOdds | tuple[int, ...], tr: Translate) -> str:
    """``Keep all`` or ``Reroll 1 3``, in the players' language."""
    reroll = choice.reroll if isinstance(choice, ChoiceOdds) else choice
    if not reroll:
        return tr("dungeon.keep_all")
    return tr("dungeon.reroll_dice", dice=" ".join(map(str, sorted(reroll))))


def average_loss(choice: ChoiceOdds) -> str:
    """Dice lost on average at a trap, to two places (``0.5``, ``1.25``).

    Example:
        >>> average_loss(ChoiceOdds((), losses=(Fraction(1, 2), Fraction(1, 2))))
        '0.5'
    """
    return f"{float(choice.expected_loss):.2f}".rstrip("0").rstrip(".")


def choice_odds(choice: ChoiceOdds, tr: Translate) -> str:
    """One choice and its odds in words (a button of the advisor's list)."""
    if choice.defeat is not None:
        return tr("dungeon.choice_odds", choice=choice_words(choice, tr),
                  odds=percent(choice.defeat))
    return tr("dungeon.trap_odds", choice=choice_words(choice, tr), dice=average_loss(choice))


def advice_heading(advice: Advice, tr: Translate) -> str:
    """What the advisor's figures are: the chance to win the room, or dice lost at a trap."""
    return tr("dungeon.advice_fight" if advice.kind == "fight" else "dungeon.advice_trap")


def advice_rows(advice: Advice, tr: Translate) -> list[tuple[str, str]]:
    """Every reroll choice, best first, as ``(words, action)``.

    Keeping every die is ``Keep all`` (``reroll none``).
    """
    return [(choice_odds(choice, tr), choice.reroll_text) for choice in advice.choices]


def marked_odds(advice: Advice, marked: Collection[int], tr: Translate) -> str:
    """The odds of the dice the player has marked, in a sentence.

    Example: "Marked (Reroll 1 3): you win this room: 45 %".
    """
    wanted = tuple(sorted(marked))
    choice = next((c for c in advice.choices if c.reroll == wanted), None)
    if choice is None:
        return ""
    words = choice_words(choice, tr)
    if choice.defeat is not None:
        return tr("dungeon.marked_fight", choice=words, odds=percent(choice.defeat))
    safe = choice.losses[0] if choice.losses else Fraction(1)
    return tr("dungeon.marked_trap", choice=words, dice=average_loss(choice),
              odds=percent(safe))


def current_advice(state: Any) -> Advice | None:
    """The advisor's odds while a reroll is being chosen, else ``None``."""
    return advise(state) if state.phase in REROLL_PHASES else None
