"""What Infinity is, as data: two players, two setup files, no options, one shipped setup.

The players' names are the ones the armies file gives each ``[[armies]]`` entry
(``named="rename"``: the app writes the chosen names into that file); the armies file decides
the Army Points, the Game Rounds and who goes first, so the game takes no options.

Example:
    >>> INFO.players.minimum, INFO.players.maximum, INFO.players.named
    (2, 2, 'rename')
    >>> [source.role for source in INFO.sources], INFO.shipped[0].name
    (['setup', 'profiles'], 'example armies')
"""

from __future__ import annotations

from companion.games.info import GameInfo, Players, ShippedSetup, Source

from .rulebook import RULEBOOK

INFO = GameInfo(
    name="infinity",
    title="Infinity (N3 introductory rules)",
    rulebook=RULEBOOK,
    players=Players(2, 2, named="rename"),
    sources=(
        Source("setup", "the armies: Army Points, Game Rounds, who goes first and both Army "
                        "Lists (docs/infinity.md)"),
        Source("profiles", "troop profiles and weapons (docs/infinity.md \"Profile data\")"),
    ),
    parameters=(),
    shipped=(
        ShippedSetup("example armies", {"setup": "armies/example.toml",
                                        "profiles": "profiles/default.toml"}),
    ),
    package="companion.games.infinity",
    sounds={
        "roll": None, "hit": None, "critical": None, "wound": "knock",
        "trooper_removed": "knock", "turn_changed": "tick", "round_changed": "tick",
    },
)
"""Infinity's facts (infinity-n3-intro.md "INFINITY: GAME SUMMARY": two players, each with
an Army List within the Army Points agreed)."""
