"""Whole games played on the advisor's policy, for a win rate with a confidence interval.

The policy: reroll as the advisor says (monster rooms, boss, traps); assign dice to defeat
every monster whenever the roll allows it; use a kept treasure vault once two or more dice
are lost; choose doorways at random among the open ones, preferring untrapped ones.

Example:
    >>> import random
    >>> from companion.resources import shipped_text
    >>> from companion.games.infinidungeon.setup import deck_from_toml
    >>> deck = deck_from_toml("d", shipped_text("companion.games.infinidungeon",
    ...                                         "decks/default.toml"))
    >>> report = simulate(deck, 20, random.Random(7))
    >>> report.games, 0 <= report.low <= report.rate <= report.high <= 1
    (20, True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from math import sqrt
from typing import TYPE_CHECKING

from companion.games.infinidungeon.actions import Action, Assign, Go, Reroll, Vault
from companion.games.infinidungeon.advisor import advise, best_reroll
from companion.games.infinidungeon.combat import assignments, defeated_by
from companion.games.infinidungeon.deck import Deck
from companion.games.infinidungeon.game import GAME
from companion.games.infinidungeon.state import DungeonState, Phase, Result

if TYPE_CHECKING:  # pragma: no cover
    import random

Z95 = 1.959963984540054
MAX_ACTIONS = 5000


def policy_action(state: DungeonState, rng: random.Random) -> Action:
    """The advisor policy's choice for the player in ``state``."""
    if state.phase == Phase.FIGHT_REROLL:
        return Reroll(best_reroll(state.side.monsters, state.rolled))
    if state.phase == Phase.TRAP_REROLL:
        advice = advise(state)
        assert advice is not None
        return Reroll(advice.best.reroll)
    if state.phase == Phase.ASSIGN:
        monsters = state.side.monsters
        options = assignments(monsters, state.rolled)
        return Assign(max(options, key=lambda pairs: (defeated_by(monsters, pairs),
                                                      len({name for _, name in pairs}))))
    if state.phase == Phase.VAULT:
        return Vault(state.dice <= 3)
    if state.phase == Phase.MOVE:
        ways = [action for action in GAME.legal_actions(state) if isinstance(action, Go)]
        safe = [go for go in ways if _untrapped(state, go.direction)]
        return rng.choice(safe or ways)
    raise ValueError(f"no player decision in phase {state.phase}")


def _untrapped(state: DungeonState, direction: str) -> bool:
    doorway = state.side.doorway(direction)
    return doorway is not None and doorway.trap is None


def play_game(deck: Deck, rng: random.Random,
              record: list[Action] | None = None) -> DungeonState:
    """Play one whole game on the advisor's policy; returns the final state.

    Args:
        deck: the cards.
        rng: the dice and shuffles (and the policy's choice among doorways).
        record: if given, every action played is appended to it.
    """
    state = GAME.initial_state(deck)
    for _ in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            return state
        action = GAME.sample_chance(state, rng) if GAME.is_chance(state) \
            else policy_action(state, rng)
        state = GAME.apply(state, action).state
        if record is not None:
            record.append(action)
    raise RuntimeError(f"a simulated game did not end within {MAX_ACTIONS} actions")


@dataclass(frozen=True)
class SimulationReport:
    """Win rate over simulated games with a 95% Wilson score interval.

    Attributes:
        games: games played.
        wins: games won.
        low: lower end of the 95% interval of the win rate.
        high: upper end.
        terminations: how the games ended, counted.
        actions: actions played in all (rolls and shuffles included).
    """

    games: int
    wins: int
    low: float
    high: float
    terminations: dict[str, int] = field(default_factory=dict)
    actions: int = 0

    @property
    def rate(self) -> float:
        """The observed win rate."""
        return self.wins / self.games if self.games else 0.0

    def describe(self) -> str:
        """One line for the command line."""
        ends = ", ".join(f"{name} {count}" for name, count in sorted(self.terminations.items()))
        length = self.actions / self.games if self.games else 0.0
        return (f"{self.games} games, {self.wins} won: win rate {self.rate:.4f} "
                f"(95% CI {self.low:.4f}-{self.high:.4f}); endings: {ends}; "
                f"{length:.1f} actions per game")


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Example:
        >>> [round(x, 4) for x in wilson_interval(50, 100)]
        [0.4038, 0.5962]
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def simulate(deck: Deck, games: int, rng: random.Random) -> SimulationReport:
    """Play ``games`` whole games on the advisor's policy with ``rng``.

    Example: see the module docstring (``simulate(deck, 20, random.Random(7))``).
    """
    endings: Counter[str] = Counter()
    wins = actions = 0
    for _ in range(games):
        record: list[Action] = []
        final = play_game(deck, rng, record)
        assert final.termination is not None, "play_game plays to the end"
        endings[final.termination.value] += 1
        wins += final.result == Result.VICTORY
        actions += len(record)
    low, high = wilson_interval(wins, games)
    return SimulationReport(games, wins, low, high, dict(endings), actions)
