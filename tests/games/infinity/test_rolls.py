"""Normal Rolls and Face to Face Rolls (third-edition "Rolls", which the intro rules refer to)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.infinity.rolls import face_to_face, judge_die


def test_a_die_at_or_under_the_target_succeeds_and_equal_is_critical() -> None:
    """infinity-n3-intro.md "BS Attack Roll and Burst" -> "Rolls": d20 <= target succeeds, equal to
    it is a Critical."""
    assert [judge_die(12, d).label for d in (1, 11, 12, 13, 20)] == \
        ["success", "success", "critical", "failure", "failure"]


def test_a_target_above_20_adds_the_excess_and_makes_20_or_more_critical() -> None:
    """infinity-n3-intro.md "Rolls" (third edition): target 23 adds 3 to every die; every die
    succeeds; modified results of 20 or more are Criticals."""
    results = [judge_die(23, d) for d in range(1, 21)]
    assert all(r.success for r in results)
    assert [r.die for r in results if r.critical] == [17, 18, 19, 20]
    assert judge_die(23, 5).value == 8


def test_a_target_of_zero_or_less_always_fails() -> None:
    """infinity-n3-intro.md "Rolls" (third edition): a target value of 0 or less always fails."""
    assert not any(judge_die(t, d).success for t in (0, -4) for d in range(1, 21))


def test_a_die_outside_1_to_20_is_rejected() -> None:
    """infinity-n3-intro.md "Rolls": the game uses d20s."""
    with pytest.raises(ValueError, match="1 to 20"):
        judge_die(12, 21)


def test_the_best_success_cancels_lower_and_equal_opposing_successes() -> None:
    """infinity-n3-intro.md "Rolls", Face to Face: each side's best success cancels every opposing
    non-Critical success whose result is lower or equal."""
    result = face_to_face(15, [14, 9, 3], 12, [10])
    assert [r.die for r in result.active_successes] == [14]
    assert result.reactive_successes == ()


def test_ties_cancel_each_other() -> None:
    """infinity-n3-intro.md "Rolls", Face to Face: ties cancel each other."""
    result = face_to_face(15, [10, 4], 12, [10])
    assert result.nobody


def test_the_higher_reactive_success_cancels_every_active_die() -> None:
    """infinity-n3-intro.md "Rolls", Face to Face: the reactive trooper's best success cancels all
    lower ones."""
    result = face_to_face(15, [9, 4, 11], 12, [11])
    assert result.active_successes == ()
    assert [r.die for r in result.reactive_successes] == []  # 11 ties with the active 11
    result = face_to_face(15, [9, 4, 10], 12, [11])
    assert [r.die for r in result.reactive_successes] == [11]


def test_a_critical_beats_every_non_critical_and_only_a_critical_cancels_it() -> None:
    """infinity-n3-intro.md "Rolls", Face to Face: a Critical cancels every opposing non-Critical
    success and is cancelled only by an opposing Critical."""
    result = face_to_face(15, [14, 13], 8, [8])
    assert result.active_successes == () and [r.die for r in result.reactive_successes] == [8]
    result = face_to_face(15, [15, 14], 8, [8])
    assert result.nobody
    result = face_to_face(15, [15, 2], 8, [7])
    assert [r.critical for r in result.active_successes] == [True]


def test_without_a_reactive_roll_every_success_stands() -> None:
    """infinity-n3-intro.md "BS Attack Roll and Burst": without a reaction the attack is a Normal
    Roll."""
    result = face_to_face(12, [3, 12, 19], None, [])
    assert [r.label for r in result.active_successes] == ["success", "critical"]


@given(st.integers(-3, 28), st.lists(st.integers(1, 20), min_size=1, max_size=6),
       st.integers(-3, 28), st.integers(1, 20))
def test_face_to_face_leaves_successes_on_one_side_at_most(
        active_target: int, dice: list[int], reactive_target: int, die: int) -> None:
    """infinity-n3-intro.md "Rolls", Face to Face: the best success cancels the lower or equal ones,
    so only one side (or nobody) keeps successes, and what is kept was a success of that side."""
    result = face_to_face(active_target, dice, reactive_target, [die])
    assert not (result.active_successes and result.reactive_successes)
    assert all(r.success for r in result.active_successes + result.reactive_successes)
    if result.active_successes:
        best = max(result.active_successes, key=lambda r: (r.critical, r.value))
        assert best.critical or not result.reactive[0].success \
            or best.value > result.reactive[0].value
