"""Measured distances in Infinity's declarations, and the range band the weapon data gives.

The engine lists a BS Attack once per range band at a sample distance
(``shoot Ann Fusilier combi_rifle Grenzer@12*3``). Once the players have measured, by
typing the inches or from the camera's marked bases, the action panel offers the attack at
the measured distance instead (:func:`measured_actions`, on the typed actions), and the
screen names the band and modifier the weapon's own data gives for it (:func:`weapon_bands`,
from :meth:`companion.games.infinity.profiles.Weapon.range_modifier`). The engine decides.

Example:
    >>> from companion.games.infinity.actions import Shoot, Shot
    >>> attack = Shoot("Ann", "Fusilier", "combi_rifle", (Shot("Grenzer", 12, 3, cover=True),))
    >>> str(with_distance(attack, 7.5))
    'shoot Ann Fusilier combi_rifle Grenzer@7.5*3+cover'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from companion.games.infinity.actions import Action, Aro, Shoot, parse_action
from companion.games.infinity.profiles import Weapon
from companion.games.infinity.state import State


@dataclass(frozen=True)
class RangedAttack:
    """A single-target BS Attack or shooting ARO: who shoots whom with what."""

    shooter: str
    weapon: str
    target: str


def ranged_attack(action: Action) -> RangedAttack | None:
    """The shooter, weapon and target of a single-target ``shoot`` or ``aro ... shoot``.

    Example:
        >>> from companion.games.infinity.actions import AroSkill, Shot
        >>> aro = Aro("Ben", "Grenzer", AroSkill.SHOOT, "combi_rifle", Shot("Fusilier", 12, 1))
        >>> ranged_attack(aro)
        RangedAttack(shooter='Grenzer', weapon='combi_rifle', target='Fusilier')
    """
    if isinstance(action, Shoot) and len(action.shots) == 1:
        return RangedAttack(action.trooper, action.weapon, action.shots[0].target)
    if isinstance(action, Aro) and action.shot is not None and action.weapon is not None:
        return RangedAttack(action.trooper, action.weapon, action.shot.target)
    return None


def with_distance(action: Action, distance: float) -> Action:
    """The action with its (single) target's distance replaced by ``distance`` inches.

    Raises:
        ValueError: the action is not a single-target ranged attack.
    """
    if isinstance(action, Shoot) and len(action.shots) == 1:
        return replace(action, shots=(replace(action.shots[0], distance=float(distance)),))
    if isinstance(action, Aro) and action.shot is not None and action.weapon is not None:
        return replace(action, shot=replace(action.shot, distance=float(distance)))
    raise ValueError(f"{action} is not a single-target ranged attack")


DistanceLookup = Callable[[str, str], "float | None"]
"""``(shooter, target) -> inches`` when measured, else ``None``."""


def measured_actions(actions: Sequence[Action], distance_of: DistanceLookup) -> list[Action]:
    """The legal actions with each measured attack at its measured distance (once each).

    Attacks whose pair has no measurement, and every other action, are left as listed.

    Example:
        >>> from companion.games.infinity.actions import EndTurn, Shot
        >>> listed = [Shoot("A", "F", "rifle", (Shot("G", d, 3),)) for d in (4, 12)]
        >>> [str(a) for a in measured_actions([*listed, EndTurn("A")], lambda s, t: 7.5)]
        ['shoot A F rifle G@7.5*3', 'end A']
    """
    out: dict[Action, None] = {}
    for action in actions:
        attack = ranged_attack(action)
        distance = None if attack is None else distance_of(attack.shooter, attack.target)
        out[action if distance is None else with_distance(action, distance)] = None
    return list(out)


def measured_texts(state: State, texts: Sequence[str], distance_of: DistanceLookup
                   ) -> list[str]:
    """:func:`measured_actions` for actions listed in notation (the action panel's lists).

    Each text is read as the typed action it is (``parse_action``) and printed back.
    """
    actions = [parse_action(state, text) for text in texts]
    return [str(action) for action in measured_actions(actions, distance_of)]


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
