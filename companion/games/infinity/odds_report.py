"""The odds of the declared exchanges, as the referee shows them before the dice are rolled.

Example:
    >>> from companion.games.infinity.odds import Side, exchange_odds
    >>> odds = exchange_odds(Side(target=13, burst=1, damage=13), Side(0, burst=0, arm=1))
    >>> report = OddsReport("Fusilier", Side(13, 1, 13), "Grenzer", Side(0, 0, arm=1), odds)
    >>> report.lines()[1]
    '  Fusilier succeeds 65.00%: 1 = 65.00% (1 Critical 5.00%)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .attacks import Roller, plan_contests
from .odds import ExchangeOdds, Side, exchange_odds
from .state import Phase, State


def percent(probability: Fraction) -> str:
    """A probability as a percentage with two decimals (as the published calculators print).

    Example:
        >>> percent(Fraction(1, 3))
        '33.33%'
    """
    return f"{float(probability) * 100:.2f}%"


def _hits_text(hits: Mapping[tuple[int, int], Fraction]) -> str:
    totals: dict[int, Fraction] = {}
    for (count, _crits), p in hits.items():
        if count:
            totals[count] = totals.get(count, Fraction(0)) + p
    parts = []
    for count, total in sorted(totals.items()):
        crits = ", ".join(f"{c} Critical{'s' if c > 1 else ''} {percent(p)}"
                          for (n, c), p in sorted(hits.items()) if n == count and c and p)
        parts.append(f"{count} = {percent(total)}" + (f" ({crits})" if crits else ""))
    return "; ".join(parts) if parts else "never"


def _wounds_text(wounds: Mapping[int, Fraction]) -> str:
    return ", ".join(f"{n} = {percent(p)}" for n, p in wounds.items())


@dataclass(frozen=True)
class OddsReport:
    """One exchange's odds with the names of the troopers involved."""

    active_name: str
    active: Side
    reactive_name: str
    reactive: Side | None
    odds: ExchangeOdds

    def heading(self) -> str:
        """Who rolls what against whom."""
        text = f"{self.active_name} target {self.active.target} x{self.active.burst}"
        if self.reactive is not None and self.reactive.burst:
            return f"{text} vs {self.reactive_name} target {self.reactive.target} x1"
        return f"{text} against {self.reactive_name} (Normal Roll)"

    def lines(self) -> list[str]:
        """The report as text lines."""
        odds = self.odds
        lines = [self.heading(),
                 f"  {self.active_name} succeeds {percent(odds.active_success_probability)}: "
                 f"{_hits_text(odds.active_hits)}"]
        opposed = self.reactive is not None and self.reactive.burst > 0
        if opposed:
            lines.append(f"  {self.reactive_name} succeeds "
                         f"{percent(odds.reactive_success_probability)}: "
                         f"{_hits_text(odds.reactive_hits)}")
            lines.append(f"  nobody succeeds {percent(odds.nobody)}")
        if odds.wounds_on_reactive is not None:
            lines.append(f"  Wounds {self.reactive_name} loses: "
                         f"{_wounds_text(odds.wounds_on_reactive)}")
        if odds.wounds_on_active is not None:
            lines.append(f"  Wounds {self.active_name} loses: "
                         f"{_wounds_text(odds.wounds_on_active)}")
        return lines

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (percentages as floats)."""
        def table(hits: Mapping[tuple[int, int], Fraction]) -> dict[str, float]:
            return {f"{n}/{c}": float(p) * 100 for (n, c), p in hits.items()}

        def wounds(data: Mapping[int, Fraction] | None) -> dict[str, float] | None:
            return None if data is None else {str(n): float(p) * 100 for n, p in data.items()}

        return {"active": self.active_name, "reactive": self.reactive_name,
                "active_target": self.active.target, "burst": self.active.burst,
                "reactive_target": self.reactive.target if self.reactive and
                self.reactive.burst else None,
                "active_hits": table(self.odds.active_hits),
                "reactive_hits": table(self.odds.reactive_hits),
                "nobody": float(self.odds.nobody) * 100,
                "wounds_on_reactive": wounds(self.odds.wounds_on_reactive),
                "wounds_on_active": wounds(self.odds.wounds_on_active)}


def _side(roller: Roller, own_arm: int) -> Side:
    return Side(roller.target, roller.dice, roller.damage, own_arm)


def declared_odds(state: State) -> list[OddsReport]:
    """The odds of every exchange of the Order waiting for its dice (empty otherwise).

    One report per Face to Face Roll (each target of a split Burst against its ARO) or
    Normal Roll, in resolution order; a Dodge does no damage, so its side has no Wounds.
    """
    if state.phase != Phase.ROLL:
        return []
    reports = []
    for contest in plan_contests(state):
        first = contest.active or contest.reactive
        assert first is not None
        second = contest.reactive if contest.active is not None else None
        if second is not None:
            active = _side(first, second.victim_arm)
            reactive = _side(second, first.victim_arm)
            name = second.trooper
        else:
            active = _side(first, 0)
            reactive = Side(0, 0, None, first.victim_arm)
            name = first.victim or "nobody"
        reports.append(OddsReport(first.trooper, active, name, reactive,
                                  exchange_odds(active, reactive)))
    return reports
