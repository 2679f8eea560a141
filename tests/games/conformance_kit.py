"""What a game's test folder declares to join the generic conformance test.

Each ``tests/games/<game>/conformance.py`` defines ``CASES: list[ConformanceCase]``;
``tests/games/test_conformance.py`` finds them all and runs the same checks on every game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.core import Game

IllegalSampler = Callable[[Any, list[Any]], Iterable[Any]]
"""``(state, actions seen so far in the playout) -> candidate actions that must be refused``."""


@dataclass
class ConformanceCase:
    """One game setup to play out at random.

    Attributes:
        name: shown in the test id.
        game: the engine.
        sources: role -> (name, TOML text), as :meth:`Game.load_setup` takes them.
        options: players, mode and the like.
        playouts: how many seeded random games to play to the end.
        max_actions: a playout longer than this fails (the game must end).
        illegal_samples: extra actions that must be refused in a state; by default the
            actions seen earlier in the playout that are not legal now are tried.
        check_every_legal: apply every listed action (else a random sample of 25).
    """

    name: str
    game: Game[Any, Any, Any]
    sources: Mapping[str, tuple[str, str]]
    options: Mapping[str, Any] = field(default_factory=dict)
    playouts: int = 20
    max_actions: int = 3000
    illegal_samples: IllegalSampler | None = None
    check_every_legal: bool = True
