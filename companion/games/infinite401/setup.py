"""Files and options in, a 401 Infinite setup out: the board, the cards, the start chosen.

The board file is read by :mod:`~companion.games.infinite401.board` and the card file by
:mod:`~companion.games.infinite401.cardset`, every table through
:class:`companion.games.datafile.Table` (a key nobody reads is refused, naming the closest
valid one); the options are checked by :data:`~companion.games.infinite401.info.INFO`
(:meth:`~companion.games.info.GameInfo.check_options`). A setup keeps its files' texts, so a
saved state is rebuilt by reading them again (read once per distinct text).

Example:
    >>> from companion.games.infinite401.board import EXAMPLE_TOML
    >>> from companion.games.infinite401.examples import EXAMPLE_CARDS_TOML
    >>> sources = {"board": ("b.toml", EXAMPLE_TOML), "cards": ("c.toml", EXAMPLE_CARDS_TOML)}
    >>> setup = load_setup(sources, {"start": "quick", "turn_limit": 5})
    >>> setup.start, setup.turn_limit, setup.board.width
    (<Start.QUICK: 'quick'>, 5, 5)
    >>> try:
    ...     load_setup(sources, {"strat": "quick"})
    ... except SetupError as error:
    ...     print(error)
    options: strat: unknown option; did you mean 'start'? (expected one of: start, turn_limit)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any

from companion.games.core import SetupError
from companion.games.infinite401.board import SIDES, Board, load_board
from companion.games.infinite401.cardset import CardSet, load_cards
from companion.games.infinite401.info import INFO

ROLES = ("board", "cards")
"""The files a setup reads, by role."""
DECK_SIZE = 8
"""Competitor's Start: each side selects 8 ability cards."""
QUICK_MIN_CARDS = 4
"""Quick Start deals a hand of 4 from each side's ability cards."""


class Start(StrEnum):
    """How the game starts (``401-infinite.md`` "STARTING THE GAME")."""

    QUICK = "quick"
    COMPETITOR = "competitor"


STARTS = tuple(start.value for start in Start)
"""The values of the ``start`` option."""


@dataclass(frozen=True)
class Setup401:
    """A checked setup: the files read, the start chosen and the turn limit.

    The board and the cards are read from :attr:`sources` on first use (once per distinct
    text), so a setup written to JSON is its options and texts only.

    Attributes:
        start: Quick Start or Competitor's Start.
        turn_limit: a companion option, not a rule: the game is a draw once this many turns
            have been played (``None``: no limit).
        sources: ``(role, name, text)`` of the files read (``board`` and ``cards`` roles).
    """

    start: Start
    turn_limit: int | None
    sources: tuple[tuple[str, str, str], ...]

    @cached_property
    def board(self) -> Board:
        """The board."""
        return read_files(self.sources)[0]

    @cached_property
    def cards(self) -> CardSet:
        """The card set."""
        return read_files(self.sources)[1]


@lru_cache(maxsize=16)
def read_files(sources: tuple[tuple[str, str, str], ...]) -> tuple[Board, CardSet]:
    """The board and the cards from ``(role, name, text)`` triples.

    Raises:
        SetupError: a file cannot be used.
    """
    texts = {role: (name, text) for role, name, text in sources}
    return load_board(*texts["board"]), load_cards(*texts["cards"])


def load_setup(sources: Mapping[str, tuple[str, str]], options: Mapping[str, Any]) -> Setup401:
    """Read the ``board`` and ``cards`` files; options ``start`` and ``turn_limit``.

    Raises:
        SetupError: a file is missing or cannot be used, an option is unknown or has a value
            it cannot take, or the cards are too few for the start chosen.
    """
    for role in ROLES:
        if role not in sources:
            raise SetupError(role, "", f"no {role} file given")
    checked = _checked_options(options)
    start = Start(checked.get("start", Start.QUICK))
    limit = checked.get("turn_limit")
    triples = tuple((role, *sources[role]) for role in ROLES)
    setup = Setup401(start, None if limit is None else int(limit), triples)
    _check_decks(sources["cards"][0], setup)
    return setup


def _checked_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options checked by :data:`INFO`, a start that is neither named by both starts."""
    try:
        return INFO.check_options(options)
    except SetupError as error:
        if error.where != "start":
            raise
        raise SetupError(error.source, error.where, f"{options['start']!r} is not quick or "
                         "competitor (Quick Start or Competitor's Start)") from None


def _check_decks(name: str, setup: Setup401) -> None:
    cards = setup.cards
    for side in SIDES:
        deck = cards.deck(side)
        if setup.start is Start.QUICK and len(deck) < QUICK_MIN_CARDS:
            raise SetupError(name, "abilities", f"{side} has {len(deck)} ability cards; "
                             f"Quick Start needs at least {QUICK_MIN_CARDS}")
        if setup.start is Start.COMPETITOR and (len(deck) < DECK_SIZE or
                                                not cards.passives_of(side)):
            raise SetupError(name, "abilities", f"{side} needs at least {DECK_SIZE} "
                             "ability cards and 1 passive for Competitor's Start")
