"""Infinidungeon's facts, stated once: one player, the room deck, no options, the shipped deck.

The command line's flags and the app's new-game screen are built from :data:`INFO`.

Example:
    >>> INFO.players.minimum, INFO.players.maximum, INFO.players.named
    (1, 1, 'none')
    >>> INFO.shipped_setup("default deck").files["deck"]
    'decks/default.toml'
"""

from __future__ import annotations

from companion.games.infinidungeon.rulebook import RULEBOOK
from companion.games.info import GameInfo, Players, ShippedSetup, Source

INFO = GameInfo(
    name="infinidungeon",
    title="Infinidungeon",
    rulebook=RULEBOOK,
    players=Players(1, 1, named="none"),
    sources=(Source("deck", "the room deck: the Entrance and 8 room cards, each side's "
                            "symbol, doorways, traps and monsters"),),
    parameters=(),
    shipped=(ShippedSetup("default deck", {"deck": "decks/default.toml"}),),
    package="companion.games.infinidungeon",
    sounds={
        "trap_sprung": "trap_sprung", "die_lost": "knock", "die_regained": "chime",
        "room_flipped": None, "crystal": "chime", "deck_reshuffled": None,
    },
)
"""The solo dungeon: the room deck decides everything, so the game takes no options."""
