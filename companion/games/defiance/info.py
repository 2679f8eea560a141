"""What Defiance of Fate is, as data (:class:`~companion.games.info.GameInfo`).

Two to six players (the rulebook's cover); their names are written in the game setup file
and replaced by the new-game screen (``rename``) or by the ``players`` option. The setup
file and the five data files are read by :func:`~companion.games.defiance.setup.load_setup`;
the shipped setups are the example set's two-player Quickplay, three-player Skirmish and
team Skirmish.

Example:
    >>> INFO.players.minimum, INFO.players.maximum
    (2, 6)
    >>> [setup.name for setup in INFO.shipped]
    ['quickplay (2)', 'skirmish (3)', 'skirmish teams']
"""

from __future__ import annotations

from companion.games.defiance.data import MODES
from companion.games.defiance.rulebook import RULEBOOK
from companion.games.defiance.shipped import DATA_FILES, PACKAGE, shipped_roles
from companion.games.info import GameInfo, Parameter, Players, ShippedSetup, Source

MIN_PLAYERS = 2
MAX_PLAYERS = 6
"""Rulebook cover: 2-6 players."""

INFO = GameInfo(
    name="defiance",
    title="Infinities: Defiance of Fate",
    rulebook=RULEBOOK,
    players=Players(MIN_PLAYERS, MAX_PLAYERS, named="rename"),
    sources=(
        Source("setup", "the game setup: mode, players, teams, the two settings", required=True),
        Source("leaders", "the leader playmats (rulebook 2.1)"),
        Source("tiles", "the setting tiles, the Rift among them (rulebook 2.5)"),
        Source("cards", "the faction decks' cards (rulebook 2.4, 7)"),
        Source("roles", "the 18-card Roles deck (rulebook 1.1)"),
        Source("chapters", "the Adventure Guide's chapters (rulebook 1.2)"),
    ),
    parameters=(
        Parameter("mode", "skirmish (6 Roles, 10 rounds), quickplay (4 Roles, 6 rounds) or "
                          "adventure (a chapter's win conditions); default: the setup file's",
                  choices=MODES),
        Parameter("players", f"the players' names in seating order ({MIN_PLAYERS} to "
                             f"{MAX_PLAYERS}), replacing the setup file's", kind="names"),
        Parameter("teams", "play in the setup file's teams ([game.team]) or free-for-all; "
                           "default: the setup file's `teams`", kind="flag"),
    ),
    shipped=(
        ShippedSetup("quickplay (2)", shipped_roles("data/games/quickplay.toml")),
        ShippedSetup("skirmish (3)", shipped_roles("data/games/skirmish.toml")),
        ShippedSetup("skirmish teams", shipped_roles("data/games/skirmish-teams.toml")),
    ),
    package=PACKAGE,
    sounds={
        "turn_order": None, "dice_locked": None, "health_changed": None, "respawn": "chime",
        "points_scored": "chime", "game_over": None, "unit_destroyed": "knock",
        "nothing_healed": None, "turn_lost": "tick", "timeline_over_limit": "chime",
        "timeline_card_destroyed": None, "card_discarded": None, "card_stolen": "capture",
        "card_attached": None, "forced_move": None, "canceled": None,
    },
)
"""Defiance's players, files, options and shipped setups."""

__all__ = ["DATA_FILES", "INFO", "MAX_PLAYERS", "MIN_PLAYERS"]
