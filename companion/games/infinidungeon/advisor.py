"""The reroll advisor: exact odds for every choice of dice to reroll, and the best choice.

Exact by enumeration: the rerolled dice's outcomes are enumerated as multisets with their
multinomial weights (at most 252 for five dice), and whether a final multiset defeats the
monsters is memoised, so a decision costs a few thousand table look-ups, not samples.

Example:
    >>> from fractions import Fraction
    >>> from companion.games.infinidungeon.deck import Monster
    >>> advice = fight_advice((Monster("bat", (6,)),), (3, 2))
    >>> advice.best.reroll_text, advice.best.defeat
    ('reroll 1 2', Fraction(11, 36))
    >>> trap_advice(4, (1, 5)).best.expected_loss
    Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb, factorial

from companion.games.infinidungeon.combat import MonstersKey, can_defeat, monsters_key
from companion.games.infinidungeon.deck import ALL_FACES, Monster
from companion.games.infinidungeon.movement import trap_losses
from companion.games.infinidungeon.state import DungeonState, Phase


@dataclass(frozen=True)
class ChoiceOdds:
    """The exact odds of one choice of dice to reroll.

    Attributes:
        reroll: the positions (1..n) rerolled; empty to keep the roll.
        defeat: in a monster or boss room, the probability of defeating it.
        losses: at a trap, ``losses[k]`` is the probability of losing ``k`` dice.
    """

    reroll: tuple[int, ...]
    defeat: Fraction | None = None
    losses: tuple[Fraction, ...] = ()

    @property
    def reroll_text(self) -> str:
        """The choice in the notation (``reroll 1 2`` / ``reroll none``)."""
        return _reroll_text(self.reroll)

    @property
    def expected_loss(self) -> Fraction:
        """Dice lost on average at a trap (0 in a monster room)."""
        return sum((k * p for k, p in enumerate(self.losses)), Fraction(0))

    def describe(self) -> str:
        """One line: the choice and its figures.

        Example:
            >>> ChoiceOdds((1,), Fraction(1, 3)).describe()
            'reroll 1: P(defeat) = 0.3333 (1/3)'
        """
        if self.defeat is not None:
            return f"{self.reroll_text}: P(defeat) = {float(self.defeat):.4f} ({self.defeat})"
        spread = ", ".join(f"lose {k}: {float(p):.4f}" for k, p in enumerate(self.losses)
                           if p)
        return f"{self.reroll_text}: expected loss {float(self.expected_loss):.4f} ({spread})"


@dataclass(frozen=True)
class Advice:
    """The odds of every reroll choice for one roll, best first, and the best choice.

    Attributes:
        kind: ``fight`` (monster or boss room) or ``trap``.
        dice: the roll, positions 1..n.
        choices: every choice (all subsets of positions), best first.
    """

    kind: str
    dice: tuple[int, ...]
    choices: tuple[ChoiceOdds, ...]

    @property
    def best(self) -> ChoiceOdds:
        """The best choice (ties go to rerolling fewer dice, then to notation order)."""
        return self.choices[0]


def _subsets(count: int) -> list[tuple[int, ...]]:
    positions = range(1, count + 1)
    return [chosen for size in range(count + 1) for chosen in combinations(positions, size)]


@lru_cache(maxsize=16)
def outcomes(count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every multiset ``count`` dice can show, with the number of ordered rolls giving it.

    Example:
        >>> len(outcomes(5)), sum(weight for _, weight in outcomes(5)) == 6 ** 5
        (252, True)
    """
    result = []
    for faces in combinations_with_replacement(ALL_FACES, count):
        weight = factorial(count)
        for face in set(faces):
            weight //= factorial(faces.count(face))
        result.append((faces, weight))
    return tuple(result)


@lru_cache(maxsize=65536)
def _winning_weight(key: MonstersKey, kept: tuple[int, ...], rerolled: int) -> int:
    """Ordered outcomes of ``rerolled`` dice that, with ``kept``, defeat the monsters."""
    return sum(weight for faces, weight in outcomes(rerolled)
               if can_defeat(key, tuple(sorted(kept + faces))))


def defeat_probability(monsters: Sequence[Monster], kept: Sequence[int], rerolled: int) -> Fraction:
    """Exact probability that ``kept`` dice plus ``rerolled`` fresh dice defeat ``monsters``.

    Example:
        >>> defeat_probability((Monster("dragon", dice=3),), (4, 4), 1)
        Fraction(1, 6)
    """
    key = monsters_key(monsters)
    return Fraction(_winning_weight(key, tuple(sorted(kept)), rerolled), 6 ** rerolled)


def fight_advice(monsters: Sequence[Monster], dice: Sequence[int]) -> Advice:
    """The probability of defeating ``monsters`` for every choice of dice to reroll.

    Example:
        >>> advice = fight_advice((Monster("troll", (5, 6), 2),), (5, 5, 1))
        >>> advice.best.describe(), len(advice.choices)
        ('reroll none: P(defeat) = 1.0000 (1)', 8)
    """
    rolled = tuple(dice)
    ranked = sorted(_ranked_choices(monsters, rolled),
                    key=lambda entry: (entry[0], len(entry[1]), _reroll_text(entry[1])))
    choices = tuple(ChoiceOdds(chosen, Fraction(wins, 6 ** len(chosen)))
                    for _, chosen, wins in ranked)
    return Advice("fight", rolled, choices)


def best_reroll(monsters: Sequence[Monster], dice: Sequence[int]) -> tuple[int, ...]:
    """The positions :func:`fight_advice` ranks best, without building every figure.

    Example:
        >>> best_reroll((Monster("bat", (6,)),), (6, 2, 6))
        ()
    """
    ranked = _ranked_choices(monsters, tuple(dice))
    top = min((scaled, len(chosen)) for scaled, chosen, _ in ranked)
    tied = [chosen for scaled, chosen, _ in ranked if (scaled, len(chosen)) == top]
    return tied[0] if len(tied) == 1 else min(tied, key=_reroll_text)


def _ranked_choices(monsters: Sequence[Monster],
                    rolled: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], int]]:
    """``(-wins scaled to 6**n, positions, wins)`` for every choice on the roll ``rolled``.

    The work is memoised on the sorted roll; positions are mapped back to ``rolled``.
    """
    order = sorted(range(len(rolled)), key=lambda index: rolled[index])
    table = _sorted_roll_table(monsters_key(monsters), tuple(rolled[i] for i in order))
    return [(scaled, tuple(sorted(order[j] + 1 for j in chosen)), wins)
            for scaled, chosen, wins in table]


@lru_cache(maxsize=8192)
def _sorted_roll_table(key: MonstersKey,
                       rolled: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    count = len(rolled)
    table = []
    for chosen in _subsets(count):
        kept = tuple(face for index, face in enumerate(rolled) if index + 1 not in chosen)
        wins = _winning_weight(key, kept, len(chosen))
        # Compare on the common denominator 6**count: exact integers, no Fraction sorting.
        table.append((-wins * 6 ** (count - len(chosen)),
                      tuple(index - 1 for index in chosen), wins))
    return tuple(table)


def _reroll_text(chosen: tuple[int, ...]) -> str:
    return "reroll " + (" ".join(map(str, chosen)) if chosen else "none")


def trap_advice(face: int, dice: Sequence[int]) -> Advice:
    """The exact distribution of dice lost at a trap for every choice of dice to reroll.

    Example:
        >>> trap_advice(4, (2, 6)).best.describe()
        'reroll 1: expected loss 0.5000 (lose 0: 0.5000, lose 1: 0.5000)'
    """
    rolled = tuple(dice)
    below = Fraction(face - 1, 6)
    choices = []
    for chosen in _subsets(len(rolled)):
        kept = tuple(value for position, value in enumerate(rolled, 1)
                     if position not in chosen)
        losses = [Fraction(0)] * len(rolled)
        k = len(chosen)
        for low in range(k + 1):
            p = comb(k, low) * below ** low * (1 - below) ** (k - low)
            lost = trap_losses(kept + (1,) * low + (6,) * (k - low), face)
            losses[lost] += p
        choices.append(ChoiceOdds(chosen, None, tuple(losses)))
    choices.sort(key=lambda c: (c.expected_loss, -c.losses[0], len(c.reroll),
                                _reroll_text(c.reroll)))
    return Advice("trap", rolled, tuple(choices))


def fresh_roll_defeat(monsters: Sequence[Monster], dice: int) -> Fraction:
    """Probability of defeating ``monsters`` from a fresh roll, rerolling as advised.

    This is the room's difficulty for a player with ``dice`` dice.

    Example:
        >>> fresh_roll_defeat((Monster("any"),), 1)
        Fraction(1, 1)
    """
    key = monsters_key(monsters)
    total = Fraction(0)
    for faces, weight in outcomes(dice):
        best = max(Fraction(_winning_weight(key, tuple(sorted(kept)), len(chosen)),
                            6 ** len(chosen))
                   for chosen in _subsets(dice)
                   for kept in [[f for i, f in enumerate(faces, 1) if i not in chosen]])
        total += best * weight
    return total / 6 ** dice


def advise(state: DungeonState) -> Advice | None:
    """The advice for the roll on the table, or ``None`` when no reroll choice is due.

    Example:
        >>> from companion.games.infinidungeon.deck import Card, Deck, Side
        >>> side = Side("sun", "monsters", (), (Monster("bat", (6,)),))
        >>> deck = Deck("d", (Card("cave", "Cave", side, entrance=True),))
        >>> from companion.games.infinidungeon.state import Phase
        >>> state = DungeonState(deck, Phase.FIGHT_REROLL, room=("cave", "basic"),
        ...                      rolled=(6, 1))
        >>> advise(state).best.reroll_text
        'reroll none'
    """
    if state.phase == Phase.FIGHT_REROLL:
        return fight_advice(state.side.monsters, state.rolled)
    if state.phase == Phase.TRAP_REROLL:
        doorway = state.side.doorway(state.heading)
        if doorway is not None and doorway.trap is not None:
            return trap_advice(doorway.trap, state.rolled)
    return None
