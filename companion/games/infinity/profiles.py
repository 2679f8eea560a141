"""Troop profiles and weapons as data, and what a weapon's range bands say about a distance.

The data file format is documented in ``docs/infinity.md``; :mod:`.profile_loading` reads it.

Example:
    >>> rifle = Weapon("combi_rifle", "Combi Rifle", "bs", Damage(13), 3,
    ...                (RangeBand(8, 3), RangeBand(16, 3), RangeBand(32, -3), RangeBand(48, -6)))
    >>> rifle.range_modifier(8), rifle.range_modifier(8.5), rifle.range_modifier(50)
    (3, 3, None)
"""

from __future__ import annotations

from dataclasses import dataclass

ATTRIBUTES = ("cc", "bs", "ph", "wip", "arm", "bts", "w", "s")
"""The numeric attributes of a troop profile besides MOV, in profile order."""

WEAPON_KINDS = ("bs", "cc")
"""A weapon is used with a BS Attack or a CC Attack."""


@dataclass(frozen=True)
class Damage:
    """A weapon's Damage: a number, or the wielder's PH plus an offset (``PH-1``).

    Example:
        >>> str(Damage(-1, from_ph=True)), Damage(-1, from_ph=True).against(ph=10)
        ('PH-1', 9)
    """

    value: int
    from_ph: bool = False

    def against(self, ph: int) -> int:
        """The Damage when wielded by a trooper with ``ph``."""
        return ph + self.value if self.from_ph else self.value

    def __str__(self) -> str:
        if not self.from_ph:
            return str(self.value)
        return "PH" if self.value == 0 else f"PH{self.value:+d}"


@dataclass(frozen=True)
class RangeBand:
    """A range band: distances above the previous band's end and up to ``to`` inches."""

    to: float
    modifier: int


@dataclass(frozen=True)
class Weapon:
    """A weapon: the attack it is used with, Damage, Burst and range bands (BS weapons).

    Attributes:
        id: the key used in the notation (``combi_rifle``).
        name: the name as printed (``Combi Rifle``).
        kind: ``"bs"`` or ``"cc"``.
        damage: its Damage.
        burst: its Burst (B).
        ranges: its range bands from 0 inches outwards; beyond the last is out of range.
    """

    id: str
    name: str
    kind: str
    damage: Damage
    burst: int
    ranges: tuple[RangeBand, ...] = ()

    @property
    def max_range(self) -> float:
        """The longest distance the weapon can reach (0 for CC weapons)."""
        return self.ranges[-1].to if self.ranges else 0.0

    def range_modifier(self, distance: float) -> int | None:
        """The BS modifier at ``distance`` inches, or ``None`` when out of range.

        A distance on a band's boundary belongs to the nearer band (``0-8`` includes 8).
        """
        if distance < 0:
            return None
        for band in self.ranges:
            if distance <= band.to:
                return band.modifier
        return None


@dataclass(frozen=True)
class Profile:
    """A troop profile: MOV (first, second), CC, BS, PH, WIP, ARM, BTS, W, S.

    Example:
        >>> Profile("fusilier", "Fusilier", (4, 4), 13, 12, 10, 12, 1, 0, 1, 2).bs
        12
    """

    id: str
    name: str
    mov: tuple[int, int]
    cc: int
    bs: int
    ph: int
    wip: int
    arm: int
    bts: int
    w: int
    s: int
    weapons: tuple[str, ...] = ()

    def attribute(self, name: str) -> int:
        """The value of the attribute ``name`` (``"bs"``, ``"ph"``...)."""
        value: int = getattr(self, name)
        return value


@dataclass(frozen=True)
class Catalogue:
    """The profiles and weapons one data file provides, by id."""

    profiles: dict[str, Profile]
    weapons: dict[str, Weapon]
