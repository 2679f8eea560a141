"""Infinifield's facts, stated once: players, the field file, the options, the shipped fields.

The command line's flags, the app's new-game screen and the one check of the options
(:meth:`~companion.games.info.GameInfo.check_options`) are built from :data:`INFO`; the same
names are the keys of a field file's ``[match]`` table.

Example:
    >>> INFO.players.minimum, INFO.players.maximum
    (2, 4)
    >>> INFO.option_names()
    ['builder', 'mode', 'players', 'rounds', 'scoring', 'target']
    >>> [setup.name for setup in INFO.shipped]
    ['quickstart', 'official', 'castle (3D)']
"""

from __future__ import annotations

from companion.games.infinifield.field_rules import MODES
from companion.games.infinifield.rulebook import RULEBOOK
from companion.games.infinifield.state import SCORINGS
from companion.games.info import GameInfo, Parameter, Players, ShippedSetup, Source

SETUP_ROLE = "setup"
"""The role of the field file in the sources given to ``load_setup``."""

INFO = GameInfo(
    name="infinifield",
    title="Infinifield",
    rulebook=RULEBOOK,
    players=Players(2, 4, named="option"),
    sources=(Source(SETUP_ROLE, "the field file: the blocks as laid out, and an optional "
                                "[match] table of defaults for the options"),),
    parameters=(
        Parameter("players", "player names in clockwise seating order, comma-separated "
                             "(e.g. Ann,Ben,Cat)", kind="names"),
        Parameter("builder", "the first field builder (default: the first player)",
                  kind="text"),
        Parameter("mode", "field-building rules to enforce (default: the field file's, else "
                          "quickstart)", choices=MODES),
        Parameter("scoring", "points (10 per capture + blocks left) or rounds won",
                  choices=SCORINGS, offered=True),
        Parameter("rounds", "play this many rounds, 1 or more (default: one per player)",
                  kind="whole"),
        Parameter("target", "play until a player reaches this many points, 1 or more "
                            "(e.g. 500; points scoring)", kind="whole"),
    ),
    shipped=(
        ShippedSetup("quickstart", {SETUP_ROLE: "fields/quickstart.toml"}),
        ShippedSetup("official", {SETUP_ROLE: "fields/official.toml"}),
        ShippedSetup("castle (3D)", {SETUP_ROLE: "fields/castle3d.toml"}),
    ),
    package="companion.games.infinifield",
    sounds={
        "counter_advanced": "tick", "removal_due": "removal_due", "block_removed": None,
        "capture": "capture", "eliminated": "knock", "round_over": "chime", "match_over": None,
        "field_rebuilt": None,
    },
)
"""What the registry, the command line and the new-game screen know of Infinifield."""
