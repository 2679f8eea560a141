"""Building 401 Infinite positions for the tests: small boards, units placed by hand.

``play``, ``refusal`` and ``kinds`` are the shared kit's (:mod:`tests.games.kit`) bound to
the 401 Infinite engine.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from companion.games.infinite401 import GAME
from companion.games.infinite401.actions import Flip, Shuffle
from companion.games.infinite401.board import parse_space
from companion.games.infinite401.state import FieldCard, State
from companion.resources import shipped_sources, shipped_text
from tests.games import kit

PACKAGE = "companion.games.infinite401"
DEFAULT_SOURCES = shipped_sources(PACKAGE, {"board": "boards/default.toml",
                                            "cards": "cards/default.toml"})
DEFAULT_CARDS = shipped_text(PACKAGE, "cards/default.toml")

play = partial(kit.play, GAME)
"""Apply actions written in notation: ``play(state, *lines) -> (state, events)``."""
refusal = partial(kit.refusal, GAME)
"""The refusal of ``line`` (fails the test if it is accepted): ``refusal(state, line)``."""
kinds = kit.kinds
"""The kinds of events, in order."""

# 7 columns (a-g) x 7 rows; Blue sits south, Red north. Walls at c4 and e4.
OPEN_MAP = """
. . R R R . .
. . . . . . .
. . . . . . .
S . # . # . S
. . . . . . .
. . . . . . .
. . B B B . .
"""


def board_toml(map_text: str = OPEN_MAP, token: str = "a4") -> str:
    """A board file around ``map_text`` with units on their base (c1-e1, c7-e7 by default)."""
    return f"""
name = "test board"
map = '''{map_text}'''
token = "{token}"
[units.blue]
B1 = "c1"
B2 = "d1"
B3 = "e1"
[units.red]
R1 = "c7"
R2 = "d7"
R3 = "e7"
"""


def new_game(board: str | None = None, cards: str = DEFAULT_CARDS,
             **options: object) -> State:
    """The initial state (before the starting steps) of a game on ``board``."""
    setup = GAME.load_setup({"board": ("test-board.toml", board or board_toml()),
                             "cards": ("test-cards.toml", cards)}, options)
    return GAME.initial_state(setup)


def started(board: str | None = None, blue: tuple[str, ...] = ("Strike", "Guard", "Hex",
                                                               "Escort"),
            red: tuple[str, ...] = ("Serration", "Chainbind", "Shockwave", "Snare"),
            first: str = "blue", cards: str = DEFAULT_CARDS) -> State:
    """A Quick Start game whose shuffles put ``blue``/``red`` in the hands; ``first`` starts."""
    state = new_game(board, cards)
    for side, hand in (("blue", blue), ("red", red)):
        rest = tuple(c for c in state.side_cards(side).stack if c not in hand)
        state = GAME.apply(state, Shuffle(side, hand + rest)).state
    return GAME.apply(state, Flip(first)).state


def place(state: State, **spaces: str | None) -> State:
    """Put units on spaces (``B1="c4"``); ``None`` eliminates the unit."""
    for name, where in spaces.items():
        unit = state.unit(name)
        space = parse_space(where) if where else None
        assert space not in state.setup.board.walls, f"{where} is a wall"
        state = state.with_unit(replace(unit, space=space, hp=unit.hp if space else 0))
    return state


def set_hp(state: State, **hps: int) -> State:
    """Give units HP directly."""
    for name, hp in hps.items():
        state = state.with_unit(replace(state.unit(name), hp=hp))
    return state


def with_status(state: State, unit: str, status: str, side: str = "red") -> State:
    """Put a card giving ``unit`` a status effect on the Field (played by ``side``)."""
    entry = FieldCard("Snare", side, state.turn, "", (unit,), statuses=((unit, status),))
    return replace(state, field=(*state.field, entry))
