"""Exact odds of a declared exchange (issue 5 "Exact odds"), checked against a brute-force
enumeration of every roll resolved by the engine's own Face to Face rules, and against
values worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.games.infinity.odds import Side, brute_force_odds, exchange_odds

TARGETS = (-2, 0, 1, 7, 13, 20, 21, 25)


@pytest.mark.parametrize("burst", [1, 2])
@pytest.mark.parametrize("active_target", TARGETS)
def test_fast_odds_equal_brute_force_for_burst_1_and_2(burst: int, active_target: int) -> None:
    """infinity-n3-intro.md "Rolls" (third edition) Face to Face, "ARMOR AND DAMAGE": the closed
    form equals the enumeration of all 20^(B+1) rolls, for targets <= 0, inside 1-20 and above
    20, opposed by attacks, a Dodge and no roll at all."""
    reactives = [None, Side(0, 0, None, 3)] + [Side(t, 1, 13, 2) for t in TARGETS] \
        + [Side(11, 1, None, 1)]
    active = Side(active_target, burst, 13, 1)
    for reactive in reactives:
        assert exchange_odds(active, reactive) == brute_force_odds(active, reactive), reactive


@pytest.mark.parametrize(("active", "reactive"), [
    (Side(15, 3, 13, 1), Side(12, 1, 13, 4)),
    (Side(23, 3, 14, 0), Side(22, 1, 12, 8)),
])
def test_fast_odds_equal_brute_force_for_burst_3(active: Side, reactive: Side) -> None:
    """infinity-n3-intro.md "BS Attack Roll and Burst": a Burst 3 active roll against one reactive
    die, all 160,000 rolls enumerated."""
    assert exchange_odds(active, reactive) == brute_force_odds(active, reactive)


def test_equal_attributes_burst_1_by_hand() -> None:
    """infinity-n3-intro.md "Rolls" Face to Face, worked by hand for 10 against 10: both fail 1/4;
    the same success on both dice (10 of 400 rolls, Criticals included) cancels; the rest splits
    evenly: nobody 27.50%, each side 36.25%."""
    odds = exchange_odds(Side(10), Side(10))
    assert odds.nobody == Fraction(11, 40)
    assert odds.active_success_probability == odds.reactive_success_probability \
        == Fraction(29, 80)


def test_normal_roll_hits_and_wounds_by_hand() -> None:
    """infinity-n3-intro.md "BS ATTACK" Normal Roll and "ARMOR AND DAMAGE": BS 13 hits on 1-12 (60%)
    and is Critical on 13 (5%); against ARM 1 and Damage 13 an ARM Roll fails on 1-12, so Wounds
    are 0.60 x 12/20 + 0.05 = 41%."""
    odds = exchange_odds(Side(13, 1, 13), Side(0, 0, None, 1))
    assert odds.active_hits == {(0, 0): Fraction(7, 20), (1, 0): Fraction(3, 5),
                                (1, 1): Fraction(1, 20)}
    assert odds.wounds_on_reactive == {0: Fraction(59, 100), 1: Fraction(41, 100)}


def test_burst_3_misses_only_when_every_die_fails() -> None:
    """infinity-n3-intro.md "BS Attack Roll and Burst": with BS 13 and Burst 3 no hit is (7/20)^3 =
    4.2875%."""
    odds = exchange_odds(Side(13, 3, 13), None)
    assert odds.active_hits[(0, 0)] == Fraction(343, 8000)
    assert odds.nobody == Fraction(343, 8000)


def test_partial_cover_on_the_arm_roll_by_hand() -> None:
    """infinity-n3-intro.md "Cover": +3 ARM. ARM 1 + 3 against Damage 13 fails on 1-9: one hit
    wounds 9/20."""
    odds = exchange_odds(Side(12, 1, 13), Side(0, 0, None, 4))
    assert odds.wounds_on_reactive is not None
    assert odds.wounds_on_reactive[1] == Fraction(11, 20) * Fraction(9, 20) + Fraction(1, 20)


def test_target_above_20_against_target_1_by_hand() -> None:
    """infinity-n3-intro.md "Rolls": target 20 always succeeds, Critical on 20; target 1 succeeds
    only with a Critical 1. The reactive side wins 19/400 (its Critical against a non-Critical),
    nobody 1/400 (two Criticals cancel), the active side the other 95%."""
    odds = exchange_odds(Side(20), Side(1))
    assert odds.reactive_hits[(1, 1)] == Fraction(19, 400)
    assert odds.nobody == Fraction(1, 400)
    assert odds.active_success_probability == Fraction(95, 100)


def test_a_target_of_zero_never_succeeds_and_25_always_does() -> None:
    """infinity-n3-intro.md "Rolls": target 0 or less always fails; target 25 always succeeds,
    Critical on 15-20."""
    assert exchange_odds(Side(0, 4, 13), None).active_hits == {(0, 0): 1}
    odds = exchange_odds(Side(25, 1), None)
    assert odds.active_hits == {(0, 0): 0, (1, 0): Fraction(14, 20), (1, 1): Fraction(6, 20)}


def test_every_distribution_sums_to_one_up_to_burst_6() -> None:
    """Issue 5 "Exact odds": Burst 1-6 on the active side; each side's table, and the
    Wounds tables, are complete distributions, and the outcomes exclude each other."""
    for burst in range(1, 7):
        odds = exchange_odds(Side(16, burst, 13, 1), Side(11, 1, 13, 4))
        assert sum(odds.active_hits.values()) == 1 == sum(odds.reactive_hits.values())
        assert odds.wounds_on_reactive is not None and odds.wounds_on_active is not None
        assert sum(odds.wounds_on_reactive.values()) == 1 == sum(odds.wounds_on_active.values())
        assert odds.active_success_probability + odds.reactive_success_probability \
            + odds.nobody == 1
        assert max(n for n, _ in odds.active_hits) == burst


def test_a_dodge_does_no_damage() -> None:
    """infinity-n3-intro.md "DODGE": a successful Dodge avoids the attack; it wounds nobody."""
    odds = exchange_odds(Side(14, 3, 13), Side(11, 1, None))
    assert odds.wounds_on_active is None
    assert odds.reactive_success_probability > 0


def test_bursts_out_of_bounds_are_refused() -> None:
    """infinity-n3-intro.md "BS Attack Roll and Burst": the reactive side always rolls 1; the odds
    take Burst 1-6."""
    with pytest.raises(ValueError, match="Burst"):
        exchange_odds(Side(12, 7), None)
    with pytest.raises(ValueError, match="1 die"):
        exchange_odds(Side(12, 2), Side(12, 2))


def test_face_to_face_tables_match_the_published_infinity_dice_calculator() -> None:
    """infinity-n3-intro.md "Rolls" Face to Face, against the published Infinity Dice Calculator
    (inf-dice by Jonathan Polley, its regression run `9 3 ... 12 1`: BS 9 with Burst 3 against BS
    12 with Burst 1), whose hit/Critical counts over the 160,000 rolls are printed in its test
    script. Its "Hits h Crits c" are non-Critical hits and Criticals (our key is (h+c, c))."""
    odds = exchange_odds(Side(9, 3), Side(12, 1))
    published_active = {(0, 1): 12045, (0, 2): 807, (0, 3): 19, (1, 0): 39948,
                        (1, 1): 6576, (1, 2): 276, (2, 0): 22524, (2, 1): 1956,
                        (3, 0): 4880}
    assert {key: p * 160000 for key, p in odds.active_hits.items() if key != (0, 0)} == \
        {(h + c, c): n for (h, c), n in published_active.items()}
    assert odds.reactive_hits[(1, 1)] * 160000 == 6859
    assert odds.reactive_hits[(1, 0)] * 160000 == 46793
    assert odds.nobody * 160000 == 17317
