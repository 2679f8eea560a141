"""``infinite-referee``: the headless referee's entry point.

Every game the registry finds (:mod:`companion.games.registry`) has a sub-command named
after it, its flags generated from the game's :class:`~companion.games.info.GameInfo`
(:mod:`companion.cli.command`); what a game adds of its own lives in
``companion.cli.<package>``.

Example:
    $ infinite-referee infinifield --setup field.toml game.txt --json
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from companion.cli.command import add_game_command, has_info
from companion.games.registry import available_games, load_game


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every installed game's sub-command."""
    parser = argparse.ArgumentParser(
        prog="infinite-referee",
        description="Referee a tabletop game from a record or typed actions, citing the "
                    "rulebook for every refusal.")
    subparsers = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for name in available_games():
        game = load_game(name)
        if has_info(game):  # a test game without a GameInfo has no sub-command
            add_game_command(subparsers, game)
    return parser


EXIT_INTERRUPTED = 130
"""Ctrl-C (SIGINT), as a shell reports it."""
EXIT_BROKEN_PIPE = 141
"""The reader of standard output went away (``| head``), as a shell reports SIGPIPE."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the referee; returns the exit status.

    0 every action legal, 1 one refused, 2 unreadable input, 3 an action not recorded (disk
    full), 130 interrupted, 141 standard output closed. Ctrl-C and a closed output end the
    run with one sentence, never a traceback: every action accepted so far is already in the
    journal.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        journal = getattr(args, "journal", None)
        kept = f"; every accepted action is in {journal}" if journal else ""
        print(f"\ninterrupted{kept}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Python would complain again when flushing stdout at exit: point it at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return status


if __name__ == "__main__":
    sys.exit(main())
