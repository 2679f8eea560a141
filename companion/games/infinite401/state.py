"""The 401 Infinite state: units, hands and stacks, the Field, the HP token, the turn.

Everything is frozen and hashable; :func:`state_to_json` / :func:`state_from_json` round-trip
it (the setup travels as its source texts and is read again).

Example:
    >>> from companion.games.infinite401.state import Unit
    >>> Unit("R1", "red", 2, (2, 8)).alive
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from companion.games.infinite401.board import SIDES, Board, Space, load_board
from companion.games.infinite401.cardset import CardSet, load_cards

START_HP = 2
MAX_HP = 3
HAND_SIZE = 4
ACTIONS_PER_TURN = 2
STARTS = ("quick", "competitor")


@dataclass(frozen=True)
class Setup401:
    """A checked setup: the board, the cards and the start chosen.

    Attributes:
        board: the board.
        cards: the card set.
        start: ``quick`` (Quick Start) or ``competitor`` (Competitor's Start).
        turn_limit: a companion option, not a rule: the game is a draw once this many turns
            have been played (``None``: no limit).
        sources: ``(role, name, text)`` of the files read, so a saved state can be re-read.
    """

    board: Board = field(compare=False)
    cards: CardSet = field(compare=False)
    start: str
    turn_limit: int | None
    sources: tuple[tuple[str, str, str], ...]


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
    steps: tuple[str, ...] = ()
    turn: int = 0
    to_move: str = ""
    actions_left: int = 0
    sources_used: tuple[str, ...] = ()
    token_taken: bool = False
    runners: tuple[str, ...] = ()

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


@lru_cache(maxsize=16)
def read_setup(sources: tuple[tuple[str, str, str], ...], start: str,
               turn_limit: int | None) -> Setup401:
    """Read the setup from ``(role, name, text)`` triples (``board`` and ``cards`` roles).

    Raises:
        SetupError: a file cannot be used.
    """
    texts = {role: (name, text) for role, name, text in sources}
    board = load_board(*texts["board"])
    cards = load_cards(*texts["cards"])
    return Setup401(board, cards, start, turn_limit, sources)


def state_to_json(state: State) -> dict[str, Any]:
    """The state as JSON-ready data.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> state_to_json(example_state())["units"][0]
        ['B1', 'blue', 2, [1, 0]]
    """
    return {
        "setup": {"sources": [list(s) for s in state.setup.sources],
                  "start": state.setup.start, "turn_limit": state.setup.turn_limit},
        "units": [[u.name, u.side, u.hp, list(u.space) if u.space else None]
                  for u in state.units],
        "cards": [{"deck": list(c.deck), "hand": list(c.hand), "stack": list(c.stack),
                   "passive": c.passive} for c in state.cards],
        "field": [{"card": f.card, "side": f.side, "turn": f.turn, "source": f.source,
                   "targets": list(f.targets), "passive": f.passive,
                   "statuses": [list(p) for p in f.statuses],
                   "shields": [list(p) for p in f.shields]} for f in state.field],
        "token": list(state.token) if state.token else None,
        "steps": list(state.steps), "turn": state.turn, "to_move": state.to_move,
        "actions_left": state.actions_left, "sources_used": list(state.sources_used),
        "token_taken": state.token_taken, "runners": list(state.runners),
    }


def state_from_json(data: Mapping[str, Any]) -> State:
    """Rebuild a state from :func:`state_to_json` output.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> state_from_json(state_to_json(example_state())) == example_state()
        True
    """
    setup_data = data["setup"]
    setup = read_setup(tuple(tuple(s) for s in setup_data["sources"]), setup_data["start"],
                       setup_data["turn_limit"])
    cards = [SideCards(tuple(c["deck"]), tuple(c["hand"]), tuple(c["stack"]), c["passive"])
             for c in data["cards"]]
    return State(
        setup=setup,
        units=tuple(Unit(n, s, hp, (sp[0], sp[1]) if sp else None)
                    for n, s, hp, sp in data["units"]),
        cards=(cards[0], cards[1]),
        field=tuple(FieldCard(f["card"], f["side"], f["turn"], f["source"], tuple(f["targets"]),
                              f["passive"], tuple((u, s) for u, s in f["statuses"]),
                              tuple((u, p) for u, p in f["shields"])) for f in data["field"]),
        token=(data["token"][0], data["token"][1]) if data["token"] else None,
        steps=tuple(data["steps"]), turn=data["turn"], to_move=data["to_move"],
        actions_left=data["actions_left"], sources_used=tuple(data["sources_used"]),
        token_taken=data["token_taken"], runners=tuple(data["runners"]))
