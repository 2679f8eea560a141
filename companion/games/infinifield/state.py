"""The state of an Infinifield match: data only, serialisable to JSON.

Example:
    >>> rules = MatchRules(("Ann", "Ben"), "quickstart", "points", rounds=2)
    >>> rules.seat_after("Ben")
    'Ann'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from companion.games.infinifield.field import Field
from companion.games.infinifield.rulebook import Termination


class Phase(StrEnum):
    """What the match waits for (the value is the word in saved states and on screens)."""

    START = "start"
    """Choosing starting positions ("Select starting positions")."""
    MOVE = "move"
    """A player must move a pawn ("Chase-and-capture" steps 5-6)."""
    REMOVE = "remove"
    """The player who put the counter on X must remove a block (step 7)."""
    REBUILD = "rebuild"
    """The new field builder rebuilds the field for the next round (step 8)."""
    OVER = "over"
    """The match has ended ("Scoring")."""


SCORINGS = ("points", "rounds")
"""``points``: 10 per capture plus the blocks left for the round winner; ``rounds``: rounds won."""

COUNTER_POSITIONS = 5
"""The 5-turn counter circle: X (0) then positions 1-4."""


@dataclass(frozen=True)
class MatchRules:
    """What the players agreed before the match.

    Attributes:
        players: names in clockwise seating order (2-4 players).
        mode: field-building rules, ``quickstart`` or ``official``.
        scoring: ``points`` or ``rounds`` (see :data:`SCORINGS`).
        rounds: the match ends after this many rounds (``None`` when playing to a target).
        target: with points scoring, the match ends after the round in which a player
            reaches this total (``None`` when playing a number of rounds).
    """

    players: tuple[str, ...]
    mode: str
    scoring: str
    rounds: int | None = None
    target: int | None = None

    def seat_after(self, player: str) -> str:
        """The player sitting on the left of ``player`` (next clockwise)."""
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def turn_order(self, builder: str) -> tuple[str, ...]:
        """A round's order: from the player left of the builder, clockwise, builder last.

        Example:
            >>> MatchRules(("Ann", "Ben", "Cat"), "official", "points", 3).turn_order("Ben")
            ('Cat', 'Ann', 'Ben')
        """
        first = self.players.index(builder) + 1
        return tuple(self.players[(first + i) % len(self.players)]
                     for i in range(len(self.players)))


@dataclass(frozen=True)
class InfinifieldSetup:
    """A parsed setup: the field (as built for every round), the rules, the first builder."""

    source: str
    field: Field
    rules: MatchRules
    builder: str


@dataclass(frozen=True)
class State:
    """Where the match stands.

    Attributes:
        rules: the match rules.
        field: the field as built this round (blocks taken away are in ``removed``).
        round: the round number, from 1.
        builder: this round's field builder.
        phase: what the match waits for (:class:`Phase`).
        to_act: who acts next (``None`` once the match is over).
        pawns: ``(player, block)`` for each pawn on the field, in this round's turn order.
        out: ``(player, why)`` for each player eliminated this round, in order.
        removed: ids of the blocks taken away this round, in order.
        counter: the 5-turn counter, ``0`` for X, else 1-4.
        points: each player's point total (same order as ``rules.players``).
        wins: each player's rounds won (same order as ``rules.players``).
        winners: the match winners once it is over.
        termination: why the match ended (``None`` while it goes on).
    """

    rules: MatchRules
    field: Field
    round: int
    builder: str
    phase: Phase
    to_act: str | None
    pawns: tuple[tuple[str, str], ...] = ()
    out: tuple[tuple[str, str], ...] = ()
    removed: tuple[str, ...] = ()
    counter: int = 0
    points: tuple[int, ...] = ()
    wins: tuple[int, ...] = ()
    winners: tuple[str, ...] = ()
    termination: Termination | None = None

    @property
    def order(self) -> tuple[str, ...]:
        """This round's turn order (left of the builder first, builder last)."""
        return self.rules.turn_order(self.builder)

    def pawn_of(self, player: str) -> str | None:
        """The block ``player``'s pawn stands on, or ``None`` if it is not on the field."""
        for name, block in self.pawns:
            if name == player:
                return block
        return None

    def pawn_on(self, block: str) -> str | None:
        """The player whose pawn stands on ``block``, if any."""
        for name, where in self.pawns:
            if where == block:
                return name
        return None

    def present(self, block: str) -> bool:
        """Whether ``block`` is still on the field."""
        return block in self.field.by_id and block not in self.removed

    def blocks_left(self) -> int:
        """How many blocks are still on the field."""
        return len(self.field.blocks) - len(self.removed)

    def scores(self) -> dict[str, int]:
        """Each player's score under the agreed scoring method."""
        values = self.points if self.rules.scoring == "points" else self.wins
        return dict(zip(self.rules.players, values, strict=True))

    def evolve(self, **changes: Any) -> State:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)
