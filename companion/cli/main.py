"""``infinite-referee``: the headless referee's entry point.

Each game's command lives in its own module of this package (``companion.cli.<module>``),
exposing ``register(subparsers)``; a game whose module is not installed is simply absent.

Example:
    $ infinite-referee infinifield --setup field.toml game.txt --json
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = ("infinifield", "infinidungeon", "infinite401", "infinity", "defiance")
"""Modules of :mod:`companion.cli` that each add one game's sub-command."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every installed game's sub-command."""
    parser = argparse.ArgumentParser(
        prog="infinite-referee",
        description="Referee a tabletop game from a record or typed actions, citing the "
                    "rulebook for every refusal.")
    subparsers = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"companion.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"companion.cli.{name}":
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the referee; returns the exit status (0 legal, 1 refused, 2 unreadable)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
