"""``infinite-referee defiance``: referee Infinities: Defiance of Fate.

Examples:
    $ infinite-referee defiance --setup my-game.toml game.txt
    $ infinite-referee defiance --setup my-game.toml --cards my-cards.toml --check
    $ echo "legal" | infinite-referee defiance --json

Without ``--setup`` the shipped two-player Quickplay game is used; each data file (leaders,
tiles, cards, Roles, chapters) defaults to the shipped example set (``docs/defiance.md``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, Any

from companion.cli.command import Command
from companion.cli.referee import (
    EXIT_OK,
    EXIT_UNREADABLE,
    UnreadableInput,
    add_common_arguments,
    run_referee,
    setup_sources,
)
from companion.games.core import SetupError
from companion.games.defiance import GAME
from companion.games.defiance.shipped import DATA_FILES, DEFAULT_SETUP, PACKAGE

DATA_ROLES = tuple(DATA_FILES)


HELP = "referee Infinities: Defiance of Fate (checks, health, hex map, points)"


def extend(parser: argparse.ArgumentParser) -> None:
    """Defiance's own flag: ``--check`` the setup and data files."""
    parser.add_argument("--check", action="store_true",
                        help="check the setup and data files, print what they hold, and exit")


def handle(command: Command) -> int:
    """Check the files (``--check``), else referee."""
    if command.args.check:
        return check(command.sources, command.options, command.out, command.err)
    return command.referee()


def check(sources: dict[str, tuple[str, str]], options: dict[str, Any], out: IO[str],
          err: IO[str]) -> int:
    """Load and check every file; print a summary (status 0) or the first problem (2)."""
    try:
        rules = GAME.load_setup(sources, options)
    except SetupError as error:
        print(f"error: {error}", file=err)
        return EXIT_UNREADABLE
    print(f"ok: {rules.mode}{' (teams)' if rules.teams_mode else ''}, "
          f"{len(rules.players)} players, {len(rules.leaders)} leaders, "
          f"{len(rules.tiles)} tiles, {len(rules.cards)} cards "
          f"({sum(c.copies for c in rules.cards)} in the decks), {len(rules.roles)} Roles"
          + (f", chapter {rules.chapter.id}" if rules.chapter else ""), file=out)
    return EXIT_OK


# -- until Defiance of Fate states its GameInfo (issue 16) -----------------------------
def register(subparsers: Any) -> None:
    """Add the ``defiance`` sub-command to ``infinite-referee``."""
    parser = subparsers.add_parser(
        "defiance", help="referee Infinities: Defiance of Fate (checks, health, hex map, points)",
        description="Referee a game of Infinities: Defiance of Fate from a record or typed "
                    "actions, citing the rulebook for every refusal.")
    parser.add_argument("--setup", type=Path, metavar="GAME.toml",
                        help="the game setup: mode, players, teams, settings "
                             "(default: the shipped two-player Quickplay)")
    for role in DATA_ROLES:
        parser.add_argument(f"--{role}", type=Path, metavar=f"{role.upper()}.toml",
                            help=f"the {role} data file (default: the shipped example set)")
    parser.add_argument("--players", metavar="A,B,...",
                        help="player names in seating order, replacing the setup's")
    parser.add_argument("--check", action="store_true",
                        help="check the setup and data files, print what they hold, and exit")
    add_common_arguments(parser)
    parser.set_defaults(run=run)


def gather_sources(args: argparse.Namespace) -> dict[str, tuple[str, str]]:
    """The setup and data sources the command line names, shipped defaults elsewhere.

    Raises:
        UnreadableInput: a named file cannot be read.
    """
    chosen = {"setup": args.setup, **{role: getattr(args, role) for role in DATA_ROLES}}
    return setup_sources(PACKAGE, {"setup": DEFAULT_SETUP, **DATA_FILES}, chosen)


def run(args: argparse.Namespace, out: IO[str] | None = None, err: IO[str] | None = None,
        stdin: IO[str] | None = None) -> int:
    """Run the sub-command; return the exit status (0 legal, 1 refused, 2 unreadable)."""
    out = out or sys.stdout
    err = err or sys.stderr
    options: dict[str, Any] = {}
    if args.players:
        options["players"] = [name.strip() for name in args.players.split(",") if name.strip()]
    try:
        sources = gather_sources(args)
    except UnreadableInput as error:
        print(f"error: {error}", file=err)
        return EXIT_UNREADABLE
    if args.check:
        return check(sources, options, out, err)
    return run_referee(GAME, args, sources, options, out=out, err=err, stdin=stdin)
