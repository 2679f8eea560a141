"""Which games the companion knows, loaded lazily by their short name.

Example:
    >>> from companion.games.registry import load_game
    >>> load_game("infinifield").title
    'Infinifield'
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.games.core import Game

GAME_MODULES: dict[str, str] = {
    "infinifield": "companion.games.infinifield",
    "infinidungeon": "companion.games.infinidungeon",
    "401": "companion.games.infinite401",
    "infinity": "companion.games.infinity",
    "defiance": "companion.games.defiance",
}
"""Short name -> module exposing ``GAME``, the game's :class:`Game` instance."""


class UnknownGame(LookupError):
    """A game name the companion does not know."""


def load_game(name: str) -> Game[Any, Any, Any]:
    """Return the engine of the game called ``name`` (case-insensitive).

    Raises:
        UnknownGame: naming the games that exist.
    """
    key = name.lower()
    if key not in GAME_MODULES:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(GAME_MODULES)}")
    module = importlib.import_module(GAME_MODULES[key])
    game: Game[Any, Any, Any] = module.GAME
    return game


def available_games() -> list[str]:
    """The short names of the games whose engines are installed, in menu order."""
    names = []
    for name, module_name in GAME_MODULES.items():
        try:
            importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and module_name.startswith(error.name):
                continue
            raise
        names.append(name)
    return names
