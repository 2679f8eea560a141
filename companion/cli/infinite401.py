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
from collections.abc import Iterable
from typing import IO, Any

from companion.cli.command import Command
from companion.cli.referee import EXIT_OK
from companion.games.infinite401 import GAME
from companion.games.infinite401.board import SIDES, Space, space_name
from companion.games.infinite401.render import position, render
from companion.session import Session, Verdict

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
                     command.out)

    def show(session: Session, verdict: Verdict) -> dict[str, Any]:
        if not verdict.legal:
            return {}
        if args.json:  # the position without the setup files' texts
            return {"position": position(session.state)}
        return {"position": render(session.state).splitlines()}

    return command.referee(annotate=show if args.show else None)


def check(sources: dict[str, tuple[str, str]], options: dict[str, Any], as_json: bool,
          out: IO[str]) -> int:
    """Check the board and card files; 0 when both can be used.

    Raises:
        SetupError: naming what is wrong (the command reports it, status 2).
    """
    setup = GAME.load_setup(sources, options)
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
