'''A sixth game, written out file by file as ``docs/engine-contract.md`` "Adding a sixth game"
tells a newcomer to: Pebbles (players take 1 to 3 pebbles from a pile in turn; who takes the
last one wins).

:func:`install_toy` writes the package into a folder and appends that folder to
``companion.games.__path__``, which is all the registry needs to find it
(``tests/games/test_layout.py`` checks that it then appears in the registry, on the command
line and on the new-game screen, and counts the files it took).
'''

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import companion.games

TOY_PACKAGE = "pebbles"
"""The toy game's package name under ``companion.games``."""

TOY_FILES: dict[str, str] = {
    "__init__.py": '''"""Pebbles: take 1 to 3 pebbles in turn; who takes the last one wins.

Modules: game (PebblesGame, GAME), state, actions, setup, rulebook, info.
"""

from companion.games.pebbles.game import GAME, PebblesGame

__all__ = ["GAME", "PebblesGame"]
''',
    "rulebook.py": '''"""The rulebook's file stem, its sections, refusal codes and endings."""

from enum import StrEnum

from companion.games.core import RuleRef

RULEBOOK = "pebbles"
TAKING = RuleRef(RULEBOOK, "Taking")
TURNS = RuleRef(RULEBOOK, "Turns")


class Refusal(StrEnum):
    """Why an action is refused (the values are the JSON and translation keys)."""

    TOO_MANY = "too_many"
    NOT_YOUR_TURN = "not_your_turn"


class Termination(StrEnum):
    """How a game ends."""

    LAST_PEBBLE = "last_pebble"
''',
    "state.py": '''"""The state of a game of Pebbles."""

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    """Where the game stands."""

    TAKE = "take"
    OVER = "over"


@dataclass(frozen=True)
class Setup:
    """The players, in turn order, the pile, and the most pebbles a turn takes."""

    players: tuple[str, ...]
    pile: int
    most: int = 3


@dataclass(frozen=True)
class State:
    """The pile, whose turn it is, and the phase."""

    setup: Setup
    pile: int
    turn: int = 0
    phase: Phase = Phase.TAKE
''',
    "actions.py": '''"""The one verb, ``take PLAYER N``, and its notation."""

from dataclasses import dataclass

from companion.games.core import NotationError
from companion.games.pebbles.state import State


@dataclass(frozen=True)
class Take:
    """A player takes ``count`` pebbles."""

    player: str
    count: int

    def __str__(self) -> str:
        return f"take {self.player} {self.count}"


def parse_action(state: State, text: str) -> Take:
    """Read ``take PLAYER N``.

    Raises:
        NotationError: the text is not an action of Pebbles.
    """
    words = text.split()
    if len(words) != 3 or words[0].lower() != "take" or not words[2].isdigit():
        raise NotationError(text, "expected `take PLAYER N`")
    names = {name.lower(): name for name in state.setup.players}
    if words[1].lower() not in names:
        raise NotationError(text, f"no player called {words[1]!r}")
    return Take(names[words[1].lower()], int(words[2]))
''',
    "info.py": '''"""What Pebbles is, as data: players, setup file, options, the shipped pile."""

from companion.games.info import GameInfo, Parameter, Players, ShippedSetup, Source
from companion.games.pebbles.rulebook import RULEBOOK

INFO = GameInfo(
    name="pebbles", title="Pebbles", rulebook=RULEBOOK, players=Players(2, 4),
    sources=(Source("pile", "the starting pile"),),
    parameters=(Parameter("most", "the most pebbles one turn takes", kind="whole",
                          minimum=1, maximum=5),
                Parameter("opener", "who takes first", choices=("first", "last"),
                          offered=True)),
    shipped=(ShippedSetup("small pile", {"pile": "piles/small.toml"}),
             ShippedSetup("big pile", {"pile": "piles/big.toml"})),
    package="companion.games.pebbles")
''',
    "setup.py": '''"""The pile file and the options in, a Setup out."""

from collections.abc import Mapping
from typing import Any

from companion.games.datafile import Table, load_toml
from companion.games.pebbles.info import INFO
from companion.games.pebbles.state import Setup


def load_setup(sources: Mapping[str, tuple[str, str]], options: Mapping[str, Any]) -> Setup:
    """Read the pile file and the options.

    Raises:
        SetupError: naming the file, the key and what is wrong.
    """
    checked = INFO.check_options(options)
    name, text = sources["pile"]
    with Table(name, load_toml(name, text)) as pile:
        size = pile.whole("pebbles", minimum=1, maximum=100)
    players = tuple(checked.get("players", ["Ann", "Ben"]))
    if checked.get("opener") == "last":
        players = players[::-1]
    return Setup(players, size, checked.get("most", 3))
''',
    "game.py": '''"""PebblesGame: dispatch only."""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from companion.games.core import Event, Game, Outcome, Transition, refuse
from companion.games.info import GameInfo
from companion.games.pebbles import actions, setup
from companion.games.pebbles.actions import Take
from companion.games.pebbles.info import INFO
from companion.games.pebbles.rulebook import RULEBOOK, TAKING, TURNS, Refusal, Termination
from companion.games.pebbles.state import Phase, Setup, State


class PebblesGame(Game[Setup, State, Take]):
    """Take 1 to 3 pebbles in turn; who takes the last one wins."""

    name = "pebbles"
    title = "Pebbles"
    rulebook = RULEBOOK
    info: ClassVar[GameInfo] = INFO
    state_type = State

    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Setup:
        """Read the pile file and the options (:mod:`.setup`)."""
        return setup.load_setup(sources, options)

    def initial_state(self, setup: Setup) -> State:
        """The whole pile, the first player to take."""
        return State(setup, setup.pile)

    def current_actor(self, state: State) -> str | None:
        """Whose turn it is; nobody's once the pile is empty."""
        return None if state.phase == Phase.OVER else state.setup.players[state.turn]

    def legal_actions(self, state: State) -> Sequence[Take]:
        """Every count the player to take may take."""
        if state.phase == Phase.OVER:
            return []
        player = state.setup.players[state.turn]
        return [Take(player, n) for n in range(1, min(state.setup.most, state.pile) + 1)]

    def apply(self, state: State, action: Take) -> Transition[State]:
        """Take the pebbles, or refuse citing the rule."""
        player = state.setup.players[state.turn]
        if state.phase == Phase.OVER or action.player != player:
            refuse(Refusal.NOT_YOUR_TURN, f"It is {player}'s turn.", TURNS, player=player)
        most = min(state.setup.most, state.pile)
        if not 1 <= action.count <= most:
            refuse(Refusal.TOO_MANY, f"Take 1 to {most} pebbles.", TAKING, count=action.count)
        pile = state.pile - action.count
        if pile == 0:
            over = replace(state, pile=0, phase=Phase.OVER)
            return Transition(over, (Event("victory", {
                "winners": [player], "termination": str(Termination.LAST_PEBBLE),
                "detail": f"{player} took the last pebble."}),))
        turn = (state.turn + 1) % len(state.setup.players)
        return Transition(replace(state, pile=pile, turn=turn))

    def outcome(self, state: State) -> Outcome | None:
        """Who took the last pebble, once the pile is empty."""
        if state.phase != Phase.OVER:
            return None
        winner = state.setup.players[state.turn]
        return Outcome((winner,), Termination.LAST_PEBBLE, f"{winner} took the last pebble.")

    def parse_action(self, state: State, text: str) -> Take:
        """Read ``take PLAYER N`` (:mod:`.actions`)."""
        return actions.parse_action(state, text)


GAME = PebblesGame()
''',
    "piles/small.toml": "pebbles = 7\n",
    "piles/big.toml": "pebbles = 21\n",
}
"""Path inside the package -> text: every file of the toy game."""


@contextmanager
def install_toy(folder: Path) -> Iterator[Path]:
    """Write the toy game under ``folder`` and let :mod:`companion.games` find it there.

    Yields the package's folder; afterwards the folder leaves ``companion.games.__path__``
    and the modules leave ``sys.modules``, so later tests see only the real games.
    """
    package = folder / TOY_PACKAGE
    for name, text in TOY_FILES.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    companion.games.__path__.append(str(folder))
    importlib.invalidate_caches()
    try:
        yield package
    finally:
        companion.games.__path__.remove(str(folder))
        for module in [m for m in sys.modules if m == f"companion.games.{TOY_PACKAGE}"
                       or m.startswith(f"companion.games.{TOY_PACKAGE}.")]:
            del sys.modules[module]
