"""Make the app offer the small Countdown test game (tests/support/countdown.py).

Countdown has chance (a d6 each turn), refusals with rules and an outcome in a handful of
actions: the generic parts of the app (roll, physical entry, undo, banner) are checked on it
before and besides the real games. The registration is undone afterwards, so tests that run
later in the same process see only the real games.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.app.game_setups import SETUPS, GameSetup, PlayerRange, register_setup
from companion.games import registry


def register_countdown() -> Callable[[], None]:
    """Register the game and its setup; return what undoes it (a no-op if already there)."""
    from tests.support.countdown import register

    had_game = "countdown" in registry.GAME_MODULES
    had_setup = "countdown" in SETUPS
    register()
    register_setup(GameSetup("countdown", "tests.app.data",
                             {"pile of 7": {"setup": "countdown.toml"}},
                             PlayerRange(2, 2, ("Ann", "Bea"))))

    def undo() -> None:
        if not had_game:
            registry.GAME_MODULES.pop("countdown", None)
        if not had_setup:
            SETUPS.pop("countdown", None)

    return undo
