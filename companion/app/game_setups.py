"""How the app sets up each game, read from the game's GameInfo.

Every game the registry finds states its facts once (``Game.info``: shipped setups, player
range, how players are named, the options offered before a game); :data:`SETUPS` turns
them into what the new-game screen and the controller use (:class:`GameSetup`), so a new
game appears on the home screen without an entry here. A test game without a ``GameInfo``
is added with :func:`register_setup`.

Example:
    >>> SETUPS["infinifield"].players.minimum
    2
    >>> list(SETUPS["401"].layouts)
    ['quick start', 'short game (4 turns)']
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.info import GameInfo
from companion.games.registry import available_games, load_game
from companion.resources import shipped_sources


@dataclass(frozen=True)
class PlayerRange:
    """How many players a game takes and the names offered by default."""

    minimum: int
    maximum: int
    default_names: tuple[str, ...]

    def defaults(self, count: int) -> list[str]:
        """The first ``count`` default names.

        Example:
            >>> PlayerRange(2, 4, ("Ann", "Ben", "Cat", "Dan")).defaults(3)
            ['Ann', 'Ben', 'Cat']
        """
        if not self.minimum <= count <= self.maximum:
            raise ValueError(f"this game takes {self.minimum} to {self.maximum} players")
        return list(self.default_names[:count])


@dataclass(frozen=True)
class GameSetup:
    """What a new game of one kind starts from.

    Attributes:
        game: the game's short name (as in ``companion.games.registry``).
        package: the package whose data files hold the setups.
        layouts: a name for each choice -> role -> shipped file.
        players: how many players and their default names (``None`` for a game without
            named players, such as the solo Infinidungeon).
        options: fixed options passed to ``load_setup``.
        layout_options: extra options of some layouts (e.g. a short game's turn limit).
        choices: options the players pick on the new-game screen: option -> its values,
            the first being the default (e.g. ``{"scoring": ("points", "rounds")}``).
        naming: how the players' names reach the game: ``option`` (the ``players``
            option, with :attr:`players`), ``rename`` (the names written in the setup
            files are replaced: Infinity's armies, Defiance's game files), ``seats``
            (the engine has no names, only sides: they are kept beside the journal) or
            ``none`` (a solo game: Infinidungeon).
        seats: the sides of a ``seats`` game, in order (401: red, blue).
    """

    game: str
    package: str
    layouts: Mapping[str, Mapping[str, str]]
    players: PlayerRange | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    layout_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    naming: str = "option"
    seats: tuple[str, ...] = ()

    def default_names(self, layout: str) -> list[str]:
        """The names a layout starts with.

        The players' defaults, the names written in its setup files (``rename``), or one
        per side (``seats``).

        Example:
            >>> SETUPS["infinity"].default_names("example armies")
            ['Ann', 'Ben']
            >>> SETUPS["401"].default_names("quick start")
            ['Ann', 'Ben']
        """
        if self.naming == "rename":
            return names_in_sources(self.sources(layout))
        if self.naming == "seats":
            return list(NAMES[:len(self.seats)])
        return self.players.defaults(self.players.minimum) if self.players else []

    def named_sources(self, layout: str, names: list[str] | None) -> dict[str, tuple[str, str]]:
        """The layout's files with the players' names written in (``rename`` games).

        Raises:
            ValueError: a name is empty, not one word, or given twice, or the count is not
                the layout's.

        Example:
            >>> sources = SETUPS["infinity"].named_sources("example armies", ["Zoe", "Max"])
            >>> names_in_sources(sources)
            ['Zoe', 'Max']
        """
        sources = self.sources(layout)
        if self.naming != "rename" or names is None:
            return sources
        old = names_in_sources(sources)
        if len(names) != len(old):
            raise ValueError(f"this setup has {len(old)} players, not {len(names)}")
        check_names(names)
        renamed = {}
        for role, (name, text) in sources.items():
            if names_in_sources({role: (name, text)}):  # only the file naming the players
                for before, after in zip(old, names, strict=True):
                    text = re.sub(rf'"{re.escape(before)}"', f'"{after}"', text)
            renamed[role] = (name, text)
        return renamed

    def sources(self, layout: str) -> dict[str, tuple[str, str]]:
        """The ``{role: (name, text)}`` of a layout.

        Raises:
            KeyError: naming the layouts there are.
        """
        if layout not in self.layouts:
            raise KeyError(f"{self.game} has no layout {layout!r}; "
                           f"choose from {', '.join(self.layouts)}")
        return shipped_sources(self.package, self.layouts[layout])

    def build_options(self, players: list[str] | None, layout: str = "",
                      chosen: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The options for ``load_setup``: fixed, the layout's, the players' choices, players.

        Raises:
            ValueError: a chosen value that is not one of the option's values.
        """
        for option, value in (chosen or {}).items():
            if value not in self.choices.get(option, ()):
                raise ValueError(f"{self.game}: {option} cannot be {value!r}; choose one of "
                                 f"{', '.join(map(str, self.choices.get(option, ())))}")
        options = {**self.options, **self.layout_options.get(layout, {}), **(chosen or {})}
        if self.players is not None:
            options["players"] = list(players or self.players.defaults(self.players.minimum))
        return options


NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")

ONE_WORD = re.compile(r"^[^\s\"\\]{1,20}$")


def check_names(names: list[str]) -> None:
    """Players' names: one word each (up to 20 characters, no quotes), all different.

    Raises:
        ValueError: naming the problem.

    Example:
        >>> check_names(["Ann", "ann"])
        Traceback (most recent call last):
        ...
        ValueError: every player needs a different name
    """
    for name in names:
        if not ONE_WORD.match(name):
            raise ValueError(f"{name!r}: a name is one word of up to 20 letters")
    if len({name.lower() for name in names}) != len(names):
        raise ValueError("every player needs a different name")


def names_in_sources(sources: Mapping[str, tuple[str, str]]) -> list[str]:
    """The players named in setup files: a ``players`` list, or each army's ``player``.

    Example:
        >>> names_in_sources({"game": ("g.toml", '[game]' + chr(10) + 'players = ["Ann", "Ben"]')})
        ['Ann', 'Ben']
    """
    found: list[str] = []
    for _name, text in sources.values():
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            continue
        game = data.get("game")
        table: dict[str, Any] = game if isinstance(game, dict) else data
        found += [str(p) for p in table.get("players", []) if isinstance(p, str)]
        found += [str(army["player"]) for army in data.get("armies", [])
                  if isinstance(army, dict) and isinstance(army.get("player"), str)]
    return list(dict.fromkeys(found))

def setup_from_info(info: GameInfo) -> GameSetup:
    """What a new game of ``info``'s kind starts from: its shipped setups, players, choices.

    Example:
        >>> from companion.games.info import GameInfo, Parameter, Players, ShippedSetup
        >>> info = GameInfo("demo", "Demo", "demo", Players(2, 3),
        ...                 parameters=(Parameter("pace", "", choices=("slow", "fast"),
        ...                                       default="fast", offered=True),),
        ...                 shipped=(ShippedSetup("short", {"setup": "s.toml"}, {"rounds": 2}),))
        >>> setup = setup_from_info(info)
        >>> setup.players, setup.choices, setup.layout_options
        (PlayerRange(minimum=2, maximum=3, default_names=('Ann', 'Ben', 'Cat')), \
{'pace': ('fast', 'slow')}, {'short': {'rounds': 2}})
    """
    players = info.players
    choices = {}
    for parameter in info.parameters:
        if parameter.offered and parameter.choices:
            first = parameter.default if parameter.default in parameter.choices \
                else parameter.choices[0]
            choices[parameter.name] = (first, *(c for c in parameter.choices if c != first))
    return GameSetup(
        info.name, info.package, {setup.name: setup.files for setup in info.shipped},
        PlayerRange(players.minimum, players.maximum, NAMES[:players.maximum])
        if players.named == "option" else None,
        layout_options={setup.name: setup.options for setup in info.shipped if setup.options},
        choices=choices, naming=players.named, seats=players.seats)


class GameSetups(MutableMapping[str, GameSetup]):
    """Short name -> :class:`GameSetup` of every game the registry finds, plus those added.

    Read on demand, so importing this module loads no engine.
    """

    def __init__(self) -> None:
        self._added: dict[str, GameSetup] = {}
        self._from_info: dict[int, GameSetup] = {}

    def _all(self) -> dict[str, GameSetup]:
        found: dict[str, GameSetup] = {}
        for name in available_games():
            info = getattr(load_game(name), "info", None)
            if isinstance(info, GameInfo):
                if id(info) not in self._from_info:
                    self._from_info[id(info)] = setup_from_info(info)
                found[name] = self._from_info[id(info)]
        return {**found, **self._added}

    def __getitem__(self, name: str) -> GameSetup:
        return self._all()[name]

    def __setitem__(self, name: str, setup: GameSetup) -> None:
        self._added[name] = setup

    def __delitem__(self, name: str) -> None:
        del self._added[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


SETUPS = GameSetups()
"""Setups of the games the app knows how to start."""


def register_setup(setup: GameSetup) -> None:
    """Add (or replace) a game's setup, e.g. a test game or a newly landed engine."""
    SETUPS[setup.game] = setup
