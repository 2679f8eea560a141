"""What the Defiance of Fate screen shows (no Kivy).

Leaders with Health, attribute tracks, gambit levels and Points, their units by stable name
with the Health left, and their timeline against its limit (1 + Tide level); the action dice
of the turn; the hex map; turn order and round; the choice the referee waits for (a timeline
over its limit: its owner picks the cards to destroy).

Figures come from the engine (:func:`track_level`, :func:`points`), so the screen never
re-derives a rule.

Example:
    >>> hex_centre((1, 0), 10.0)
    (17.32, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.games.defiance.data import ATTRIBUTES
from companion.games.defiance.scoring import points
from companion.games.defiance.state import (
    Phase,
    State,
    Status,
    over_limit,
    timeline_limit,
    track_level,
)

DIE_LETTERS = {"tide": "T", "power": "P", "fortitude": "F"}


def hex_centre(pos: tuple[int, int], size: float) -> tuple[float, float]:
    """The centre of the axial hex ``(q, r)`` (pointy-top), ``size`` being its radius."""
    q, r = pos
    return (round(size * math.sqrt(3) * (q + r / 2), 2), round(-size * 1.5 * r, 2) + 0.0)


@dataclass(frozen=True)
class LeaderLine:
    """One leader: player, leader, Health, tracks, gambit, Points, status, units, timeline.

    Attributes:
        units: (stable name, Health left, printed Health) of each unit, left to right.
        timeline: timeline cards held; limit: 1 + Tide level.
    """

    player: str
    leader: str
    health: int
    tracks: tuple[tuple[str, int], ...]
    gambit: int
    points: int
    status: str
    acting: bool
    units: tuple[tuple[str, int, int], ...] = ()
    timeline: int = 0
    limit: int = 0

    def text(self) -> str:
        """``Ann (aster)  Health 5  T1 P1 F1  gambit 1  0 pts  timeline 0/2  pilgrim 1/1``."""
        tracks = " ".join(f"{DIE_LETTERS[a]}{level}" for a, level in self.tracks)
        status = f"  ({self.status})" if self.status != Status.ACTIVE else ""
        line = f"{self.player} ({self.leader})  Health {self.health}  {tracks}  " \
               f"gambit {self.gambit}  {self.points} pts{status}"
        if self.limit:
            line += f"  timeline {self.timeline}/{self.limit}"
        if self.units:
            line += "  " + ", ".join(f"{name} {left}/{printed}"
                                     for name, left, printed in self.units)
        return line


@dataclass(frozen=True)
class DefianceView:
    """The screen's content."""

    round: int
    order: tuple[str, ...]
    acting: str
    leaders: tuple[LeaderLine, ...]
    dice: tuple[tuple[str, str, bool], ...]
    check: str
    locked: bool
    tiles: tuple[tuple[str, tuple[int, int], bool], ...]
    pawns: tuple[tuple[str, tuple[int, int]], ...]
    choice: tuple[str, int, int] | None = None
    """A timeline over its limit: (its owner, cards to destroy, the limit), else None."""


def defiance_view(state: State) -> DefianceView:
    """The screen's content for ``state``."""
    acting = state.order[state.index] if state.order and state.phase == Phase.TURNS else ""
    leaders = []
    for seat in state.seats:
        tracks = tuple((a, track_level(state, seat, a)) for a in ATTRIBUTES) if seat.leader \
            else ()
        units = tuple((u.label, state.rules.card(u.card).health - u.damage,
                       state.rules.card(u.card).health) for u in seat.group)
        limit = timeline_limit(state, seat) if seat.leader else 0
        leaders.append(LeaderLine(seat.name, seat.leader or "-", seat.health, tracks,
                                  seat.gambit, points(seat), seat.status,
                                  seat.name == acting, units, len(seat.timeline), limit))
    dice = tuple((die.kind, die.face, die.spent) for die in state.turn.dice)
    tiles = tuple((p.tile, p.pos, p.flipped) for p in state.board)
    pawns = tuple((seat.name, seat.pos) for seat in state.seats if seat.pos is not None)
    due = over_limit(state)
    choice = None if due is None else (due.name, len(due.timeline) - timeline_limit(state, due),
                                       timeline_limit(state, due))
    return DefianceView(state.round, state.order, acting, tuple(leaders), dice,
                        state.turn.check, state.turn.locked, tiles, pawns, choice)
