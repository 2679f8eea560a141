"""Rolls: the Normal Roll of one d20 against a target value, and the Face to Face Roll.

Third-edition rules (the rulebook's "Rolls" section, which the intro excerpt refers to):

- target value = attribute + modifiers; a die at or under it succeeds, a die equal to it is a
  Critical;
- a target value above 20 adds the excess to every die: every die succeeds and a modified
  result of 20 or more is a Critical;
- a target value of 0 or less always fails;
- Face to Face: failures are discarded; each side's best success cancels every opposing
  non-Critical success whose result is lower or equal (ties cancel each other); a Critical
  cancels every opposing non-Critical success and is cancelled only by an opposing Critical.

Example:
    >>> judge_die(13, 13)
    DieResult(die=13, value=13, success=True, critical=True)
    >>> judge_die(23, 18).critical
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DIE_FACES = 20
"""The faces of the d20 every roll of the game uses."""


@dataclass(frozen=True)
class DieResult:
    """One die judged against a target value.

    Attributes:
        die: the face rolled (1-20).
        value: the result compared in a Face to Face Roll (the die plus any excess over 20,
            capped at 20, where every Critical sits).
        success: whether the die succeeded.
        critical: whether it is a Critical.
    """

    die: int
    value: int
    success: bool
    critical: bool

    @property
    def label(self) -> str:
        """``"critical"``, ``"success"`` or ``"failure"``, as the roll events print it."""
        if self.critical:
            return "critical"
        return "success" if self.success else "failure"


def judge_die(target: int, die: int) -> DieResult:
    """Judge one d20 face against a target value (Normal Roll).

    Example:
        >>> judge_die(0, 1).success
        False
        >>> judge_die(12, 5)
        DieResult(die=5, value=5, success=True, critical=False)
    """
    if not 1 <= die <= DIE_FACES:
        raise ValueError(f"a d20 shows 1 to 20, not {die}")
    if target <= 0:
        return DieResult(die, die, False, False)
    if target > DIE_FACES:
        value = die + target - DIE_FACES
        if value >= DIE_FACES:
            return DieResult(die, DIE_FACES, True, True)
        return DieResult(die, value, True, False)
    if die > target:
        return DieResult(die, die, False, False)
    return DieResult(die, die, True, die == target)


def judge_dice(target: int, dice: Sequence[int]) -> tuple[DieResult, ...]:
    """Judge several dice against the same target value.

    Example:
        >>> [r.label for r in judge_dice(10, [3, 10, 15])]
        ['success', 'critical', 'failure']
    """
    return tuple(judge_die(target, die) for die in dice)


def _beats(best: DieResult, other: DieResult) -> bool:
    """Whether ``best`` (a side's best success) cancels the opposing success ``other``."""
    if other.critical:
        return best.critical
    return best.critical or best.value >= other.value


def best_success(results: Sequence[DieResult]) -> DieResult | None:
    """A side's best success: any Critical, else the highest successful result.

    Example:
        >>> best_success(judge_dice(12, [4, 11, 16])).value
        11
    """
    successes = [r for r in results if r.success]
    if not successes:
        return None
    return max(successes, key=lambda r: (r.critical, r.value))


@dataclass(frozen=True)
class FaceToFace:
    """What survives a Face to Face Roll (or a Normal Roll when one side does not roll).

    Attributes:
        active: the active side's judged dice.
        reactive: the reactive side's judged dice (empty when it did not roll).
        active_successes: the active successes left standing, in rolled order.
        reactive_successes: the reactive successes left standing.
    """

    active: tuple[DieResult, ...]
    reactive: tuple[DieResult, ...]
    active_successes: tuple[DieResult, ...]
    reactive_successes: tuple[DieResult, ...]

    @property
    def nobody(self) -> bool:
        """Whether neither side succeeded."""
        return not self.active_successes and not self.reactive_successes


def face_to_face(active_target: int, active_dice: Sequence[int],
                 reactive_target: int | None, reactive_dice: Sequence[int]) -> FaceToFace:
    """Resolve a Face to Face Roll; without reactive dice it is the active side's Normal Roll.

    Args:
        active_target: the active side's target value.
        active_dice: the active side's dice (its Burst, or the share aimed at this target).
        reactive_target: the reactive side's target value (``None`` when it does not roll).
        reactive_dice: the reactive side's dice (one die, or none).

    Example:
        >>> f2f = face_to_face(13, [12, 5, 2], 11, [8])
        >>> [r.die for r in f2f.active_successes], f2f.reactive_successes
        ([12], ())
        >>> face_to_face(13, [13], 11, [11]).nobody
        True
    """
    active = judge_dice(active_target, active_dice)
    reactive = judge_dice(reactive_target, reactive_dice) if reactive_target is not None \
        else ()
    best_active = best_success(active)
    best_reactive = best_success(reactive)
    kept_active = tuple(r for r in active if r.success and
                        (best_reactive is None or not _beats(best_reactive, r)))
    kept_reactive = tuple(r for r in reactive if r.success and
                          (best_active is None or not _beats(best_active, r)))
    return FaceToFace(active, reactive, kept_active, kept_reactive)
