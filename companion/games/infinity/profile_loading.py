"""Reading and checking a profile data file (TOML): weapons and troop profiles.

Every table is read through the one setup-file reader (:class:`~companion.games.datafile.Table`):
:func:`expect_keys` states the keys a table may hold, so a misspelt one (``armour``) is
refused naming the closest valid key before the key it stands for is reported missing;
:mod:`.army` reads the armies file the same way. Every problem is a
:class:`~companion.games.core.SetupError` naming the file, the key path and what is wrong.
The format is documented in ``docs/infinity.md``.

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

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml

from .profiles import ATTRIBUTES, WEAPON_KINDS, Catalogue, Damage, Profile, RangeBand, Weapon

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
DAMAGE_PATTERN = re.compile(r"^PH(?:([+-])(\d+))?$")
MAX_BURST = 6

WEAPON_KEYS = ("name", "kind", "damage", "burst", "ranges")
PROFILE_KEYS = ("name", "mov", *ATTRIBUTES, "weapons")
BAND_KEYS = ("to", "mod")


def table_of(source: str, where: str, value: Any, problem: str = "must be a table") -> Table:
    """``value`` as a :class:`~companion.games.datafile.Table` at ``where``, or ``problem``."""
    if not isinstance(value, dict):
        raise SetupError(source, where, problem)
    return Table(source, value, where)


def expect_keys(table: Table, *keys: str) -> Table:
    """Read ``table`` knowing it holds only ``keys``: a misspelt key is refused first.

    A misspelt required key (``armour`` for ``arm``) is named as the unknown key it is,
    with the closest valid one, before the missing key it stands for.
    """
    for key in keys:
        table.has(key)
    table.done()
    return table


def _int(table: Table, key: str | int, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise table.error(key, f"must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise table.error(key, f"must be between {low} and {high}, not {value}")
    return value


def _name(table: Table) -> str:
    name = table.raw("name", None)
    if not isinstance(name, str) or not name.strip():
        raise table.error("name", "must be a non-empty string")
    return name


def _damage(table: Table) -> Damage:
    value = table.raw("damage", None)
    if value is None:
        raise table.error("damage", "is missing")
    if isinstance(value, str):
        match = DAMAGE_PATTERN.match(value.strip().upper())
        if not match:
            raise table.error("damage", f"must be a number or PH, PH-1, PH+2..., "
                                        f"not {value!r}")
        offset = int(match.group(2) or 0) * (-1 if match.group(1) == "-" else 1)
        return Damage(offset, from_ph=True)
    return Damage(_int(table, "damage", value, 0, 30))


def _ranges(table: Table) -> tuple[RangeBand, ...]:
    value = table.raw("ranges", None)
    if not isinstance(value, list) or not value:
        raise table.error("ranges", "a BS weapon needs a non-empty list of range bands "
                                    "({to = INCHES, mod = MODIFIER})")
    bands: list[RangeBand] = []
    previous = 0.0
    for index, band in enumerate(value):
        row = expect_keys(table_of(table.source, f"{table.path('ranges')}[{index}]", band),
                          *BAND_KEYS)
        to = row.raw("to", None)
        if isinstance(to, bool) or not isinstance(to, (int, float)) or not math.isfinite(to) \
                or to <= previous:
            raise row.error("to", f"must be a distance in inches greater than the previous "
                                  f"band's end ({previous})")
        bands.append(RangeBand(float(to), _int(row, "mod", row.raw("mod", None), -20, 20)))
        previous = float(to)
    return tuple(bands)


def _weapon(source: str, key: str, value: Any) -> Weapon:
    where = f"weapons.{key}"
    table = table_of(source, where, value)
    if not ID_PATTERN.match(key):
        raise SetupError(source, where, "a weapon id is lowercase letters, digits and _")
    expect_keys(table, *WEAPON_KEYS)
    kind = table.raw("kind", None)
    if kind not in WEAPON_KINDS:
        raise table.error("kind", f"must be one of {', '.join(WEAPON_KINDS)}, not {kind!r}")
    damage = _damage(table)
    burst = _int(table, "burst", table.raw("burst", None), 1, MAX_BURST)
    if kind == "cc":
        if table.raw("ranges", None) is not None:
            raise table.error("ranges", "a CC weapon has no range bands")
        ranges: tuple[RangeBand, ...] = ()
    else:
        ranges = _ranges(table)
    return Weapon(key, _name(table), kind, damage, burst, ranges)


def _profile(source: str, key: str, value: Any, weapons: dict[str, Weapon]) -> Profile:
    where = f"troopers.{key}"
    table = table_of(source, where, value)
    if not ID_PATTERN.match(key):
        raise SetupError(source, where, "a profile id is lowercase letters, digits and _")
    expect_keys(table, *PROFILE_KEYS)
    mov = table.raw("mov", None)
    if not isinstance(mov, list) or len(mov) != 2:
        raise table.error("mov", "must be two numbers, e.g. [4, 4]")
    first = _int(table, "mov[0]", mov[0], 0, 12)
    second = _int(table, "mov[1]", mov[1], 0, 12)
    values = {}
    for name in ATTRIBUTES:
        if not table.has(name):
            raise table.error(name, "is missing")
        low = 1 if name == "w" else 0
        values[name] = _int(table, name, table.raw(name), low, 30)
    listed = table.raw("weapons", [])
    if not isinstance(listed, list) or not all(isinstance(w, str) for w in listed):
        raise table.error("weapons", "must be a list of weapon ids")
    for index, weapon in enumerate(listed):
        if weapon not in weapons:
            raise table.error(f"weapons[{index}]", f"no weapon {weapon!r} in [weapons]")
    return Profile(key, _name(table), (first, second), weapons=tuple(listed), **values)


def load_catalogue(source: str, text: str) -> Catalogue:
    """Read and check a profile data file.

    Raises:
        SetupError: naming ``source``, the key path and what is wrong.
    """
    top = expect_keys(Table(source, load_toml(source, text)), "weapons", "troopers")
    weapon_tables = table_of(source, "weapons", top.raw("weapons", {}))
    weapon_ids = weapon_tables.keys()
    weapons = {key: _weapon(source, key, weapon_tables.raw(key)) for key in weapon_ids}
    trooper_tables = table_of(source, "troopers", top.raw("troopers", {}))
    profile_ids = trooper_tables.keys()
    if not profile_ids:
        raise SetupError(source, "troopers", "the file defines no troop profile")
    profiles = {key: _profile(source, key, trooper_tables.raw(key), weapons)
                for key in profile_ids}
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
