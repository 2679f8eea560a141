"""The state of a game in progress, and its JSON form.

The state carries the Army Lists (profiles, weapons and Private Information) so that it is
self-contained: the referee knows everything; :func:`public_view` is what an opponent may see.

Example:
    >>> TrooperStatus("Fusilier", wounds=1).in_play
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .actions import Action, Aro, Names, parse
from .army import TrooperSheet

PHASES = ("order", "aro", "roll", "arm", "after", "over")
"""Declaring an Order; declaring AROs; dice due; ARM Rolls due; options after the Order
(dodge move, turn to face); game over."""


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
    """An option left at the end of an Order: ``dodge`` (move up to 2 in.) or ``face``."""

    kind: str
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
        phase: one of :data:`PHASES`.
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
    phase: str = "order"
    order: Action | None = None
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


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state (Private Information included: this is the referee's record)."""
    return {"players": list(state.players), "rounds": state.rounds,
            "sheets": [sheet.to_json() for sheet in state.sheets],
            "status": [[s.id, s.wounds, s.removed, s.hidden] for s in state.status],
            "contacts": [list(pair) for pair in state.contacts], "round": state.round,
            "turn": state.turn, "orders": state.orders, "phase": state.phase,
            "order": str(state.order) if state.order is not None else None,
            "aros": [str(aro) for aro in state.aros],
            "arm_due": [[d.trooper, d.attacker, d.damage, d.arm] for d in state.arm_due],
            "after": [[item.kind, item.trooper] for item in state.after],
            "objectives": list(state.objectives)}


def state_from_json(data: Mapping[str, Any]) -> State:
    """Rebuild a state from :func:`state_to_json` output."""
    players = (str(data["players"][0]), str(data["players"][1]))
    sheets = tuple(TrooperSheet.from_json(sheet) for sheet in data["sheets"])
    base = State(players, int(data["rounds"]), sheets,
                 tuple(TrooperStatus(s[0], int(s[1]), bool(s[2]), bool(s[3]))
                       for s in data["status"]))
    names = base.names
    bursts = base.burst_table()
    aros = []
    for text in data["aros"]:
        aro = parse(text, names, bursts)
        assert isinstance(aro, Aro)
        aros.append(aro)
    return replace(
        base, contacts=tuple((str(a), str(b)) for a, b in data["contacts"]),
        round=int(data["round"]), turn=int(data["turn"]), orders=int(data["orders"]),
        phase=str(data["phase"]),
        order=parse(data["order"], names, bursts) if data["order"] is not None else None,
        aros=tuple(aros),
        arm_due=tuple(ArmDue(str(t), str(a), int(d), int(r)) for t, a, d, r in data["arm_due"]),
        after=tuple(AfterItem(str(k), str(t)) for k, t in data["after"]),
        objectives=(int(data["objectives"][0]), int(data["objectives"][1])))
