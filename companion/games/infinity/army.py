"""Army lists: the agreed Army Points, each player's troopers, and their Private Information.

infinity-n3-intro.md "INFINITY: GAME SUMMARY": the players agree on Army Points and each
builds an Army List whose total Cost cannot exceed them. "OPEN AND PRIVATE INFORMATION": a
trooper's Cost, the identity of the Lieutenant and the presence of Hidden Deployment troopers
are Private; they become Open when the trooper is removed from play as a casualty.

Example:
    >>> from companion.games.infinity.profile_loading import load_catalogue
    >>> from companion.resources import shipped_text
    >>> catalogue = load_catalogue("default.toml", shipped_text("companion.games.infinity",
    ...                                                          "profiles/default.toml"))
    >>> setup = load_armies("a.toml", '''[game]
    ... points = 20
    ... [[armies]]
    ... player = "Ann"
    ... troopers = [{id = "A1", profile = "fusilier", cost = 10, lieutenant = true}]
    ... [[armies]]
    ... player = "Ben"
    ... troopers = [{id = "B1", profile = "grenzer", cost = 10, lieutenant = true}]''', catalogue)
    >>> [sheet.id for sheet in setup.sheets]
    ['A1', 'B1']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml

from .profile_loading import expect_keys, table_of
from .profiles import Catalogue, Profile, Weapon

TROOPER_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
PLAYER_NAME = TROOPER_ID


@dataclass(frozen=True)
class TrooperSheet:
    """A trooper of an Army List: its profile, weapons and Private Information.

    Attributes:
        id: its name in the notation, unique in the game (``Fusilier``).
        owner: the player whose Army List it is on.
        profile: its troop profile.
        weapons: its weapons.
        cost: its Cost in Army Points (Private).
        lieutenant: whether it is the Lieutenant (Private).
        hidden: whether it starts in Hidden Deployment (Private).
    """

    id: str
    owner: str
    profile: Profile
    weapons: tuple[Weapon, ...]
    cost: int
    lieutenant: bool = False
    hidden: bool = False

    def weapon(self, weapon_id: str) -> Weapon | None:
        """The weapon called ``weapon_id`` (case-insensitive), if the trooper carries it."""
        for weapon in self.weapons:
            if weapon.id == weapon_id.lower():
                return weapon
        return None


@dataclass(frozen=True)
class ArmySetup:
    """The game as agreed: players in turn order, Army Points, rounds and the Army Lists."""

    players: tuple[str, str]
    points: int
    rounds: int
    sheets: tuple[TrooperSheet, ...]


TOP_KEYS = ("game", "armies")
GAME_KEYS = ("points", "rounds", "first")
ARMY_KEYS = ("player", "troopers")
TROOPER_KEYS = ("id", "profile", "cost", "lieutenant", "hidden", "weapons")


def _trooper(source: str, where: str, raw: Any, owner: str, catalogue: Catalogue) -> TrooperSheet:
    table = expect_keys(table_of(source, where, raw, "must be a table {id = ..., profile = ..., "
                                                     "cost = ...}"), *TROOPER_KEYS)
    trooper_id = table.raw("id", None)
    if not isinstance(trooper_id, str) or not TROOPER_ID.match(trooper_id):
        raise table.error("id", "must be a name of letters, digits, - and _ starting with a "
                                "letter")
    profile_id = table.raw("profile", None)
    if not isinstance(profile_id, str) or profile_id not in catalogue.profiles:
        raise table.error("profile", f"no profile {profile_id!r}; known: "
                                     f"{', '.join(catalogue.profiles)}")
    profile = catalogue.profiles[profile_id]
    cost = table.raw("cost", None)
    if isinstance(cost, bool) or not isinstance(cost, int) or cost < 0:
        raise table.error("cost", "must be a whole number of Army Points >= 0")
    flags = {}
    for flag in ("lieutenant", "hidden"):
        value = table.raw(flag, False)
        if not isinstance(value, bool):
            raise table.error(flag, "must be true or false")
        flags[flag] = value
    weapon_ids = table.raw("weapons", list(profile.weapons))
    if not isinstance(weapon_ids, list) or not weapon_ids:
        raise table.error("weapons", "must be a non-empty list of weapon ids")
    weapons = []
    for index, weapon_id in enumerate(weapon_ids):
        if not isinstance(weapon_id, str) or weapon_id not in catalogue.weapons:
            raise table.error(f"weapons[{index}]", f"no weapon {weapon_id!r}")
        weapons.append(catalogue.weapons[weapon_id])
    return TrooperSheet(trooper_id, owner, profile, tuple(weapons), cost, **flags)


def _army(source: str, where: str, raw: Any, catalogue: Catalogue, points: int
          ) -> tuple[str, list[TrooperSheet]]:
    table = expect_keys(table_of(source, where, raw, "must be a table with player and "
                                                     "troopers"), *ARMY_KEYS)
    player = table.raw("player", None)
    if not isinstance(player, str) or not PLAYER_NAME.match(player):
        raise table.error("player", "must be a player name (letters, digits)")
    troopers = table.raw("troopers", None)
    if not isinstance(troopers, list) or not troopers:
        raise table.error("troopers", "must list at least one trooper")
    sheets = [_trooper(source, f"{where}.troopers[{i}]", t, player, catalogue)
              for i, t in enumerate(troopers)]
    total = sum(sheet.cost for sheet in sheets)
    if total > points:
        raise table.error("troopers", f"{player}'s Army List costs {total} points, more than "
                                      f"the {points} Army Points agreed")
    lieutenants = [sheet.id for sheet in sheets if sheet.lieutenant]
    if len(lieutenants) != 1:
        raise table.error("troopers", f"{player}'s Army List needs exactly one Lieutenant, "
                                      f"not {len(lieutenants)}")
    return player, sheets


def load_armies(source: str, text: str, catalogue: Catalogue) -> ArmySetup:
    """Read the game's setup (Army Points, rounds, who goes first, both Army Lists).

    Raises:
        SetupError: naming ``source``, the key path and what is wrong.
    """
    top = expect_keys(Table(source, load_toml(source, text)), *TOP_KEYS)
    game = expect_keys(table_of(source, "game", top.raw("game", None),
                                "is missing (points, rounds, first)"), *GAME_KEYS)
    points = game.raw("points", None)
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        raise game.error("points", "must be a whole number of Army Points > 0")
    rounds = game.raw("rounds", 3)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 10:
        raise game.error("rounds", "must be a number of Game Rounds from 1 to 10")
    armies = top.raw("armies", None)
    if not isinstance(armies, list) or len(armies) != 2:
        raise top.error("armies", "must hold exactly two [[armies]] (two players)")
    lists = [_army(source, f"armies[{i}]", raw, catalogue, points)
             for i, raw in enumerate(armies)]
    players = (lists[0][0], lists[1][0])
    if players[0].lower() == players[1].lower():
        raise SetupError(source, "armies[1].player", "both armies have the same player")
    first = game.raw("first", players[0])
    names = {p.lower(): p for p in players}
    if not isinstance(first, str) or first.lower() not in names:
        raise game.error("first", f"must be one of {', '.join(players)}")
    if names[first.lower()] != players[0]:
        players = (players[1], players[0])
    sheets = [sheet for _, army in lists for sheet in army]
    seen: set[str] = set()
    for sheet in sheets:
        if sheet.id.lower() in seen or sheet.id.lower() in names:
            raise SetupError(source, "armies", f"the name {sheet.id!r} is used twice")
        seen.add(sheet.id.lower())
    return ArmySetup(players, points, rounds, tuple(sheets))
