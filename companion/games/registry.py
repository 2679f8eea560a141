"""Which games the companion knows, found by convention and loaded by their short name.

A game is a subpackage of :mod:`companion.games` whose ``__init__`` exposes ``GAME``, its
:class:`~companion.games.core.Game` instance; its short name is ``GAME.name``. Nothing here
lists the games: a sixth game is found the moment its package is there. The five shipped
games keep their menu order (:data:`MENU_ORDER`); any other game follows, by name.

:data:`GAME_MODULES` (short name -> module) is the registry. A game outside
:mod:`companion.games` (a test game) is added to it by hand, and removed the same way::

    GAME_MODULES["countdown"] = "tests.support.countdown"

A package in another folder joins by that folder being appended to
``companion.games.__path__`` (what the layout test does with a toy game in a temporary
folder).

Example:
    >>> from companion.games.registry import load_game
    >>> load_game("infinifield").title
    'Infinifield'
    >>> available_games()[:5]
    ['infinifield', 'infinidungeon', '401', 'infinity', 'defiance']
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, MutableMapping
from typing import Any

from companion.games.core import Game

PACKAGE = "companion.games"
"""The package whose subpackages are the games."""

MENU_ORDER = ("infinifield", "infinidungeon", "401", "infinity", "defiance")
"""The shipped games' order on the home screen and in ``infinite-referee --help``."""


class UnknownGame(LookupError):
    """A game name the companion does not know."""


def game_packages() -> list[str]:
    """The subpackages of :mod:`companion.games` (each a candidate game), by module name.

    Example:
        >>> "companion.games.infinite401" in game_packages()
        True
    """
    package = importlib.import_module(PACKAGE)
    return sorted(f"{PACKAGE}.{info.name}" for info in pkgutil.iter_modules(package.__path__)
                  if info.ispkg)


_SCANNED: dict[tuple[str, ...], dict[str, str]] = {}
"""The last scan, by the folders of :mod:`companion.games` it read: the games do not change
while the companion runs, unless a folder joins ``companion.games.__path__``."""


def _scan() -> dict[str, str]:
    """``{GAME.name: module}`` for every game package, in menu order."""
    folders = tuple(importlib.import_module(PACKAGE).__path__)
    if folders not in _SCANNED:
        _SCANNED.clear()
        _SCANNED[folders] = _games_in(tuple(game_packages()))
    return _SCANNED[folders]


def _games_in(packages: tuple[str, ...]) -> dict[str, str]:
    found: dict[str, str] = {}
    for module_name in packages:
        game = getattr(importlib.import_module(module_name), "GAME", None)
        if isinstance(game, Game):
            found[game.name] = module_name
    rank = {name: index for index, name in enumerate(MENU_ORDER)}
    return dict(sorted(found.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))


class GameModules(MutableMapping[str, str]):
    """Short name -> module exposing ``GAME``: the games found, plus those added by hand.

    The game packages are looked for on every reading (a listing of one folder; each
    package is imported once), so a package that appears later is found too.
    """

    def __init__(self) -> None:
        self._added: dict[str, str] = {}
        self._removed: set[str] = set()

    def snapshot(self) -> dict[str, str]:
        """Every game now: short name -> module, in menu order."""
        found = {name: module for name, module in _scan().items() if name not in self._removed}
        return {**found, **self._added}

    def __getitem__(self, name: str) -> str:
        return self.snapshot()[name]

    def __setitem__(self, name: str, module: str) -> None:
        self._removed.discard(name)
        self._added[name] = module

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._added.pop(name, None)
        if name in _scan():
            self._removed.add(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self.snapshot())

    def __len__(self) -> int:
        return len(self.snapshot())

    def __contains__(self, name: object) -> bool:
        return name in self.snapshot()

    def __repr__(self) -> str:
        return f"GameModules({self.snapshot()!r})"


GAME_MODULES = GameModules()
"""Short name -> module exposing ``GAME``, the game's :class:`Game` instance."""


def load_game(name: str) -> Game[Any, Any, Any]:
    """Return the engine of the game called ``name`` (case-insensitive).

    Raises:
        UnknownGame: naming the games that exist.
    """
    key = name.lower()
    modules = GAME_MODULES.snapshot()
    if key not in modules:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(modules)}")
    module = importlib.import_module(modules[key])
    game: Game[Any, Any, Any] = module.GAME
    return game


def available_games() -> list[str]:
    """The short names of the games whose engines are installed, in menu order."""
    names = []
    for name, module_name in GAME_MODULES.snapshot().items():
        try:
            importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and module_name.startswith(error.name):
                continue
            raise
        names.append(name)
    return names


def package_name(name: str) -> str:
    """The last part of the package of the game called ``name``.

    It names the game's CLI module (``companion.cli.<package>``) and app screen
    (``companion.app.screens.<package>``).

    Raises:
        UnknownGame: naming the games that exist.

    Example:
        >>> package_name("401")
        'infinite401'
    """
    modules = GAME_MODULES.snapshot()
    if name.lower() not in modules:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(modules)}")
    return modules[name.lower()].rsplit(".", 1)[-1]


def all_games() -> list[Game[Any, Any, Any]]:
    """The engine of every installed game, in menu order."""
    return [load_game(name) for name in available_games()]
