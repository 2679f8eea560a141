"""Infinidungeon advisor benchmark: exact enumeration against a Monte Carlo baseline.

For the hardest room of the deck (lowest chance to defeat it from a fresh five-dice roll),
times one reroll decision (all 32 choices) computed exactly, cold (every memo cleared) and
warm, and the same decision estimated by Monte Carlo with 100,000 samples per choice (the
named baseline), then prints both times, the ratio and the largest probability difference.
Then times the whole-game simulator (games per second) against random play.

Usage:
    .venv/bin/python bench/dungeon_advisor.py [--deck DECK.toml] [--samples 100000]
        [--rolls 3] [--games 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations
from pathlib import Path

from companion.games.infinidungeon import GAME, advisor, combat
from companion.games.infinidungeon.deck import Deck, Monster
from companion.games.infinidungeon.setup import deck_from_toml
from companion.games.infinidungeon.simulate import simulate, wilson_interval
from companion.resources import shipped_text

DICE = 5


def _clear_memos() -> None:
    combat.can_defeat.cache_clear()
    advisor._winning_weight.cache_clear()
    advisor._sorted_roll_table.cache_clear()
    advisor.outcomes.cache_clear()


def hardest_room(deck: Deck) -> tuple[str, str, tuple[Monster, ...], float]:
    rooms = [(card.id, side, card.side(side).monsters)
             for card in deck.cards for side in ("basic", "advanced")
             if card.side(side).monsters and (side == "basic" or card.advanced is not None)]
    scored = [(float(advisor.fresh_roll_defeat(monsters, DICE)), card, side, monsters)
              for card, side, monsters in rooms]
    chance, card, side, monsters = min(scored, key=lambda entry: entry[0])
    return card, side, monsters, chance


def monte_carlo(monsters: tuple[Monster, ...], rolled: tuple[int, ...], samples: int,
                rng: random.Random) -> dict[tuple[int, ...], float]:
    key = combat.monsters_key(monsters)
    faces = range(1, 7)
    estimates = {}
    for size in range(len(rolled) + 1):
        for chosen in _choices(len(rolled), size):
            kept = [v for i, v in enumerate(rolled, 1) if i not in chosen]
            wins = 0
            for _ in range(samples):
                wins += combat.can_defeat(key, tuple(sorted(kept + rng.choices(faces, k=size))))
            estimates[chosen] = wins / samples
    return estimates


def _choices(count: int, size: int) -> list[tuple[int, ...]]:
    return list(combinations(range(1, count + 1), size))


def bench_advisor(deck: Deck, samples: int, rolls: int, rng: random.Random) -> None:
    card, side, monsters, chance = hardest_room(deck)
    names = ", ".join(f"{m.name}{' (boss)' if m.boss else ' (pair)' if m.dice == 2 else ''}"
                      for m in monsters)
    print(f"hardest room: {card} ({side}): {names}; P(defeat from a fresh roll of 5, "
          f"advised) = {chance:.4f}")
    exact_cold = exact_warm = carlo = 0.0
    worst = 0.0
    for _ in range(rolls):
        rolled = tuple(rng.randint(1, 6) for _ in range(DICE))
        _clear_memos()
        started = time.perf_counter()
        advice = advisor.fight_advice(monsters, rolled)
        exact_cold += time.perf_counter() - started
        advisor._sorted_roll_table.cache_clear()
        started = time.perf_counter()
        advisor.fight_advice(monsters, rolled)
        exact_warm += time.perf_counter() - started
        started = time.perf_counter()
        estimates = monte_carlo(monsters, rolled, samples, rng)
        carlo += time.perf_counter() - started
        difference = max(abs(float(c.defeat or 0) - estimates[c.reroll])
                         for c in advice.choices)
        worst = max(worst, difference)
        print(f"  roll {' '.join(map(str, rolled))}: best {advice.best.describe()}; "
              f"largest |exact - MC| over 32 choices = {difference:.5f}")
    cold, warm, mc = exact_cold / rolls, exact_warm / rolls, carlo / rolls
    print(f"exact advisor, cold memo : {cold * 1e3:9.3f} ms per decision (32 choices)")
    print(f"exact advisor, warm memo : {warm * 1e3:9.3f} ms per decision")
    print(f"Monte Carlo baseline     : {mc * 1e3:9.1f} ms per decision "
          f"({samples:,} samples per choice)")
    print(f"ratio MC / exact (cold)  : {mc / cold:9.1f}x   (target >= 10x)")
    print(f"ratio MC / exact (warm)  : {mc / warm:9.1f}x")
    print(f"largest probability difference (exact vs MC): {worst:.5f}")


def bench_simulator(deck: Deck, games: int, seed: int) -> None:
    started = time.perf_counter()
    report = simulate(deck, games, random.Random(seed))
    advised = time.perf_counter() - started
    rng = random.Random(seed)
    started = time.perf_counter()
    wins = actions = 0
    for _ in range(games):
        state = GAME.initial_state(deck)
        while GAME.outcome(state) is None:
            action = GAME.sample_chance(state, rng) if GAME.is_chance(state) \
                else rng.choice(list(GAME.legal_actions(state)))
            state = GAME.apply(state, action).state
            actions += 1
        wins += state.result == "victory"
    plain = time.perf_counter() - started
    low, high = wilson_interval(wins, games)
    print(f"simulator, advisor policy: {games / advised:8.0f} games/s, "
          f"{report.actions / advised:8.0f} actions/s; {report.describe()}")
    print(f"baseline, random play    : {games / plain:8.0f} games/s, {actions / plain:8.0f} "
          f"actions/s; win rate {wins / games:.4f} (95% CI {low:.4f}-{high:.4f}); "
          f"{actions / games:.1f} actions per game")
    print(f"ratio advisor policy / random play: games/s {plain / advised:.2f}x, actions/s "
          f"{(report.actions / advised) / (actions / plain):.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", type=Path)
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--rolls", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    text = args.deck.read_text() if args.deck else \
        shipped_text("companion.games.infinidungeon", "decks/default.toml")
    deck = deck_from_toml(str(args.deck or "default.toml"), text)
    bench_advisor(deck, args.samples, args.rolls, random.Random(args.seed))
    bench_simulator(deck, args.games, args.seed)


if __name__ == "__main__":
    main()
