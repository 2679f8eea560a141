"""Each game's ``infinite-referee`` sub-command, generated from its :class:`GameInfo`.

A game's sub-command is named ``info.name``; it takes one ``--<role>`` flag per setup file
(``info.sources``, each defaulting to the first shipped setup's file), one flag per option
(``info.parameters``: a ``choice`` takes one of its values, a ``whole`` a number, ``names``
a comma list, a ``flag`` is ``--x``/``--no-x``), ``--players`` for a game whose players are
named by an option, and the flags every referee shares. The options given are checked by
``info.check_options`` before anything is read.

What a game adds of its own (a ``--check``, an advisor, an odds mode) lives in
``companion/cli/<package>.py``, found by convention; every name there is optional:

- ``HELP``: the sub-command's line in ``infinite-referee --help``;
- ``extend(parser)``: add the game's own flags;
- ``handle(command) -> int``: run the sub-command (:class:`Command` reads the files and the
  options on demand, and :meth:`Command.referee` referees); without it, the game is
  refereed as is. A file that cannot be read or used (``UnreadableInput``, ``SetupError``)
  raised from it is reported as one line naming the file, key and problem (status 2).

Example:
    >>> import argparse
    >>> from companion.games.info import GameInfo, Parameter, Players, Source
    >>> info = GameInfo("demo", "Demo", "demo", Players(2, 4),
    ...                 sources=(Source("setup", "the field"),),
    ...                 parameters=(Parameter("rounds", "rounds to play", kind="whole"),))
    >>> parser = argparse.ArgumentParser()
    >>> add_info_arguments(parser, info)
    >>> args = parser.parse_args(["--rounds", "3", "--players", "Ann, Ben"])
    >>> options_from(info, args)
    {'players': ['Ann', 'Ben'], 'rounds': 3}
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from companion.cli.referee import (
    EXIT_UNREADABLE,
    Annotator,
    UnreadableInput,
    add_common_arguments,
    run_referee,
    setup_sources,
)
from companion.games.core import Game, SetupError
from companion.games.info import PLAYERS, GameInfo, Parameter
from companion.games.registry import package_name

CLI_PACKAGE = "companion.cli"
"""Where a game's own command-line additions live (``companion.cli.<package>``)."""


def game_module(game: Game[Any, Any, Any]) -> ModuleType | None:
    """The game's own command-line module (``companion.cli.<package>``), if it has one."""
    name = f"{CLI_PACKAGE}.{package_name(game.name)}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            return None
        raise


def add_game_command(subparsers: Any, game: Game[Any, Any, Any]) -> argparse.ArgumentParser:
    """Add ``game``'s sub-command: generated flags, then the game module's own."""
    info = game.info
    module = game_module(game)
    summary = getattr(module, "HELP", f"referee {info.title} from a record or typed actions")
    parser: argparse.ArgumentParser = subparsers.add_parser(info.name, help=summary,
                                                            description=summary)
    add_info_arguments(parser, info)
    add_common_arguments(parser)
    extend = getattr(module, "extend", None)
    if callable(extend):
        extend(parser)
    handle: Callable[[Command], int] = getattr(module, "handle", Command.referee)

    def run(args: argparse.Namespace, out: IO[str] | None = None,
            err: IO[str] | None = None, stdin: IO[str] | None = None) -> int:
        command = Command(game, args, out or sys.stdout, err or sys.stderr, stdin)
        try:
            return handle(command)
        except (UnreadableInput, SetupError) as error:  # naming the file, key and problem
            print(f"error: {error}", file=command.err)
            return EXIT_UNREADABLE

    parser.set_defaults(run=run)
    return parser


RESERVED = frozenset({"record", "json", "journal", "resume", "seed", "legal", "run", "game"})
"""Names the referee's own arguments use: no setup file or option may take them."""


def add_info_arguments(parser: argparse.ArgumentParser, info: GameInfo) -> None:
    """One flag per setup file and per option of ``info`` (none given: ``None``).

    Raises:
        ValueError: a setup file and an option share a name, or one takes a name of the
            referee's own arguments (:data:`RESERVED`).

    Example:
        >>> from companion.games.info import Players, Source
        >>> add_info_arguments(argparse.ArgumentParser(), GameInfo(
        ...     "demo", "Demo", "demo", Players(1, 1, "none"), sources=(Source("seed", ""),)))
        Traceback (most recent call last):
        ...
        ValueError: demo: 'seed' is the referee's own --seed; rename the setup file or option
    """
    names = [source.role for source in info.sources] + info.option_names()
    for name in names:
        if name in RESERVED:
            raise ValueError(f"{info.name}: {name!r} is the referee's own --{name}; rename "
                             "the setup file or option")
        if names.count(name) > 1:
            raise ValueError(f"{info.name}: {name!r} names both a setup file and an option")
    defaults = info.shipped[0].files if info.shipped else {}
    for source in info.sources:
        shipped = defaults.get(source.role)
        parser.add_argument(source.flag, type=Path, metavar=f"{source.role.upper()}.toml",
                            help=f"{source.help} (default: the shipped {shipped})"
                            if shipped else source.help)
    parameters = list(info.parameters)
    if PLAYERS in info.option_names() and all(p.name != PLAYERS for p in parameters):
        parameters.append(Parameter(PLAYERS, "player names in seating order, comma-separated "
                                             "(e.g. Ann,Ben,Cat)", kind="names"))
    for parameter in parameters:
        _add_parameter(parser, parameter)


def _add_parameter(parser: argparse.ArgumentParser, parameter: Parameter) -> None:
    text = parameter.help + (f" (default: {parameter.default})"
                             if parameter.default is not None else "")
    dest = parameter.name
    if parameter.kind == "choice":
        parser.add_argument(parameter.flag, dest=dest, choices=parameter.choices, help=text)
    elif parameter.kind == "whole":
        parser.add_argument(parameter.flag, dest=dest, type=int, metavar="N", help=text)
    elif parameter.kind == "flag":
        parser.add_argument(parameter.flag, dest=dest, action=argparse.BooleanOptionalAction,
                            default=None, help=text)
    elif parameter.kind == "names":
        parser.add_argument(parameter.flag, dest=dest, type=comma_list, metavar="A,B,...",
                            help=text)
    else:
        parser.add_argument(parameter.flag, dest=dest, metavar=parameter.name.upper(),
                            help=text)


def comma_list(text: str) -> list[str]:
    """``"Ann, Ben"`` -> ``['Ann', 'Ben']`` (an empty name is kept, for the check to name).

    Example:
        >>> comma_list("Ann,Ben , Cat")
        ['Ann', 'Ben', 'Cat']
    """
    return [name.strip() for name in text.split(",")]


def options_from(info: GameInfo, args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line, by name (those left out are not included)."""
    options: dict[str, Any] = {}
    for name in info.option_names():
        value = getattr(args, name, None)
        if value is not None:
            options[name] = value
    return options


@dataclass
class Command:
    """One run of a game's sub-command: what it was given, read when first asked for.

    Attributes:
        game: the engine.
        args: the parsed command line.
        out: where verdicts go.
        err: where errors and warnings go.
        stdin: where typed actions come from (``None``: standard input).
    """

    game: Game[Any, Any, Any]
    args: argparse.Namespace
    out: IO[str]
    err: IO[str]
    stdin: IO[str] | None = None
    _sources: dict[str, tuple[str, str]] | None = field(default=None, repr=False)

    @property
    def info(self) -> GameInfo:
        """The game's facts."""
        return self.game.info

    @property
    def sources(self) -> dict[str, tuple[str, str]]:
        """``{role: (name, text)}``: each file the flags name, else the shipped one.

        Raises:
            UnreadableInput: a file cannot be read, or a required one is missing.
        """
        if self._sources is None:
            defaults = dict(self.info.shipped[0].files) if self.info.shipped else {}
            chosen: dict[str, Path | None] = {}
            for source in self.info.sources:
                chosen[source.role] = getattr(self.args, source.role, None)
                if chosen[source.role] is None and source.role not in defaults:
                    if source.required:
                        raise UnreadableInput(source.flag, None, "is required")
                    continue
                defaults.setdefault(source.role, "")
            self._sources = setup_sources(self.info.package, defaults, chosen)
        return self._sources

    @property
    def options(self) -> dict[str, Any]:
        """The options the flags give, checked by ``info.check_options``.

        Raises:
            SetupError: an option the game does not take (naming it and what is wrong).
        """
        return self.info.check_options(options_from(self.info, self.args))

    def referee(self, annotate: Annotator | None = None,
                rewrite: Callable[[str], str] | None = None) -> int:
        """Referee the record or the typed actions; returns the exit status.

        Raises:
            UnreadableInput: a setup file cannot be read or an option is wrong.
        """
        return run_referee(self.game, self.args, self.sources, self.options,
                           annotate=annotate, out=self.out, err=self.err, stdin=self.stdin,
                           rewrite=rewrite)


def has_info(game: Game[Any, Any, Any]) -> bool:
    """Whether ``game`` states its :class:`GameInfo` (``Game.info``)."""
    return isinstance(getattr(game, "info", None), GameInfo)

