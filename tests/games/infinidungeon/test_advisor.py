"""The reroll advisor: exact odds for every choice (issue 3, "The advisor")."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations, product

from companion.games.infinidungeon.advisor import (
    advise,
    best_reroll,
    fight_advice,
    fresh_roll_defeat,
    trap_advice,
)
from companion.games.infinidungeon.combat import assignments, defeated_by
from companion.games.infinidungeon.deck import Monster
from companion.games.infinidungeon.state import Phase
from tests.games.infinidungeon.helpers import DECK, at

CRYPT_ADVANCED = DECK.card("crypt").side("advanced").monsters   # wraith pair, ghoul 1-3
DEN_ADVANCED = DECK.card("den").side("advanced").monsters       # troll pair 5-6, wolf 3-4
DRAGON = DECK.card("throne").side("advanced").monsters


def _defeats_by_listing(monsters, dice) -> bool:
    """Independent check: some legal assignment defeats the room."""
    return any(defeated_by(monsters, pairs) for pairs in assignments(monsters, dice))


def _brute_force(monsters, rolled, chosen) -> Fraction:
    wins = 0
    for values in product(range(1, 7), repeat=len(chosen)):
        dice = list(rolled)
        for position, value in zip(chosen, values, strict=True):
            dice[position - 1] = value
        wins += _defeats_by_listing(monsters, dice)
    return Fraction(wins, 6 ** len(chosen))


def test_every_reroll_choice_gets_the_exact_probability_of_defeating_the_room() -> None:
    """infinidungeon.md "Facing the Room", Monster Room (roll, reroll any subset once,
    assign, pairs): the advisor's odds equal a count over every ordered outcome."""
    rng = random.Random(3)
    for monsters in (CRYPT_ADVANCED, DEN_ADVANCED, DRAGON):
        rolled = tuple(rng.randint(1, 6) for _ in range(4))
        advice = fight_advice(monsters, rolled)
        assert len(advice.choices) == 2 ** 4
        assert {c.reroll for c in advice.choices} == {
            chosen for size in range(5) for chosen in combinations(range(1, 5), size)}
        for choice in advice.choices:
            assert choice.defeat == _brute_force(monsters, rolled, choice.reroll), choice


def test_the_best_choice_has_the_highest_probability() -> None:
    """infinidungeon.md "Facing the Room", Boss Room: three equal dice; keep the pair."""
    advice = fight_advice(DRAGON, (4, 1, 4, 6, 2))
    assert advice.best.reroll == (2, 4, 5)
    # A third 4 among three fresh dice (91/216), or three equal fresh dice of another
    # value (5/216): 96/216.
    assert advice.best.defeat == Fraction(4, 9)
    assert all(advice.best.defeat >= c.defeat for c in advice.choices)
    won = fight_advice(DRAGON, (3, 3, 3, 1, 2))
    assert won.best.reroll == () and won.best.defeat == 1


def test_the_trap_advice_is_the_exact_distribution_of_dice_lost() -> None:
    """infinidungeon.md "Moving Room": lose the dice below the trap's face, never the last."""
    rolled = (1, 5, 3, 6)
    advice = trap_advice(4, rolled)
    for choice in advice.choices:
        counts = [0] * len(rolled)
        for values in product(range(1, 7), repeat=len(choice.reroll)):
            dice = list(rolled)
            for position, value in zip(choice.reroll, values, strict=True):
                dice[position - 1] = value
            counts[min(sum(v < 4 for v in dice), len(rolled) - 1)] += 1
        assert choice.losses == tuple(Fraction(c, 6 ** len(choice.reroll)) for c in counts)
        assert sum(choice.losses) == 1
    assert advice.best.reroll == (1, 3)  # reroll exactly the dice below the face
    assert advice.best.expected_loss == 1


def test_the_advice_follows_the_game_state() -> None:
    """infinidungeon.md "Moving Room" and "Facing the Room": odds for a roll at a trap or
    in a monster room, nothing once the dice are assigned."""
    fight = at("den", "advanced", phase=Phase.FIGHT_REROLL, rolled=(5, 2, 3, 1, 1), pile=("hall",))
    advice = advise(fight)
    assert advice is not None and advice.kind == "fight" and advice.dice == (5, 2, 3, 1, 1)
    trap = at("crypt", phase=Phase.TRAP_REROLL, rolled=(1, 2, 3), heading="east", pile=("hall",))
    trap_odds = advise(trap)
    assert trap_odds is not None and trap_odds.kind == "trap" and trap_odds.best.reroll == (1, 2)
    assert advise(at("den", phase=Phase.ASSIGN, rolled=(1, 1), pile=("hall",))) is None


def test_a_room_difficulty_from_a_fresh_roll() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: odds before the dice are rolled."""
    assert fresh_roll_defeat((Monster("any"),), 1) == 1
    # One die against a six-only bat: 1/6 at once, else 1/6 on the reroll.
    assert fresh_roll_defeat((Monster("bat", (6,)),), 1) == Fraction(11, 36)


def test_the_simulator_shortcut_picks_the_same_best_choice() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: the policy rerolls as advised."""
    rng = random.Random(8)
    for monsters in (CRYPT_ADVANCED, DEN_ADVANCED, DRAGON):
        for _ in range(40):
            rolled = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 5)))
            assert best_reroll(monsters, rolled) == fight_advice(monsters, rolled).best.reroll
