"""What the Defiance of Fate screen shows (no Kivy).

Leaders with Health, attribute tracks, gambit levels and Points; the action dice of the
turn; the hex map; turn order and round.

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
from companion.games.defiance.state import State, track_level

DIE_LETTERS = {"tide": "T", "power": "P", "fortitude": "F"}


def hex_centre(pos: tuple[int, int], size: float) -> tuple[float, float]:
    """The centre of the axial hex ``(q, r)`` (pointy-top), ``size`` being its radius."""
    q, r = pos
    return (round(size * math.sqrt(3) * (q + r / 2), 2), round(-size * 1.5 * r, 2) + 0.0)


@dataclass(frozen=True)
class LeaderLine:
    """One leader: player, leader, Health, the three track levels, gambit, Points, status."""

    player: str
    leader: str
    health: int
    tracks: tuple[tuple[str, int], ...]
    gambit: int
    points: int
    status: str
    acting: bool

    def text(self) -> str:
        """``Ann (aster)  Health 5  T1 P1 F1  gambit 1  0 pts``."""
        tracks = " ".join(f"{DIE_LETTERS[a]}{level}" for a, level in self.tracks)
        status = f"  ({self.status})" if self.status != "active" else ""
        return f"{self.player} ({self.leader})  Health {self.health}  {tracks}  " \
               f"gambit {self.gambit}  {self.points} pts{status}"


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


def defiance_view(state: State) -> DefianceView:
    """The screen's content for ``state``."""
    acting = state.order[state.index] if state.order and state.phase == "turns" else ""
    leaders = []
    for seat in state.seats:
        tracks = tuple((a, track_level(state, seat, a)) for a in ATTRIBUTES) if seat.leader \
            else ()
        leaders.append(LeaderLine(seat.name, seat.leader or "-", seat.health, tracks,
                                  seat.gambit, points(seat), seat.status,
                                  seat.name == acting))
    dice = tuple((die.kind, die.face, die.spent) for die in state.turn.dice)
    tiles = tuple((p.tile, p.pos, p.flipped) for p in state.board)
    pawns = tuple((seat.name, seat.pos) for seat in state.seats if seat.pos is not None)
    return DefianceView(state.round, state.order, acting, tuple(leaders), dice,
                        state.turn.check, state.turn.locked, tiles, pawns)
