"""``infinite-referee 401``: referee a game of 401 Infinite, or check board and card files.

Examples:
    $ infinite-referee 401 game.txt
    $ infinite-referee 401 --board my-board.toml --cards my-cards.toml --check
    $ echo "flip blue" | infinite-referee 401 --start quick --seed 3 --legal --json

Without ``--board``/``--cards`` the shipped default board and cards are used
(``docs/401-infinite.md`` describes both formats and the notation).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
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
from companion.games.infinite401 import GAME
from companion.games.infinite401.board import SIDES, Space, space_name
from companion.games.infinite401.render import position, render
from companion.games.infinite401.setup import STARTS
from companion.session import Session, Verdict

PACKAGE = "companion.games.infinite401"
DEFAULT_BOARD = "boards/default.toml"
DEFAULT_CARDS = "cards/default.toml"


HELP = "referee 401 Infinite (units' HP, cards, ranges and lines)"


def extend(parser: argparse.ArgumentParser) -> None:
    """401's own flags: ``--show`` the position after each action, ``--check`` the files."""
    parser.add_argument("--show", action="store_true",
                        help="after each accepted action, print the board, HP and cards")
    parser.add_argument("--check", action="store_true",
                        help="check the board and card files, print a summary and exit")


def handle(command: Command) -> int:
    """Check the files (``--check``), else referee, showing the position if asked."""
    args = command.args
    if args.check:
        start = command.info.parameter("start").choices[0]  # the default start
        return check(command.sources, {"start": start, **command.options}, args.json,
                     command.out, command.err)

    def show(session: Session, verdict: Verdict) -> dict[str, Any]:
        if not verdict.legal:
            return {}
        if args.json:  # the position without the setup files' texts
            return {"position": position(session.state)}
        return {"position": render(session.state).splitlines()}

    return command.referee(annotate=show if args.show else None)


def check(sources: dict[str, tuple[str, str]], options: dict[str, Any], as_json: bool,
          out: IO[str], err: IO[str]) -> int:
    """Check the board and card files; 0 when both can be used, 2 otherwise (naming why)."""
    try:
        setup = GAME.load_setup(sources, options)
    except SetupError as error:
        print(f"error: {error}", file=err)
        return EXIT_UNREADABLE
    board, cards = setup.board, setup.cards
    spawners = sorted(_names(board.spawners))
    summary: dict[str, Any] = {
        "board": sources["board"][0], "name": board.name,
        "size": [board.width, board.height], "walls": len(board.walls),
        "spawners": spawners,
        "bases": {side: sorted(_names(spaces)) for side, spaces in board.bases.items()},
        "cards": sources["cards"][0],
        "decks": {side: list(cards.deck(side)) for side in SIDES},
        "passives": {side: list(cards.passives_of(side)) for side in SIDES},
        "valid": True}
    if as_json:
        print(json.dumps(summary), file=out)
    else:
        print(f"{summary['board']}: {board.name}, {board.width}x{board.height}, "
              f"{len(board.walls)} walls, spawners {' '.join(spawners)}", file=out)
        print(f"{summary['cards']}: {len(cards.abilities)} ability cards, "
              f"{len(cards.passives)} passives; usable for the {options['start']} start",
              file=out)
    return EXIT_OK


def _names(spaces: Iterable[Space]) -> list[str]:
    return [space_name(s) for s in spaces]


# -- until 401 Infinite states its GameInfo (issue 16) ---------------------------------
def register(subparsers: Any) -> None:
    """Add the ``401`` sub-command to ``infinite-referee``."""
    parser = subparsers.add_parser(
        "401", help="referee 401 Infinite (units' HP, cards, ranges and lines)",
        description="Referee a game of 401 Infinite from a record or typed actions "
                    "(move/play/cycle/end/score, shuffle/flip at the start), or check board "
                    "and card files with --check.")
    parser.add_argument("--board", type=Path, metavar="BOARD.toml",
                        help="the board file (default: the shipped default board)")
    parser.add_argument("--cards", type=Path, metavar="CARDS.toml",
                        help="the ability cards and passives (default: the shipped set)")
    add_common_arguments(parser)
    parser.add_argument("--start", choices=STARTS, default="quick",
                        help="Quick Start (default) or Competitor's Start")
    parser.add_argument("--turn-limit", type=int, metavar="N",
                        help="declare a draw after N turns (a companion option, not a rule)")
    parser.add_argument("--show", action="store_true",
                        help="after each accepted action, print the board, HP and cards")
    parser.add_argument("--check", action="store_true",
                        help="check the board and card files, print a summary and exit")
    parser.set_defaults(run=run)


def sources_from(args: argparse.Namespace) -> dict[str, tuple[str, str]]:
    """``{"board": ..., "cards": ...}`` from the flags, else the shipped files.

    Raises:
        UnreadableInput: a file cannot be read.
    """
    return setup_sources(PACKAGE, {"board": DEFAULT_BOARD, "cards": DEFAULT_CARDS},
                         {"board": args.board, "cards": args.cards})


def options_from(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line.

    Example:
        >>> options_from(argparse.Namespace(start="competitor", turn_limit=None))
        {'start': 'competitor'}
    """
    options: dict[str, Any] = {"start": args.start}
    if args.turn_limit is not None:
        options["turn_limit"] = args.turn_limit
    return options


def run(args: argparse.Namespace, out: IO[str] | None = None, err: IO[str] | None = None,
        stdin: IO[str] | None = None) -> int:
    """Run the sub-command; return the exit status (0 legal/valid, 1 refused, 2 unreadable)."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        sources = sources_from(args)
    except UnreadableInput as error:
        print(f"error: {error}", file=err)
        return EXIT_UNREADABLE
    if args.check:
        return check(sources, options_from(args), args.json, out, err)

    def show(session: Session, verdict: Verdict) -> dict[str, Any]:
        if not verdict.legal:
            return {}
        if args.json:  # the position without the setup files' texts
            return {"position": position(session.state)}
        return {"position": render(session.state).splitlines()}

    return run_referee(GAME, args, sources, options_from(args),
                       annotate=show if args.show else None, out=out, err=err, stdin=stdin)
