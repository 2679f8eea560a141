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
from typing import IO, Any

from companion.cli.command import Command
from companion.cli.referee import EXIT_OK
from companion.games.defiance import GAME

HELP = "referee Infinities: Defiance of Fate (checks, health, hex map, points)"


def extend(parser: argparse.ArgumentParser) -> None:
    """Defiance's own flag: ``--check`` the setup and data files."""
    parser.add_argument("--check", action="store_true",
                        help="check the setup and data files, print what they hold, and exit")


def handle(command: Command) -> int:
    """Check the files (``--check``), else referee."""
    if command.args.check:
        return check(command.sources, command.options, command.out)
    return command.referee()


def check(sources: dict[str, tuple[str, str]], options: dict[str, Any], out: IO[str]) -> int:
    """Load and check every file; print a summary (status 0).

    Raises:
        SetupError: the first problem (the command reports it, status 2).
    """
    rules = GAME.load_setup(sources, options)
    print(f"ok: {rules.mode}{' (teams)' if rules.teams_mode else ''}, "
          f"{len(rules.players)} players, {len(rules.leaders)} leaders, "
          f"{len(rules.tiles)} tiles, {len(rules.cards)} cards "
          f"({sum(c.copies for c in rules.cards)} in the decks), {len(rules.roles)} Roles"
          + (f", chapter {rules.chapter.id}" if rules.chapter else ""), file=out)
    return EXIT_OK

