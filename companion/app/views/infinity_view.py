"""What the Infinity screen shows (no Kivy).

Round and Order pool, troopers with their Wounds, and the exact odds of the exchange
declared and waiting for its dice.

The odds are the engine's (:func:`companion.games.infinity.odds_report.declared_odds`).

Example:
    >>> wound_pips(1, 2)
    '●○'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.infinity.odds_report import declared_odds
from companion.games.infinity.state import Phase, State


def wound_pips(left: int, total: int) -> str:
    """Wounds as pips: filled for those left, hollow for those lost."""
    left = max(0, min(left, total))
    return "●" * left + "○" * (total - left)


@dataclass(frozen=True)
class TrooperLine:
    """One trooper as listed: owner, name, Wounds left of its profile's, removed or not."""

    owner: str
    name: str
    wounds: int
    total: int
    removed: bool = False

    @property
    def pips(self) -> str:
        """The Wounds as pips (:func:`wound_pips`)."""
        return wound_pips(self.wounds, self.total)

    def text(self, pips: str | None = None) -> str:
        """``Fusilier  ●○  1/2`` plus ``(removed)``; ``pips`` replaces the pips (markup).

        Example:
            >>> TrooperLine("Ben", "Grenzer", 0, 1, removed=True).text()
            'Grenzer  ○  0/1  (removed)'
        """
        extra = "  (removed)" if self.removed else ""
        return f"{self.name}  {self.pips if pips is None else pips}  " \
               f"{self.wounds}/{self.total}{extra}"


@dataclass(frozen=True)
class InfinityView:
    """The screen's content.

    Attributes:
        round: the Game Round and how many were agreed.
        active: whose Active Turn it is.
        orders: Orders left in the active player's pool.
        phase: where the Order stands (the engine's :class:`Phase`).
        troopers: every trooper the table may see, in sheet order. A trooper in Hidden
            Deployment is Private Information (infinity-n3-intro.md "OPEN AND PRIVATE
            INFORMATION"): it is left out entirely, neither named nor counted, so the shared
            screen does not reveal that one exists until it is revealed.
        players: both players, in turn order (listed even when all their troopers on the
            table are gone).
        odds: the declared exchange's odds, as the referee prints them (empty if none).
    """

    round: int
    rounds: int
    active: str
    orders: int
    phase: Phase
    troopers: tuple[TrooperLine, ...]
    players: tuple[str, ...]
    odds: tuple[str, ...]


def infinity_view(state: State) -> InfinityView:
    """The screen's content for ``state``."""
    troopers = []
    for sheet, status in zip(state.sheets, state.status, strict=True):
        if status.hidden and not status.removed:
            continue
        troopers.append(TrooperLine(sheet.owner, sheet.id, status.wounds, sheet.profile.w,
                                    status.removed))
    odds = tuple(line for report in declared_odds(state) for line in report.lines())
    return InfinityView(state.round, state.rounds, state.players[state.turn], state.orders,
                        state.phase, tuple(troopers), state.players, odds)
