"""The state of a game in progress, its phases, and what an opponent may see of it.

The state carries the Army Lists (profiles, weapons and Private Information) so that it is
self-contained: the referee knows everything; :func:`public_view` is what an opponent may see.
Its JSON form is the engine contract's type-driven codec (:mod:`companion.games.codec`).

Example:
    >>> TrooperStatus("Fusilier", wounds=1).in_play
    True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from .actions import Aro, Names, Order
from .army import ArmySetup, TrooperSheet


class Phase(StrEnum):
    """Where the Order being played stands (infinity-n3-intro.md "INFINITY: GAME SUMMARY")."""

    ORDER = "order"
    """The active player declares an Order, scores, or ends the turn."""
    ARO = "aro"
    """The reactive player declares AROs, then passes."""
    ROLL = "roll"
    """The dice of the declared rolls are due."""
    ARM = "arm"
    """The ARM Rolls due are to be rolled."""
    AFTER = "after"
    """Options left after the Order: a Dodge move, turning to face."""
    OVER = "over"
    """The game is over."""


class AfterKind(StrEnum):
    """An option left at the end of an Order."""

    DODGE = "dodge"
    """A trooper that Dodged successfully may move up to 2 inches."""
    FACE = "face"
    """A trooper attacked from outside its front arc may turn to face the attacker."""


@dataclass(frozen=True)
class TrooperStatus:
    """What changes about a trooper during the game.

    Attributes:
        id: the trooper.
        wounds: Wounds left.
        removed: removed from play (its Private Information is then Open).
        hidden: still in Hidden Deployment (not on the table for the opponent).
    """

    id: str
    wounds: int
    removed: bool = False
    hidden: bool = False

    @property
    def in_play(self) -> bool:
        """Whether the trooper is still in the game."""
        return not self.removed


@dataclass(frozen=True)
class ArmDue:
    """An ARM Roll owed by ``trooper`` against a hit of ``damage`` (``arm`` with cover)."""

    trooper: str
    attacker: str
    damage: int
    arm: int


@dataclass(frozen=True)
class AfterItem:
    """An option left at the end of an Order, for ``trooper``."""

    kind: AfterKind
    trooper: str


@dataclass(frozen=True)
class State:
    """A game in progress.

    Attributes:
        players: the two players, the first one to take an Active Turn first.
        rounds: the number of Game Rounds agreed.
        sheets: every trooper's sheet (profile, weapons, Private Information).
        status: every trooper's changing status, in sheet order.
        contacts: pairs of troopers in base to base contact (each pair sorted).
        round: the current Game Round (1-based).
        turn: 0 or 1, whose Active Turn it is within the round (index into ``players``).
        orders: Orders left in the active player's Order pool.
        phase: where the Order stands.
        order: the Order being resolved (its declaration), if any.
        aros: the AROs declared against it.
        arm_due: ARM Rolls due, in order.
        after: options left at the end of the Order, in order.
        objectives: objective points declared for each player (in ``players`` order).
    """

    players: tuple[str, str]
    rounds: int
    sheets: tuple[TrooperSheet, ...]
    status: tuple[TrooperStatus, ...]
    contacts: tuple[tuple[str, str], ...] = ()
    round: int = 1
    turn: int = 0
    orders: int = 0
    phase: Phase = Phase.ORDER
    order: Order | None = None
    aros: tuple[Aro, ...] = ()
    arm_due: tuple[ArmDue, ...] = ()
    after: tuple[AfterItem, ...] = ()
    objectives: tuple[int, int] = (0, 0)

    # -- queries ---------------------------------------------------------------------------
    @property
    def active(self) -> str:
        """The player whose Active Turn it is."""
        return self.players[self.turn]

    @property
    def reactive(self) -> str:
        """The player in the Reactive Turn."""
        return self.players[1 - self.turn]

    @property
    def names(self) -> Names:
        """The names the notation may mention."""
        return Names(self.players, tuple(sheet.id for sheet in self.sheets))

    def sheet(self, trooper: str) -> TrooperSheet:
        """The sheet of ``trooper`` (its exact name)."""
        return next(sheet for sheet in self.sheets if sheet.id == trooper)

    def trooper_status(self, trooper: str) -> TrooperStatus:
        """The status of ``trooper`` (its exact name)."""
        return next(status for status in self.status if status.id == trooper)

    def in_play(self, player: str) -> list[str]:
        """The troopers of ``player`` still in play, in list order."""
        return [sheet.id for sheet, status in zip(self.sheets, self.status, strict=True)
                if sheet.owner == player and status.in_play]

    def contacts_of(self, trooper: str) -> list[str]:
        """The troopers in base to base contact with ``trooper``."""
        return [b if a == trooper else a for a, b in self.contacts if trooper in (a, b)]

    def engaged(self, trooper: str) -> bool:
        """Whether ``trooper`` is in base to base contact with an enemy."""
        owner = self.sheet(trooper).owner
        return any(self.sheet(other).owner != owner for other in self.contacts_of(trooper))

    def burst_table(self) -> dict[tuple[str, str], int]:
        """``(trooper, weapon) -> Burst`` for every weapon carried."""
        return {(sheet.id, weapon.id): weapon.burst for sheet in self.sheets
                for weapon in sheet.weapons}

    # -- changes ---------------------------------------------------------------------------
    def with_status(self, status: TrooperStatus) -> State:
        """The state with one trooper's status replaced."""
        return replace(self, status=tuple(status if s.id == status.id else s
                                          for s in self.status))


def initial_state(setup: ArmySetup) -> State:
    """Round 1, the first player's Active Turn with one Order per trooper in play."""
    status = tuple(TrooperStatus(sheet.id, sheet.profile.w, hidden=sheet.hidden)
                   for sheet in setup.sheets)
    state = State(setup.players, setup.rounds, setup.sheets, status)
    return replace(state, orders=len(state.in_play(state.active)))


def victory_points(state: State, player: str) -> int:
    """Victory Points: the Army Points (Cost) of ``player``'s troopers still in play."""
    return sum(state.sheet(trooper).cost for trooper in state.in_play(player))


def public_view(state: State, viewer: str) -> dict[str, Any]:
    """What ``viewer`` may know: own list in full; the opponent's Open Information only.

    The opponent's Cost and Lieutenant stay hidden until the trooper is removed from play;
    an opponent trooper still in Hidden Deployment is not listed at all.
    """
    troopers = []
    for sheet, status in zip(state.sheets, state.status, strict=True):
        own = sheet.owner == viewer
        if not own and status.hidden and not status.removed:
            continue
        entry: dict[str, Any] = {"id": sheet.id, "owner": sheet.owner,
                                 "profile": sheet.profile.name, "wounds": status.wounds,
                                 "removed": status.removed,
                                 "weapons": [w.name for w in sheet.weapons]}
        if own or status.removed:
            entry.update(cost=sheet.cost, lieutenant=sheet.lieutenant, hidden=status.hidden)
        troopers.append(entry)
    return {"viewer": viewer, "round": state.round, "active": state.active,
            "orders": state.orders, "troopers": troopers}
