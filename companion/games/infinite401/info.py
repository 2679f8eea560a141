"""401 Infinite's facts, stated once: two sides, a board and a card file, two options.

The command line's flags and the app's new-game screen are built from :data:`INFO`, and
:meth:`~companion.games.info.GameInfo.check_options` checks a game's options against it.

Example:
    >>> INFO.players.minimum, INFO.players.maximum, INFO.players.seats
    (2, 2, ('red', 'blue'))
    >>> INFO.parameter("start").choices
    ('quick', 'competitor')
    >>> dict(INFO.shipped_setup("short game (4 turns)").options)
    {'turn_limit': 4}
"""

from __future__ import annotations

from companion.games.infinite401.rulebook import RULEBOOK
from companion.games.info import GameInfo, Parameter, Players, ShippedSetup, Source

PACKAGE = "companion.games.infinite401"
DEFAULT_FILES = {"board": "boards/default.toml", "cards": "cards/default.toml"}
"""The shipped board and card set (``docs/401-infinite.md`` "Board files", "Card files")."""

INFO = GameInfo(
    name="401",
    title="401 Infinite",
    rulebook=RULEBOOK,
    players=Players(2, 2, named="seats", seats=("red", "blue")),
    sources=(Source("board", "the board: an ASCII map of walls, spawners and bases, and each "
                             "unit's starting space (TOML; default: the shipped board)"),
             Source("cards", "the ability cards and passives (TOML; default: the shipped "
                             "set)")),
    parameters=(Parameter("start", "Quick Start (default) or Competitor's Start",
                          choices=("quick", "competitor"), default="quick", offered=True),
                Parameter("turn_limit", "declare a draw after N turns (a companion option, "
                                        "not a rule)", kind="whole", minimum=1)),
    shipped=(ShippedSetup("quick start", DEFAULT_FILES),
             ShippedSetup("short game (4 turns)", DEFAULT_FILES, {"turn_limit": 4})),
    package=PACKAGE,
    sounds={
        "hp_changed": None, "unit_eliminated": "knock", "hp_token_collected": "chime",
        "hp_token_removed": None, "runner_scored": "chime",
    },
)
"""Two sides (Red and Blue, no player names in the engine), the board and the cards."""
