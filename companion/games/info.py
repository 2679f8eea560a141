"""What a game is, as data: players, setup files, options and shipped setups.

OpenSpiel registers every game once with a ``GameType`` (min/max players, a
``parameter_specification``); :class:`GameInfo` is ours. Each engine states it once, as
``Game.info``, and everything around the engine is built from it: the command line's flags
(``companion/cli``), the app's new-game screen and its choices, and the one place where
options are checked (:meth:`GameInfo.check_options`), so a misspelt ``tems = true`` is an
error naming the closest option instead of a silently different game.

Nothing here reads a file: a shipped setup names its files, and the caller reads them.

Example:
    >>> info = GameInfo(
    ...     name="demo", title="Demo", rulebook="infinifield", players=Players(2, 4),
    ...     sources=(Source("setup", "the field", required=True),),
    ...     parameters=(Parameter("scoring", "how points are kept", choices=("points", "rounds")),
    ...                 Parameter("rounds", "play this many rounds", kind="whole", minimum=1)),
    ... )
    >>> info.check_options({"scoring": "rounds", "rounds": 3, "players": ["Ann", "Ben"]})
    {'scoring': 'rounds', 'rounds': 3, 'players': ['Ann', 'Ben']}
    >>> try:
    ...     info.check_options({"scorng": "points"})
    ... except SetupError as error:
    ...     print(error.where, "|", error.problem)
    scorng | unknown option; did you mean 'scoring'? (expected one of: players, rounds, scoring)
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.games.errors import SetupError

ParameterKind = Literal["choice", "whole", "flag", "text", "names"]
"""How an option is written: one of ``choices``, a whole number, on/off, one word, or a
list of names (``--players Ann,Ben``)."""

PLAYERS = "players"
"""The option that carries the players' names, in seating order."""


@dataclass(frozen=True)
class Players:
    """How many players a game takes.

    Attributes:
        minimum: the fewest players.
        maximum: the most players.
        named: how the players' names reach the engine: ``option`` (the ``players``
            option), ``rename`` (names written in the setup files are replaced: Infinity's
            armies, Defiance's game files), ``seats`` (the engine has only sides, see
            :attr:`seats`) or ``none`` (a solo game without named players).
        seats: the sides of a ``seats`` game, in order (401: ``red``, ``blue``).
    """

    minimum: int
    maximum: int
    named: Literal["option", "rename", "seats", "none"] = "option"
    seats: tuple[str, ...] = ()

    def accepts(self, count: int) -> bool:
        """Whether ``count`` players may play.

        Example:
            >>> Players(2, 4).accepts(5)
            False
        """
        return self.minimum <= count <= self.maximum


@dataclass(frozen=True)
class Parameter:
    """One option of a game (OpenSpiel's ``parameter_specification`` entry).

    Attributes:
        name: the option's key (``turn_limit``); the CLI flag is ``--turn-limit``.
        help: one line saying what it changes.
        kind: how it is written (:data:`ParameterKind`).
        choices: the values a ``choice`` takes, the default first unless ``default`` says.
        default: the value when the option is not given (``None``: the engine decides,
            usually from the setup file).
        minimum: the smallest ``whole`` value.
        maximum: the largest ``whole`` value.
        offered: the app's new-game screen offers it, one button per choice (the first
            lit): a choice the players make before every game (Infinifield's scoring,
            401's start). Options the setup file usually decides (a field's mode) are left
            to the command line.
    """

    name: str
    help: str
    kind: ParameterKind = "choice"
    choices: tuple[str, ...] = ()
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    offered: bool = False

    @property
    def flag(self) -> str:
        """The command-line flag.

        Example:
            >>> Parameter("turn_limit", "", kind="whole").flag
            '--turn-limit'
        """
        return "--" + self.name.replace("_", "-")

    def check(self, value: Any, source: str = "options") -> Any:
        """The value, checked against the parameter's kind, choices and bounds.

        Raises:
            SetupError: naming the option and what is wrong.

        Example:
            >>> Parameter("mode", "", choices=("quickstart", "official")).check("Official")
            'official'
        """
        problem = self._problem(value)
        if problem:
            raise SetupError(source, self.name, problem)
        if self.kind == "choice":
            return str(value).lower()
        if self.kind == "names":
            return [str(name) for name in value]
        return value

    def _problem(self, value: Any) -> str:
        if self.kind == "choice":
            if not isinstance(value, str) or value.lower() not in self.choices:
                return f"{value!r} is not one of: {', '.join(self.choices)}"
        elif self.kind == "whole":
            if isinstance(value, bool) or not isinstance(value, int | float) or (
                    isinstance(value, float) and (not math.isfinite(value)
                                                  or not value.is_integer())):
                return f"expected a whole number, got {value!r}"
            if self.minimum is not None and value < self.minimum:
                return f"{value} is below the smallest value, {self.minimum}"
            if self.maximum is not None and value > self.maximum:
                return f"{value} is above the largest value, {self.maximum}"
        elif self.kind == "flag":
            if not isinstance(value, bool):
                return f"expected true or false, got {value!r}"
        elif self.kind == "text":
            if not isinstance(value, str) or not value.strip():
                return f"expected a word, got {value!r}"
        elif self.kind == "names" and (
                isinstance(value, str) or not isinstance(value, list | tuple)
                or not all(isinstance(name, str) and name.strip() for name in value)):
            return f"expected a list of names, got {value!r}"
        return ""


@dataclass(frozen=True)
class Source:
    """One setup file a game reads, by its role.

    Attributes:
        role: the key of ``Game.load_setup``'s sources (``setup``, ``deck``, ``board``...);
            the CLI flag is ``--<role>``.
        help: one line saying what the file holds.
        required: whether a game cannot start without it (else a shipped default is used).
    """

    role: str
    help: str
    required: bool = False

    @property
    def flag(self) -> str:
        """The command-line flag (``--deck``)."""
        return "--" + self.role.replace("_", "-")


@dataclass(frozen=True)
class ShippedSetup:
    """A setup that ships with the game, offered on the new-game screen.

    Attributes:
        name: what the players see (``quick start``, ``castle (3D)``).
        files: role -> the shipped file's path inside the game's package.
        options: options this setup fixes (a short game's ``turn_limit``).
    """

    name: str
    files: Mapping[str, str]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameInfo:
    """A game's facts, stated once (OpenSpiel's ``GameType``).

    Attributes:
        name: the short name (``401``), as in journals and on the command line.
        title: the name printed on the box.
        rulebook: the rulebook file's stem under ``shared/rules``.
        players: how many players, and how their names reach the engine.
        sources: the setup files the game reads, by role.
        parameters: the options, checked by :meth:`check_options`.
        shipped: the shipped setups, the first being the default.
        package: the package holding the shipped files.
        sounds: every event kind the game emits -> the buzzer pattern it calls for at the
            table (a name of :data:`hardware.patterns.PATTERNS`: ``tick``, ``chime``,
            ``knock``, ``capture``...), ``None`` for silence; the kinds every game shares
            (``illegal``, ``undone``, ``victory``, ``defeat``) are the hardware's own.
    """

    name: str
    title: str
    rulebook: str
    players: Players
    sources: tuple[Source, ...] = ()
    parameters: tuple[Parameter, ...] = ()
    shipped: tuple[ShippedSetup, ...] = ()
    package: str = ""
    sounds: Mapping[str, str | None] = field(default_factory=dict)

    def parameter(self, name: str) -> Parameter:
        """The parameter called ``name``.

        Raises:
            KeyError: naming the parameters there are.
        """
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        raise KeyError(f"{self.name} has no option {name!r}; "
                       f"options: {', '.join(p.name for p in self.parameters)}")

    def shipped_setup(self, name: str) -> ShippedSetup:
        """The shipped setup called ``name``.

        Raises:
            KeyError: naming the shipped setups there are.
        """
        for setup in self.shipped:
            if setup.name == name:
                return setup
        raise KeyError(f"{self.name} has no shipped setup {name!r}; "
                       f"choose from {', '.join(s.name for s in self.shipped)}")

    def option_names(self) -> list[str]:
        """Every option the game reads, ``players`` included when names come as an option."""
        names = [p.name for p in self.parameters]
        if self.players.named == "option" and PLAYERS not in names:
            names.append(PLAYERS)
        return sorted(names)

    def check_options(self, options: Mapping[str, Any],
                      source: str = "options") -> dict[str, Any]:
        """The options checked in one place: names, kinds, choices, bounds, player count.

        Options whose value is ``None`` are left out (not given). Defaults are not filled
        in: an absent option lets the engine take the setup file's value.

        Raises:
            SetupError: an unknown option (naming the closest one), a value of the wrong
                kind or out of range, or a player count the game does not take.
        """
        known = self.option_names()
        checked: dict[str, Any] = {}
        for name, value in options.items():
            if value is None:
                continue
            if name not in known:
                close = difflib.get_close_matches(str(name), known, n=1, cutoff=0.6)
                hint = f"did you mean {close[0]!r}? " if close else ""
                expected = f"(expected one of: {', '.join(known)})" if known else \
                    f"{self.title} takes no options"
                raise SetupError(source, str(name), f"unknown option; {hint}{expected}")
            if name == PLAYERS and all(p.name != PLAYERS for p in self.parameters):
                checked[name] = self._check_players(value, source)
            else:
                checked[name] = self.parameter(name).check(value, source)
        return checked

    def _check_players(self, value: Any, source: str) -> list[str]:
        names: list[str] = Parameter(PLAYERS, "", kind="names").check(value, source)
        if not self.players.accepts(len(names)):
            raise SetupError(source, PLAYERS, f"{self.title} takes {self.players.minimum} to "
                                              f"{self.players.maximum} players, not {len(names)}")
        return names
