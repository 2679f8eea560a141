"""Measured distances in Infinity's declarations, and the range band the weapon data gives.

The engine lists a BS Attack once per range band at a sample distance
(``shoot Ann Fusilier combi_rifle Grenzer@12*3``). Once the players have measured, by
typing the inches or from the camera's marked bases, the action panel offers the attack at
the measured distance instead (:func:`measured_actions`), and the screen names the band and
modifier the weapon's own data gives for it (:func:`weapon_bands`, from
:meth:`companion.games.infinity.profiles.Weapon.range_modifier`). The engine decides.

Example:
    >>> with_distance("shoot Ann Fusilier combi_rifle Grenzer@12*3+cover", 7.5)
    'shoot Ann Fusilier combi_rifle Grenzer@7.5*3+cover'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from companion.games.infinity.profiles import Weapon
from companion.games.infinity.state import State

_TARGET = re.compile(r"^(?P<name>[^@\s]+)@(?P<distance>[0-9.]+)(?P<rest>.*)$")


@dataclass(frozen=True)
class RangedAttack:
    """A single-target BS Attack or ARO in notation: who shoots whom with what."""

    shooter: str
    weapon: str
    target: str


def ranged_attack(text: str) -> RangedAttack | None:
    """The shooter, weapon and target of a single-target ``shoot`` or ``aro ... shoot``.

    Example:
        >>> ranged_attack("aro Ben Grenzer shoot combi_rifle Fusilier@12")
        RangedAttack(shooter='Grenzer', weapon='combi_rifle', target='Fusilier')
    """
    words = text.split()
    if len(words) == 5 and words[0] == "shoot":
        shooter, weapon, target = words[2], words[3], words[4]
    elif len(words) == 6 and words[0] == "aro" and words[3] == "shoot":
        shooter, weapon, target = words[2], words[4], words[5]
    else:
        return None
    match = _TARGET.match(target)
    return RangedAttack(shooter, weapon, match["name"]) if match else None


def with_distance(text: str, distance: float) -> str:
    """The action with its (single) target's distance replaced by ``distance`` inches.

    Raises:
        ValueError: the text is not a single-target ranged attack.
    """
    if ranged_attack(text) is None:
        raise ValueError(f"{text!r} is not a single-target ranged attack")
    *head, target = text.split()
    match = _TARGET.match(target)
    assert match is not None
    return " ".join([*head, f"{match['name']}@{distance:g}{match['rest']}"])


DistanceLookup = Callable[[str, str], "float | None"]
"""``(shooter, target) -> inches`` when measured, else ``None``."""


def measured_actions(texts: list[str], distance_of: DistanceLookup) -> list[str]:
    """The legal actions with each measured attack at its measured distance (once each).

    Attacks whose pair has no measurement, and every other action, are left as listed.

    Example:
        >>> measured_actions(["shoot A F rifle G@4*3", "shoot A F rifle G@12*3", "end A"],
        ...                  lambda shooter, target: 7.5)
        ['shoot A F rifle G@7.5*3', 'end A']
    """
    out: dict[str, None] = {}
    for text in texts:
        attack = ranged_attack(text)
        distance = None if attack is None else distance_of(attack.shooter, attack.target)
        out[text if distance is None else with_distance(text, distance)] = None
    return list(out)


def band_of(weapon: Weapon, distance: float) -> tuple[float, float, int] | None:
    """The band ``(from, to, modifier)`` holding ``distance``, or ``None`` out of range.

    The modifier is the weapon's own ``range_modifier``; a boundary belongs to the nearer band.
    """
    modifier = weapon.range_modifier(distance)
    if modifier is None:
        return None
    start = 0.0
    for band in weapon.ranges:
        if distance <= band.to:
            return start, band.to, modifier
        start = band.to
    return None


@dataclass(frozen=True)
class WeaponBand:
    """A weapon's band at a distance.

    Attributes:
        weapon: the weapon's printed name.
        start: where the band starts, inches.
        end: where it ends (included), inches.
        modifier: the BS modifier, or ``None`` out of range.
        max_range: how far the weapon reaches.
    """

    weapon: str
    start: float
    end: float
    modifier: int | None
    max_range: float


def weapon_bands(state: State, distance: float) -> list[WeaponBand]:
    """For each BS weapon of the active player's troopers in play: its band at ``distance``.

    Example: the Combi Rifle at 7.5 inches is in 0-8 with +3 (profiles/default.toml).
    """
    active = state.players[state.turn]
    weapons: dict[str, Weapon] = {}
    for sheet, status in zip(state.sheets, state.status, strict=True):
        if sheet.owner == active and not status.removed:
            for weapon in sheet.weapons:
                if weapon.kind == "bs":
                    weapons.setdefault(weapon.id, weapon)
    bands = []
    for weapon in weapons.values():
        band = band_of(weapon, distance)
        start, end, modifier = band if band is not None else (0.0, 0.0, None)
        bands.append(WeaponBand(weapon.name, start, end, modifier, weapon.max_range))
    return bands


@dataclass(frozen=True)
class PairBand:
    """A measured pair of enemies: the active trooper's first BS weapon's band on the other."""

    shooter: str
    target: str
    inches: float
    weapon: str
    modifier: int | None


def pair_bands(state: State, distance_of: DistanceLookup) -> list[PairBand]:
    """Each measured (active trooper, visible enemy) pair with its band's BS modifier.

    Troopers removed or still in Hidden Deployment are left out (Private Information).
    """
    active = state.players[state.turn]
    shown = [(sheet, status) for sheet, status in zip(state.sheets, state.status, strict=True)
             if not status.removed and not status.hidden]
    out = []
    for sheet, _status in shown:
        if sheet.owner != active:
            continue
        weapon = next((w for w in sheet.weapons if w.kind == "bs"), None)
        for enemy, _enemy_status in shown:
            inches = distance_of(sheet.id, enemy.id) if enemy.owner != active else None
            if weapon is None or inches is None:
                continue
            out.append(PairBand(sheet.id, enemy.id, inches, weapon.name,
                                weapon.range_modifier(inches)))
    return out
