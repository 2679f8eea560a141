"""Armor and damage: the ARM Roll, Partial Cover's bonus, and Wounds.

infinity-n3-intro.md "ARMOR AND DAMAGE": roll a d20 and add the trooper's ARM; a sum higher
than the weapon's Damage passes, equal or lower loses one Wound; a Critical takes a Wound
with no ARM Roll; losing the last Wound removes the trooper. "Cover": Partial Cover gives
+3 to the target's ARM Rolls.

Example:
    >>> arm_roll_passes(arm=1, damage=13, die=13)
    True
    >>> arm_roll_passes(arm=1, damage=13, die=12)
    False
"""

from __future__ import annotations

from .rolls import DIE_FACES

PARTIAL_COVER_ARM = 3
"""The ARM bonus of a target in Partial Cover."""

PARTIAL_COVER_BS = -3
"""The modifier Partial Cover imposes on the attacker's BS."""


def effective_arm(arm: int, partial_cover: bool) -> int:
    """The ARM a trooper rolls with, Partial Cover included.

    Example:
        >>> effective_arm(1, True)
        4
    """
    return arm + (PARTIAL_COVER_ARM if partial_cover else 0)


def arm_roll_passes(arm: int, damage: int, die: int) -> bool:
    """Whether an ARM Roll of ``die`` with ``arm`` stops a hit of ``damage``.

    Example:
        >>> arm_roll_passes(arm=4, damage=13, die=10)
        True
    """
    if not 1 <= die <= DIE_FACES:
        raise ValueError(f"a d20 shows 1 to 20, not {die}")
    return die + arm > damage


def failing_faces(arm: int, damage: int) -> int:
    """How many of the 20 faces fail an ARM Roll (lose a Wound).

    Example:
        >>> failing_faces(arm=1, damage=13)
        12
        >>> failing_faces(arm=20, damage=13), failing_faces(arm=-10, damage=13)
        (0, 20)
    """
    return max(0, min(DIE_FACES, damage - arm))
