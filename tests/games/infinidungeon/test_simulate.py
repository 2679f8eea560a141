"""Whole games on the advisor's policy (issue 3, "The advisor": simulator)."""

from __future__ import annotations

import random

import pytest

from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.simulate import play_game, simulate, wilson_interval
from tests.games.infinidungeon.helpers import DECK


def test_simulated_games_end_in_victory_or_defeat_and_replay() -> None:
    """infinidungeon.md "Winning or Losing": every game ends by the boss or the last die."""
    report = simulate(DECK, 30, random.Random(11))
    assert report.games == 30 and sum(report.terminations.values()) == 30
    assert set(report.terminations) <= {"boss_defeated", "last_die_lost", "dead_end"}
    assert report.wins == report.terminations.get("boss_defeated", 0)
    assert report.low <= report.rate <= report.high
    assert simulate(DECK, 30, random.Random(11)) == report, "a seed replays the same games"


def test_the_policy_wins_more_often_than_random_play() -> None:
    """infinidungeon.md "Facing the Room": rerolling as the advisor says beats choosing at
    random (the win rates' intervals do not overlap)."""
    advised = simulate(DECK, 150, random.Random(5))
    rng = random.Random(5)
    random_wins = 0
    for _ in range(150):
        state = GAME.initial_state(DECK)
        while GAME.outcome(state) is None:
            action = GAME.sample_chance(state, rng) if GAME.is_chance(state) \
                else rng.choice(list(GAME.legal_actions(state)))
            state = GAME.apply(state, action).state
        random_wins += state.result == "victory"
    _, high = wilson_interval(random_wins, 150)
    assert advised.low > high


def test_one_game_is_a_state_the_engine_accepts() -> None:
    """infinidungeon.md "Winning or Losing": the final state has an outcome."""
    final = play_game(DECK, random.Random(2))
    assert GAME.outcome(final) is not None


@pytest.mark.parametrize(("wins", "games", "low", "high"), [
    (50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0)])
def test_the_confidence_interval_is_wilsons(wins: int, games: int, low: float,
                                            high: float) -> None:
    """Issue 3: the win rate comes with a 95% confidence interval (Wilson score)."""
    assert wilson_interval(wins, games) == (pytest.approx(low, abs=1e-4),
                                            pytest.approx(high, abs=1e-4))
