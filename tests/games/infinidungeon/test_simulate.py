"""Whole games on the advisor's policy (issue 3, "The advisor": simulator)."""

from __future__ import annotations

import random

import pytest

from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.simulate import play_game, simulate, wilson_interval
from companion.session import Session
from tests.games.infinidungeon.helpers import DECK, SOURCES


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


def test_a_won_game_through_the_fourth_crystal_replays_from_its_journal(tmp_path) -> None:
    """infinidungeon.md "Flipping Rooms" and "Winning or Losing": a whole game, four crystals,
    the reshuffle and the boss, typed back as text through a journal, resumes identically."""
    rng = random.Random(0)
    for _ in range(50):
        record: list = []
        final = play_game(DECK, rng, record)
        texts = [str(action) for action in record]
        if final.result == "victory" and any(t.startswith("shuffle") for t in texts[1:]):
            break
    else:
        pytest.fail("no won game through the reshuffle in 50 seeded games")
    journal = tmp_path / "won.journal"
    with Session.new(GAME, SOURCES, {}, seed=1, journal_path=journal) as session:
        verdicts = [session.propose(text) for text in texts]
    assert all(verdict.legal for verdict in verdicts)
    events = [event.kind for verdict in verdicts for event in verdict.events]
    assert events.count("crystal") == 4 and events.count("deck_reshuffled") == 1
    assert events[-1] == "victory"
    with Session.resume(journal) as resumed:
        assert resumed.state == final and resumed.finished
