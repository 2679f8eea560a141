"""The 401 Infinite state: units, hands and stacks, the Field, the HP token, the turn.

Everything is frozen and hashable, and written to JSON by the type-driven
:mod:`companion.games.codec` (the setup as its options and file texts). :class:`Phase` says
what the game waits for: one of the starting steps still due (:class:`Step`), a side's turn,
or a runner's score.

Example:
    >>> from companion.games.infinite401.state import Unit
    >>> Unit("R1", "red", 2, (2, 8)).alive
    True
    >>> str(Step(Phase.SHUFFLE, "blue")), str(Step(Phase.FLIP))
    ('shuffle blue', 'flip')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from companion.games.infinite401.board import SIDES, Board, Space
from companion.games.infinite401.setup import Setup401

START_HP = 2
MAX_HP = 3
HAND_SIZE = 4
ACTIONS_PER_TURN = 2


class Phase(StrEnum):
    """What the game waits for (``401-infinite.md`` "STARTING THE GAME", "TURNS / ACTIONS")."""

    SHUFFLE = "shuffle"
    """Chance: a side's stack is shuffled (both starts)."""
    FLIP = "flip"
    """Chance: the coin says who takes the first turn (Quick Start)."""
    DECK = "deck"
    """Competitor's Start: a side selects 8 ability cards and a passive."""
    HAND = "hand"
    """Competitor's Start: a side selects its starting hand of 4."""
    TURN = "turn"
    """A side's turn: move, play, cycle, end."""
    SCORE = "score"
    """Runner's Rule: a unit on the opposing base waits for its player's ``score``."""


CHANCE_PHASES = frozenset({Phase.SHUFFLE, Phase.FLIP})
"""The phases whose action is chance (a shuffle or the coin), not a side's choice."""


@dataclass(frozen=True)
class Step:
    """A starting step still due: its phase and the side it concerns (none for the flip)."""

    phase: Phase
    side: str = ""

    def __str__(self) -> str:
        return f"{self.phase} {self.side}" if self.side else str(self.phase)


@dataclass(frozen=True)
class Unit:
    """A unit: its name, side, HP and space (``None`` once eliminated)."""

    name: str
    side: str
    hp: int
    space: Space | None

    @property
    def alive(self) -> bool:
        """Whether it is still in the game."""
        return self.space is not None


@dataclass(frozen=True)
class FieldCard:
    """A card on the Field: played this rotation, its effects last until it is removed.

    Attributes:
        card: the card's name.
        side: who played it.
        turn: the turn it was played on.
        source: the source unit (empty for utility cards and passives).
        targets: the target units.
        passive: whether it is a passive placed by its Effect Text.
        statuses: ``(unit, status)`` pairs it gives while on the Field.
        shields: ``(unit, points left)`` pairs of shield it still gives.
    """

    card: str
    side: str
    turn: int
    source: str
    targets: tuple[str, ...]
    passive: bool = False
    statuses: tuple[tuple[str, str], ...] = ()
    shields: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class SideCards:
    """One side's cards.

    Attributes:
        deck: the side's ability cards in play (all of them in Quick Start, the 8 chosen in
            Competitor's Start), in card-file order.
        hand: the face-up hand.
        stack: the face-down stack, top first.
        passive: the passive in play (empty in Quick Start).
    """

    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    stack: tuple[str, ...] = ()
    passive: str = ""


@dataclass(frozen=True)
class State:
    """A position.

    Attributes:
        setup: board, cards and options.
        units: every unit, in board order (Blue's first).
        cards: each side's cards (Blue, Red).
        field: cards on the Field, in the order played.
        token: the HP token's space (``None`` once removed by a deadlock).
        steps: the starting steps still due (``shuffle blue``, ``flip``, ``deck red``...).
        turn: the number of the turn being played (0 before the first).
        to_move: the side whose turn it is (empty before the first turn).
        actions_left: actions left this turn.
        sources_used: units that were the source of an ability this turn.
        token_taken: whether the HP token was collected this turn.
        runners: units that landed on the opposing base and wait for their player to score.
    """

    setup: Setup401
    units: tuple[Unit, ...]
    cards: tuple[SideCards, SideCards]
    field: tuple[FieldCard, ...] = ()
    token: Space | None = None
    steps: tuple[Step, ...] = ()
    turn: int = 0
    to_move: str = ""
    actions_left: int = 0
    sources_used: tuple[str, ...] = ()
    token_taken: bool = False
    runners: tuple[str, ...] = ()

    @property
    def phase(self) -> Phase:
        """What the game waits for: the first starting step due, a runner's score, or a turn.

        The game may also be over (:meth:`Infinite401Game.outcome
        <companion.games.infinite401.game.Infinite401Game.outcome>`); the phase says what
        would come next.
        """
        if self.steps:
            return self.steps[0].phase
        return Phase.SCORE if self.runners else Phase.TURN

    def unit(self, name: str) -> Unit:
        """The unit called ``name`` (exact spelling).

        Raises:
            KeyError: no such unit.
        """
        for unit in self.units:
            if unit.name == name:
                return unit
        raise KeyError(name)

    def side_cards(self, side: str) -> SideCards:
        """The cards of ``side``."""
        return self.cards[SIDES.index(side)]

    def with_side_cards(self, side: str, cards: SideCards) -> State:
        """A copy with ``side``'s cards replaced."""
        pair = list(self.cards)
        pair[SIDES.index(side)] = cards
        return replace(self, cards=(pair[0], pair[1]))

    def with_unit(self, unit: Unit) -> State:
        """A copy with the unit of the same name replaced."""
        return replace(self, units=tuple(unit if u.name == unit.name else u
                                         for u in self.units))

    def occupant(self, space: Space) -> Unit | None:
        """The unit on ``space``, if any."""
        for unit in self.units:
            if unit.space == space:
                return unit
        return None

    def statuses(self, name: str) -> frozenset[str]:
        """The status effects on the unit called ``name`` (from cards on the Field)."""
        return frozenset(status for entry in self.field for unit, status in entry.statuses
                         if unit == name)

    def shield(self, name: str) -> int:
        """The shield points protecting the unit called ``name``."""
        return sum(points for entry in self.field for unit, points in entry.shields
                   if unit == name)

    def living(self, side: str) -> tuple[Unit, ...]:
        """``side``'s units still in the game."""
        return tuple(u for u in self.units if u.side == side and u.alive)


def initial_units(board: Board) -> tuple[Unit, ...]:
    """The units at the start: on their starting spaces with 2 HP each.

    Example:
        >>> from companion.games.infinite401.board import BOARD_EXAMPLE
        >>> initial_units(BOARD_EXAMPLE)[0]
        Unit(name='B1', side='blue', hp=2, space=(1, 0))
    """
    return tuple(Unit(name, side, START_HP, space) for name, side, space in board.units)
