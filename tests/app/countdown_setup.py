"""Make the app offer the small Countdown test game (tests/support/countdown.py).

Countdown has chance (a d6 each turn), refusals with rules and an outcome in a handful of
actions: the generic parts of the app (roll, physical entry, undo, banner) are checked on it
before and besides the real games.
"""

from __future__ import annotations

from companion.app.game_setups import GameSetup, PlayerRange, register_setup


def register_countdown() -> None:
    from tests.support.countdown import register

    register()
    register_setup(GameSetup("countdown", "tests.app.data", {"pile of 7": {"setup":
                                                                           "countdown.toml"}},
                             PlayerRange(2, 2, ("Ann", "Bea"))))
