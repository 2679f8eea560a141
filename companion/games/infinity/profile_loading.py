"""Reading and checking a profile data file (TOML): weapons and troop profiles.

Every problem is reported as a :class:`~companion.games.core.SetupError` naming the file,
the key path and what is wrong. The format is documented in ``docs/infinity.md``.

Example:
    >>> text = '''
    ... [weapons.knife]
    ... name = "Knife"
    ... kind = "cc"
    ... damage = "PH-1"
    ... burst = 1
    ... [troopers.fusilier]
    ... name = "Fusilier"
    ... mov = [4, 4]
    ... cc = 13
    ... bs = 12
    ... ph = 10
    ... wip = 12
    ... arm = 1
    ... bts = 0
    ... w = 1
    ... s = 2
    ... weapons = ["knife"]
    ... '''
    >>> load_catalogue("mine.toml", text).profiles["fusilier"].cc
    13
"""

from __future__ import annotations

import math
import re
from typing import Any

from companion.games.core import SetupError, parse_setup_toml
from companion.games.datafile import unknown_key_problem

from .profiles import ATTRIBUTES, WEAPON_KINDS, Catalogue, Damage, Profile, RangeBand, Weapon

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
DAMAGE_PATTERN = re.compile(r"^PH(?:([+-])(\d+))?$")
MAX_BURST = 6


parse_toml = parse_setup_toml
"""Parse TOML text into a dict, naming the file and line of a syntax error."""


def _int(source: str, where: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError(source, where, f"must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise SetupError(source, where, f"must be between {low} and {high}, not {value}")
    return value


def _table(source: str, where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SetupError(source, where, "must be a table")
    return value


def _name(source: str, where: str, table: dict[str, Any]) -> str:
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SetupError(source, f"{where}.name", "must be a non-empty string")
    return name


def _unknown_keys(source: str, where: str, table: dict[str, Any], allowed: set[str]) -> None:
    for key in table:
        if key not in allowed:
            path = f"{where}.{key}" if where else key
            raise SetupError(source, path, unknown_key_problem(key, allowed))


def _damage(source: str, where: str, value: Any) -> Damage:
    if isinstance(value, str):
        match = DAMAGE_PATTERN.match(value.strip().upper())
        if not match:
            raise SetupError(source, where, f"must be a number or PH, PH-1, PH+2..., "
                                            f"not {value!r}")
        offset = int(match.group(2) or 0) * (-1 if match.group(1) == "-" else 1)
        return Damage(offset, from_ph=True)
    return Damage(_int(source, where, value, 0, 30))


def _ranges(source: str, where: str, value: Any) -> tuple[RangeBand, ...]:
    if not isinstance(value, list) or not value:
        raise SetupError(source, where, "a BS weapon needs a non-empty list of range bands "
                                        "({to = INCHES, mod = MODIFIER})")
    bands: list[RangeBand] = []
    previous = 0.0
    for index, band in enumerate(value):
        key = f"{where}[{index}]"
        table = _table(source, key, band)
        _unknown_keys(source, key, table, {"to", "mod"})
        to = table.get("to")
        if isinstance(to, bool) or not isinstance(to, (int, float)) or not math.isfinite(to) \
                or to <= previous:
            raise SetupError(source, f"{key}.to", f"must be a distance in inches greater "
                                                  f"than the previous band's end ({previous})")
        bands.append(RangeBand(float(to), _int(source, f"{key}.mod", table.get("mod"), -20,
                                               20)))
        previous = float(to)
    return tuple(bands)


def _weapon(source: str, key: str, table: dict[str, Any]) -> Weapon:
    where = f"weapons.{key}"
    if not ID_PATTERN.match(key):
        raise SetupError(source, where, "a weapon id is lowercase letters, digits and _")
    _unknown_keys(source, where, table, {"name", "kind", "damage", "burst", "ranges"})
    kind = table.get("kind")
    if kind not in WEAPON_KINDS:
        raise SetupError(source, f"{where}.kind", f"must be one of {', '.join(WEAPON_KINDS)}, "
                                                  f"not {kind!r}")
    if "damage" not in table:
        raise SetupError(source, f"{where}.damage", "is missing")
    damage = _damage(source, f"{where}.damage", table["damage"])
    burst = _int(source, f"{where}.burst", table.get("burst"), 1, MAX_BURST)
    if kind == "cc":
        if "ranges" in table:
            raise SetupError(source, f"{where}.ranges", "a CC weapon has no range bands")
        ranges: tuple[RangeBand, ...] = ()
    else:
        ranges = _ranges(source, f"{where}.ranges", table.get("ranges"))
    return Weapon(key, _name(source, where, table), kind, damage, burst, ranges)


def _profile(source: str, key: str, table: dict[str, Any], weapons: dict[str, Weapon]) -> Profile:
    where = f"troopers.{key}"
    if not ID_PATTERN.match(key):
        raise SetupError(source, where, "a profile id is lowercase letters, digits and _")
    _unknown_keys(source, where, table, {"name", "mov", *ATTRIBUTES, "weapons"})
    mov = table.get("mov")
    if not isinstance(mov, list) or len(mov) != 2:
        raise SetupError(source, f"{where}.mov", "must be two numbers, e.g. [4, 4]")
    first = _int(source, f"{where}.mov[0]", mov[0], 0, 12)
    second = _int(source, f"{where}.mov[1]", mov[1], 0, 12)
    values = {}
    for name in ATTRIBUTES:
        if name not in table:
            raise SetupError(source, f"{where}.{name}", "is missing")
        low = 1 if name == "w" else 0
        values[name] = _int(source, f"{where}.{name}", table[name], low, 30)
    listed = table.get("weapons", [])
    if not isinstance(listed, list) or not all(isinstance(w, str) for w in listed):
        raise SetupError(source, f"{where}.weapons", "must be a list of weapon ids")
    for index, weapon in enumerate(listed):
        if weapon not in weapons:
            raise SetupError(source, f"{where}.weapons[{index}]",
                             f"no weapon {weapon!r} in [weapons]")
    return Profile(key, _name(source, where, table), (first, second),
                   weapons=tuple(listed), **values)


def load_catalogue(source: str, text: str) -> Catalogue:
    """Read and check a profile data file.

    Raises:
        SetupError: naming ``source``, the key path and what is wrong.
    """
    data = parse_toml(source, text)
    _unknown_keys(source, "", data, {"weapons", "troopers"})
    weapon_tables = _table(source, "weapons", data.get("weapons", {}))
    weapons = {key: _weapon(source, key, _table(source, f"weapons.{key}", table))
               for key, table in weapon_tables.items()}
    trooper_tables = _table(source, "troopers", data.get("troopers", {}))
    if not trooper_tables:
        raise SetupError(source, "troopers", "the file defines no troop profile")
    profiles = {key: _profile(source, key, _table(source, f"troopers.{key}", table), weapons)
                for key, table in trooper_tables.items()}
    return Catalogue(profiles, weapons)


def check_catalogue(source: str, text: str) -> list[str]:
    r"""Check a profile file; return one summary line per profile and weapon.

    Raises:
        SetupError: the first problem found.

    Example:
        >>> check_catalogue("x.toml", "[troopers.a]\nname='A'\nmov=[4,4]\ncc=1\nbs=1\n"
        ...                 "ph=1\nwip=1\narm=0\nbts=0\nw=1\ns=2")
        ['trooper a: A MOV 4-4 CC 1 BS 1 PH 1 WIP 1 ARM 0 BTS 0 W 1 S 2']
    """
    catalogue = load_catalogue(source, text)
    lines = []
    for weapon in catalogue.weapons.values():
        bands = ", ".join(f"-{band.to:g}: {band.modifier:+d}" for band in weapon.ranges)
        lines.append(f"weapon {weapon.id}: {weapon.name} ({weapon.kind.upper()}) "
                     f"Damage {weapon.damage} Burst {weapon.burst}"
                     + (f" ranges {bands}" if bands else ""))
    for profile in catalogue.profiles.values():
        stats = " ".join(f"{name.upper()} {profile.attribute(name)}" for name in ATTRIBUTES)
        lines.append(f"trooper {profile.id}: {profile.name} MOV {profile.mov[0]}-"
                     f"{profile.mov[1]} {stats}"
                     + (f" weapons {', '.join(profile.weapons)}" if profile.weapons else ""))
    return lines
