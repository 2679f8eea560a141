"""The state of a Defiance game: frozen dataclasses, plus small read/replace helpers.

Example:
    >>> Seat("Ann").health
    5
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from companion.games.defiance.board import Board, Placement, Pos
from companion.games.defiance.data import ATTRIBUTES
from companion.games.defiance.setup import Rules

HAND_LIMIT = 10
"""Rulebook 4 "Fortitude Actions" and 9 "Hand": no more than 10 cards in hand."""
GROUP_LIMIT = 4
"""Rulebook 2.4 "Unit Cards": up to 4 units in a group."""


class Phase(StrEnum):
    """The part of the game under way (rulebook 3 "Setup", 4 "Turn Actions")."""

    SETUP = "setup"
    """Shuffles, Roles, first tiles, leaders and deploys."""
    TURNS = "turns"
    """The rounds of turns."""
    OVER = "over"
    """The game has ended."""


class Status(StrEnum):
    """Where a leader stands (rulebook 8.6 "Defeat and Respawn")."""

    ACTIVE = "active"
    DEFEATED = "defeated"
    """Off the board until the respawn at the start of the leader's turn."""
    CONCEDED = "conceded"
    """Out of the game."""


class Due(StrEnum):
    """The kind of chance event a :class:`Pending` waits for."""

    SHUFFLE = "shuffle"
    """A faction deck's new order (setup step 2, 8.5)."""
    REVEAL = "reveal"
    """The Roles revealed (1.1, setup step 3b)."""
    CHECK = "check"
    """The four dice of an action check (2.6.1)."""
    REROLL = "reroll"
    """One die rerolled (2.6.1, Reroll)."""
    GAMBIT = "gambit"
    """The gambit d6 (2.6.2)."""


class SetupStep(StrEnum):
    """The setup step under way (rulebook 3, steps 5 to 7); ``NONE`` during the turns."""

    TILES = "tiles"
    LEADERS = "leaders"
    DEPLOY = "deploy"
    NONE = ""


@dataclass(frozen=True)
class Die:
    """One action die of the current check: its colour, face and what was done to it."""

    kind: str
    face: str
    added: bool = False
    rerolled: bool = False
    converted: bool = False
    spent: bool = False


@dataclass(frozen=True)
class Unit:
    """A unit in a group (left to right in the order played) and the damage it holds.

    Attributes:
        card: the unit's card id.
        damage: damage tokens on it.
        name: its stable name in the notation: the card id, or ``card.2``, ``card.3`` for
            further copies in the same group (see :func:`unit_name`); it never changes while
            the unit is in play, whatever happens to the units beside it. Empty means the
            card id.
    """

    card: str
    damage: int = 0
    name: str = ""

    @property
    def label(self) -> str:
        """The name the notation and the screen use for this unit."""
        return self.name or self.card


@dataclass(frozen=True)
class Attachment:
    """A card attached to an asset (rulebook 9 "Attach").

    It is destroyed when that asset leaves play.

    Attributes:
        owner: who owns the attached card.
        card: the attached card's id.
        holder: the player whose asset holds it.
        asset: the unit's name, or "" for the holder's leader.
    """

    owner: str
    card: str
    holder: str
    asset: str = ""


@dataclass(frozen=True)
class Prepared:
    """A timeline card and the turn number in which it was prepared."""

    card: str
    turn: int


@dataclass(frozen=True)
class Seat:
    """One player and their leader, group, hand, timeline, tracks, gambit and points.

    Attributes:
        status: ``active``, ``defeated`` (off the board until respawn) or ``conceded``.
        lose_turn: the next turn is lost (rulebook 8.6).
        track_adjust: manual changes of the tide/power/fortitude tracks from card texts.
        roles: Roles completed (1 Point each); progress: partial role tokens.
        claims: Adventure win conditions met.
    """

    name: str
    leader: str = ""
    pos: Pos | None = None
    health: int = 5
    hand: tuple[str, ...] = ()
    group: tuple[Unit, ...] = ()
    timeline: tuple[Prepared, ...] = ()
    gambit: int = 1
    roles: tuple[str, ...] = ()
    progress: tuple[tuple[str, int], ...] = ()
    track_adjust: tuple[int, int, int] = (0, 0, 0)
    status: Status = Status.ACTIVE
    lose_turn: bool = False
    claims: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deck:
    """A faction deck (top card first) and its discard pile (oldest first)."""

    faction: str
    cards: tuple[str, ...]
    discard: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mechanic:
    """A mechanic in the queue (rulebook 8.3): ``steps`` of ``effect`` on ``target``.

    Attributes:
        owner: who activated it.
        source: the card it comes from (it stops when that card leaves play).
        effect: ``damage``, ``heal``, ``draw`` or ``discard``.
        target: the targeted player.
        steps: steps still to resolve.
        started: a step has resolved (blocks are no longer possible, rulebook 8.2).
        asset: the asset chosen for damage or a heal: a unit's name, the target's own name
            for its leader, or "" (damage auto-allocated as taken damage, heals to the
            leader).
    """

    owner: str
    source: str
    effect: str
    target: str
    steps: int
    started: bool = False
    asset: str = ""


@dataclass(frozen=True)
class Turn:
    """What is under way in the current turn (or deploy).

    Attributes:
        leader: whose turn (or deploy) it is.
        check: the attribute rolled for the action check ("" before the roll).
        dice: the check's dice; locked: the result is locked for the turn.
        spent: dice spent so far (never more than the leader's Health).
        rerolled: die colours already rerolled in this check.
        deploying: the leader is deploying (setup step 7 or after a respawn).
        deploy_tide: Tide left to spend on units while deploying.
        mulliganed: the deploy's one mulligan has been used (or a unit played).
    """

    leader: str = ""
    check: str = ""
    dice: tuple[Die, ...] = ()
    locked: bool = False
    spent: int = 0
    rerolled: tuple[str, ...] = ()
    deploying: bool = False
    deploy_tide: int = 0
    mulliganed: bool = False


@dataclass(frozen=True)
class Pending:
    """A chance event that is due.

    ``who``: the faction of a shuffle, the player of a check, reroll or gambit; ``die``: the
    rerolled die's index.
    """

    kind: Due
    who: str = ""
    die: int = 0


@dataclass(frozen=True)
class Result:
    """How the game ended."""

    winners: tuple[str, ...]
    termination: str
    tiebreaker: str
    detail: str
    scores: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class State:
    """The whole game.

    Attributes:
        phase: ``setup`` (shuffles, Roles, tiles, leaders, deploys) or ``turns``, ``over``.
        step: the setup step under way: ``tiles``, ``leaders``, ``deploy`` ("" in turns).
        order: this round's turn order; index: whose turn (seat index during ``tiles``).
        turn_no: turns started so far (timeline cards cannot be played the turn prepared).
        pending: chance events due, first first.
        owed: draws waiting for a deck to be reshuffled.
        queue: mechanics being resolved, most recent first (rulebook 8.3).
        center: ability cards played and still resolving, as (owner, card).
        ignoring: (player, card) pairs: abilities a player blocked this turn.
        attached: cards attached to assets (rulebook 9 "Attach").
    """

    rules: Rules
    phase: Phase
    step: SetupStep
    seats: tuple[Seat, ...]
    board: tuple[Placement, ...]
    decks: tuple[Deck, ...]
    roles: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    index: int = 0
    round: int = 0
    turn_no: int = 0
    turn: Turn = field(default_factory=Turn)
    pending: tuple[Pending, ...] = ()
    owed: tuple[tuple[str, int], ...] = ()
    queue: tuple[Mechanic, ...] = ()
    center: tuple[tuple[str, str], ...] = ()
    ignoring: tuple[tuple[str, str], ...] = ()
    result: Result | None = None
    attached: tuple[Attachment, ...] = ()


# -- helpers ---------------------------------------------------------------------------------

T = TypeVar("T")


def evolve(value: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``value`` with ``changes``.

    It is ``dataclasses.replace`` without re-running ``__init__``: the engine's hot path
    copies states thousands of times.

    Example:
        >>> evolve(Seat("Ann"), health=3).health
        3
    """
    new = object.__new__(type(value))
    new.__dict__.update(value.__dict__)
    new.__dict__.update(changes)
    return new

def seat(state: State, name: str) -> Seat:
    """The seat of player ``name`` (exact name)."""
    for s in state.seats:
        if s.name == name:
            return s
    raise KeyError(name)


def with_seat(state: State, new: Seat) -> State:
    """``state`` with the seat of the same name replaced by ``new``."""
    return evolve(state, seats=tuple(new if s.name == new.name else s for s in state.seats))


def deck_of(state: State, faction: str) -> Deck:
    """The deck of ``faction``."""
    for deck in state.decks:
        if deck.faction == faction:
            return deck
    raise KeyError(faction)


def with_deck(state: State, new: Deck) -> State:
    """``state`` with the deck of the same faction replaced by ``new``."""
    return evolve(state, decks=tuple(new if d.faction == new.faction else d
                                      for d in state.decks))


def faction_of(state: State, name: str) -> str:
    """The faction (deck) of a player's leader; before leaders are chosen, the first one."""
    leader = seat(state, name).leader
    return state.rules.leader(leader).faction if leader else state.rules.factions()[0]


def track_level(state: State, s: Seat, attribute: str) -> int:
    """A leader's current level on an attribute track (rulebook 2.1 "Attribute Trackers").

    Every track starts at level 1 (setup step 6); each icon of a unit in the group moves it
    one tick up, and manual adjustments from card texts apply; it stays within 1..max.
    """
    index = ATTRIBUTES.index(attribute)
    icons = sum(state.rules.card(u.card).attributes.count(attribute) for u in s.group)
    top = state.rules.leader(s.leader).track_max[index] if s.leader else 6
    return max(1, min(top, 1 + icons + s.track_adjust[index]))


def timeline_limit(state: State, s: Seat) -> int:
    """1 + Tide level (rulebook 7 "The Timeline" and 9 "Timeline"; section 4 says Tide level)."""
    return 1 + track_level(state, s, "tide")


LIMIT_READING = ("the timeline limit is 1 + Tide level (rulebook 7 and the glossary; "
                 "section 4 says Tide level)")
"""The reading of the contradiction, said wherever the limit decides a verdict."""


def over_limit(state: State) -> Seat | None:
    """The first leader (seating order) holding more timeline cards than 1 + Tide level.

    Rulebook 7 "The Timeline": "If your timeline limit falls below the number of timeline
    cards you have on the table, you must destroy them until you are compliant": the owner
    chooses which (``trim``), before anything else happens.
    """
    for s in state.seats:
        if s.leader and s.status == Status.ACTIVE and len(s.timeline) > timeline_limit(state, s):
            return s
    return None


def unit_name(group: tuple[Unit, ...], card: str) -> str:
    """The stable name of a new ``card`` unit joining ``group``.

    Example:
        >>> unit_name((Unit("brute"),), "brute"), unit_name((), "brute")
        ('brute.2', 'brute')
    """
    taken = {u.label.lower() for u in group}
    if card.lower() not in taken:
        return card
    number = 2
    while f"{card}.{number}".lower() in taken:
        number += 1
    return f"{card}.{number}"


def find_unit(group: tuple[Unit, ...], text: str) -> int:
    """The 0-based slot of the unit named ``text``; ``-1`` when none.

    ``text`` is the unit's stable name (any case), or its number left to right (1-4, the
    older notation, still read so older records replay).

    Example:
        >>> group = (Unit("brute", name="brute"), Unit("brute", name="brute.2"))
        >>> find_unit(group, "BRUTE.2"), find_unit(group, "1"), find_unit(group, "imp")
        (1, 0, -1)
    """
    low = text.lower()
    for index, unit in enumerate(group):
        if unit.label.lower() == low:
            return index
    if text.isascii() and text.isdigit() and len(text) == 1 and 1 <= int(text) <= len(group):
        return int(text) - 1
    return -1


def occupied(state: State) -> dict[Pos, str]:
    """Space -> player for every pawn on the board."""
    return {s.pos: s.name for s in state.seats if s.pos is not None}


_BOARD_VIEWS: list[tuple[tuple[Placement, ...], Rules, Board]] = []


def board_view(state: State) -> Board:
    """The board of ``state`` for path questions.

    Views of the last few boards are kept, recognised by identity: states that share an
    unchanged board (most of them) share its view and its joined-edge memo.
    """
    for placements, rules, view in _BOARD_VIEWS:
        if placements is state.board and rules is state.rules:
            return view
    view = Board.build(state.board, state.rules.printed_walls)
    _BOARD_VIEWS.insert(0, (state.board, state.rules, view))
    del _BOARD_VIEWS[8:]
    return view


def placement_at(state: State, pos: Pos) -> Placement | None:
    """The tile (face up or flipped) at ``pos``."""
    for p in state.board:
        if p.pos == pos:
            return p
    return None


def placed_ids(state: State) -> set[str]:
    """Ids of every tile on the board (flipped ones included)."""
    return {p.tile for p in state.board}


def team_of(state: State, name: str) -> str:
    """The team (side) of a player."""
    return state.rules.team_of(name)
