"""Exact odds of a declared exchange, before anyone rolls.

For an active side rolling Burst dice against a reactive side rolling one die (or not rolling:
a Normal Roll), :func:`exchange_odds` gives, for each side, the exact probability of each
number of successes and Criticals left standing after the Face to Face Roll, of nobody
succeeding, and of each number of Wounds the opponent loses after its ARM Rolls.

Method (exact, no sampling): condition on the reactive die's 20 faces. Given that face, the
active dice are independent and each falls in one of a handful of classes (fails; succeeds
but is cancelled without cancelling the reactive die; ties; beats it; Critical), so the
number of dice in each class is multinomial and the outcome depends only on those numbers:
a sum of O(Burst^2) integer terms per face, all counted over the 20^(B+1) equally likely
rolls. :func:`brute_force_odds` enumerates every roll through the engine's own
:func:`~.rolls.face_to_face` to check it.

Example:
    >>> odds = exchange_odds(Side(target=10), Side(target=10))
    >>> float(odds.nobody)
    0.275
    >>> float(odds.active_success_probability), float(odds.reactive_success_probability)
    (0.3625, 0.3625)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from .armour import failing_faces
from .rolls import DIE_FACES, face_to_face, judge_die

MAX_BURST = 6
"""The largest Burst the odds accept on the active side."""


@dataclass(frozen=True)
class Side:
    """One side of an exchange.

    Attributes:
        target: the Normal Roll target value with every modifier applied (range, cover...).
        burst: dice rolled; the reactive side rolls 1, or 0 when it does not roll (it is
            only the target of a Normal Roll, and only its ``arm`` matters).
        damage: the Damage of its successes, or ``None`` when they do no damage (Dodge).
        arm: its own ARM when the other side hits it (Partial Cover's +3 included).

    Example:
        >>> Side(target=16, burst=3, damage=13).burst
        3
    """

    target: int
    burst: int = 1
    damage: int | None = None
    arm: int = 0


Counts = dict[tuple[int, int], int]


@dataclass(frozen=True)
class ExchangeOdds:
    """The exact outcome distribution of one exchange.

    Attributes:
        active_hits: ``(successes, criticals) -> probability`` for the active side; the
            successes count the Criticals among them; ``(0, 0)`` is "no success".
        reactive_hits: the same for the reactive side.
        nobody: probability that neither side succeeds.
        wounds_on_reactive: ``wounds -> probability`` the reactive side loses (``None``
            when the active side does no damage).
        wounds_on_active: the same for the active side.
    """

    active_hits: Mapping[tuple[int, int], Fraction]
    reactive_hits: Mapping[tuple[int, int], Fraction]
    nobody: Fraction
    wounds_on_reactive: Mapping[int, Fraction] | None
    wounds_on_active: Mapping[int, Fraction] | None

    @property
    def active_success_probability(self) -> Fraction:
        """Probability that the active side has at least one success standing."""
        return 1 - self.active_hits.get((0, 0), Fraction(0))

    @property
    def reactive_success_probability(self) -> Fraction:
        """Probability that the reactive side has its success standing."""
        return 1 - self.reactive_hits.get((0, 0), Fraction(0))


def _check(active: Side, reactive: Side | None) -> None:
    if not 1 <= active.burst <= MAX_BURST:
        raise ValueError(f"the active Burst must be 1 to {MAX_BURST}, not {active.burst}")
    if reactive is not None and reactive.burst not in (0, 1):
        raise ValueError("the reactive side rolls 1 die (Burst 1), or 0 when it does not roll")


def _rolls(reactive: Side | None) -> bool:
    return reactive is not None and reactive.burst == 1


def _add(counts: Counts, key: tuple[int, int], weight: int) -> None:
    if weight:
        counts[key] = counts.get(key, 0) + weight


def _unopposed(active: Side, counts: Counts) -> None:
    judged = [judge_die(active.target, face) for face in range(1, DIE_FACES + 1)]
    crit = sum(r.critical for r in judged)
    plain = sum(r.success and not r.critical for r in judged)
    fail = DIE_FACES - crit - plain
    burst = active.burst
    for hits in range(burst + 1):
        for crits in range(burst - hits + 1):
            weight = (comb(burst, hits) * comb(burst - hits, crits) * plain ** hits
                      * crit ** crits * fail ** (burst - hits - crits))
            _add(counts, (hits + crits, crits), weight)


def _opposed(active: Side, reactive: Side, active_counts: Counts,
             reactive_counts: Counts) -> int:
    """Add the counts over the 20^(B+1) rolls; return how many rolls leave nobody standing."""
    burst = active.burst
    judged = [judge_die(active.target, face) for face in range(1, DIE_FACES + 1)]
    crit = sum(r.critical for r in judged)
    fail = sum(not r.success for r in judged)
    nobody = 0
    for face in range(1, DIE_FACES + 1):
        mine = judge_die(reactive.target, face)
        if not mine.success:
            _unopposed(active, active_counts)
            nobody += fail ** burst
            continue
        if mine.critical:
            no_crit = (DIE_FACES - crit) ** burst
            _add(reactive_counts, (1, 1), no_crit)
            nobody += DIE_FACES ** burst - no_crit
            continue
        high = sum(r.success and not r.critical and r.value > mine.value for r in judged)
        tie = sum(r.success and not r.critical and r.value == mine.value for r in judged)
        below = DIE_FACES - crit - high - tie  # fails, or cancelled without cancelling
        for hits in range(burst + 1):
            for crits in range(burst - hits + 1):
                if hits + crits == 0:
                    continue
                weight = (comb(burst, hits) * comb(burst - hits, crits) * high ** hits
                          * crit ** crits * (below + tie) ** (burst - hits - crits))
                _add(active_counts, (hits + crits, crits), weight)
        _add(reactive_counts, (1, 0), below ** burst)
        nobody += (below + tie) ** burst - below ** burst
    return nobody


def _wounds(counts: Mapping[tuple[int, int], Fraction], damage: int | None,
            arm: int) -> dict[int, Fraction] | None:
    """Wounds lost by the side hit: Criticals wound outright, other hits roll ARM."""
    if damage is None:
        return None
    failing = Fraction(failing_faces(arm, damage), DIE_FACES)
    wounds: dict[int, Fraction] = {}
    for (hits, crits), probability in counts.items():
        rolls = hits - crits
        for lost in range(rolls + 1):
            share = comb(rolls, lost) * failing ** lost * (1 - failing) ** (rolls - lost)
            if share:
                wounds[crits + lost] = wounds.get(crits + lost, Fraction(0)) \
                    + probability * share
    return dict(sorted(wounds.items()))


def _finish(active: Side, reactive: Side | None, active_counts: Counts,
            reactive_counts: Counts, nobody: int, total: int) -> ExchangeOdds:
    active_hits = {key: Fraction(n, total) for key, n in sorted(active_counts.items())
                   if key != (0, 0)}
    reactive_hits = {key: Fraction(n, total) for key, n in sorted(reactive_counts.items())
                     if key != (0, 0)}
    active_hits = {(0, 0): 1 - sum(active_hits.values(), Fraction(0)), **active_hits}
    reactive_hits = {(0, 0): 1 - sum(reactive_hits.values(), Fraction(0)), **reactive_hits}
    reactive_arm = reactive.arm if reactive is not None else 0
    if not _rolls(reactive):
        nobody_p = active_hits[(0, 0)]
        wounds_on_active = None
    else:
        assert reactive is not None
        nobody_p = Fraction(nobody, total)
        wounds_on_active = _wounds(reactive_hits, reactive.damage, active.arm)
    return ExchangeOdds(active_hits, reactive_hits, nobody_p,
                        _wounds(active_hits, active.damage, reactive_arm), wounds_on_active)


def exchange_odds(active: Side, reactive: Side | None = None) -> ExchangeOdds:
    """The exact odds of ``active`` (Burst 1-6) against ``reactive`` (1 die, or no roll).

    Args:
        active: the active side (the target value already includes range and cover MODs).
        reactive: the reactive side; ``None`` (or Burst 0, to give its ARM) for an
            unopposed Normal Roll.

    Raises:
        ValueError: a Burst outside 1-6 on the active side, or above 1 on the reactive side.

    Example:
        >>> odds = exchange_odds(Side(target=13, burst=1, damage=13), None)
        >>> float(odds.active_hits[(1, 0)]), float(odds.active_hits[(1, 1)])
        (0.6, 0.05)
        >>> float(odds.wounds_on_reactive[1])  # 0.6 * 13/20 + 0.05
        0.44
    """
    _check(active, reactive)
    active_counts: Counts = {}
    reactive_counts: Counts = {}
    if not _rolls(reactive):
        _unopposed(active, active_counts)
        return _finish(active, reactive, active_counts, reactive_counts, 0,
                       DIE_FACES ** active.burst)
    assert reactive is not None
    nobody = _opposed(active, reactive, active_counts, reactive_counts)
    return _finish(active, reactive, active_counts, reactive_counts, nobody,
                   DIE_FACES ** (active.burst + 1))


def _brute_wounds(counts: Mapping[tuple[int, int], Fraction], damage: int | None,
                  arm: int) -> dict[int, Fraction] | None:
    """Wounds by enumerating every ARM die of every non-Critical hit."""
    if damage is None:
        return None
    wounds: dict[int, Fraction] = {}
    for (hits, crits), probability in counts.items():
        rolls = hits - crits
        outcomes = list(itertools.product(range(1, DIE_FACES + 1), repeat=rolls))
        for dice in outcomes:
            lost = crits + sum(die + arm <= damage for die in dice)
            wounds[lost] = wounds.get(lost, Fraction(0)) + probability / len(outcomes)
    return dict(sorted(wounds.items()))


def brute_force_odds(active: Side, reactive: Side | None = None) -> ExchangeOdds:
    """The same odds by resolving every one of the 20^(B+1) rolls (slow; for checks).

    Example:
        >>> brute_force_odds(Side(target=10), Side(target=10)).nobody == Fraction(11, 40)
        True
    """
    _check(active, reactive)
    faces = range(1, DIE_FACES + 1)
    active_counts: Counts = {}
    reactive_counts: Counts = {}
    nobody = 0
    rolls = _rolls(reactive)
    reactive_faces = [(face,) for face in faces] if rolls else [()]
    reactive_target = reactive.target if reactive is not None and rolls else None
    for dice in itertools.product(faces, repeat=active.burst):
        for mine in reactive_faces:
            result = face_to_face(active.target, dice, reactive_target, mine)
            _add(active_counts, (len(result.active_successes),
                                 sum(r.critical for r in result.active_successes)), 1)
            _add(reactive_counts, (len(result.reactive_successes),
                                   sum(r.critical for r in result.reactive_successes)), 1)
            nobody += result.nobody
    total = DIE_FACES ** active.burst * len(reactive_faces)
    odds = _finish(active, reactive, active_counts, reactive_counts, nobody, total)
    reactive_arm = reactive.arm if reactive is not None else 0
    return ExchangeOdds(odds.active_hits, odds.reactive_hits, odds.nobody,
                        _brute_wounds(odds.active_hits, active.damage, reactive_arm),
                        _brute_wounds(odds.reactive_hits, reactive.damage, active.arm)
                        if reactive is not None and rolls else None)
