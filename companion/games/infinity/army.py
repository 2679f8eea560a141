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
from companion.games.datafile import unknown_key_problem

from .profile_loading import parse_toml
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

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON-ready data."""
        return {"id": self.id, "owner": self.owner, "profile": self.profile.to_json(),
                "weapons": [w.to_json() for w in self.weapons], "cost": self.cost,
                "lieutenant": self.lieutenant, "hidden": self.hidden}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrooperSheet:
        """Rebuild a sheet from :meth:`to_json` output."""
        return cls(data["id"], data["owner"], Profile.from_json(data["profile"]),
                   tuple(Weapon.from_json(w) for w in data["weapons"]), int(data["cost"]),
                   bool(data["lieutenant"]), bool(data["hidden"]))


@dataclass(frozen=True)
class ArmySetup:
    """The game as agreed: players in turn order, Army Points, rounds and the Army Lists."""

    players: tuple[str, str]
    points: int
    rounds: int
    sheets: tuple[TrooperSheet, ...]


TOP_KEYS = frozenset({"game", "armies"})
GAME_KEYS = frozenset({"points", "rounds", "first"})
ARMY_KEYS = frozenset({"player", "troopers"})
TROOPER_KEYS = frozenset({"id", "profile", "cost", "lieutenant", "hidden", "weapons"})


def _refuse_unknown(source: str, where: str, table: dict[str, Any],
                    allowed: frozenset[str]) -> None:
    """Refuse the first key of ``table`` not in ``allowed``, naming the closest valid one."""
    for key in table:
        if key not in allowed:
            path = f"{where}.{key}" if where else key
            raise SetupError(source, path, unknown_key_problem(key, allowed))


def _trooper(source: str, where: str, raw: Any, owner: str, catalogue: Catalogue) -> TrooperSheet:
    if not isinstance(raw, dict):
        raise SetupError(source, where, "must be a table {id = ..., profile = ..., cost = ...}")
    _refuse_unknown(source, where, raw, TROOPER_KEYS)
    trooper_id = raw.get("id")
    if not isinstance(trooper_id, str) or not TROOPER_ID.match(trooper_id):
        raise SetupError(source, f"{where}.id", "must be a name of letters, digits, - and _ "
                                                "starting with a letter")
    profile_id = raw.get("profile")
    if not isinstance(profile_id, str) or profile_id not in catalogue.profiles:
        raise SetupError(source, f"{where}.profile",
                         f"no profile {profile_id!r}; known: {', '.join(catalogue.profiles)}")
    profile = catalogue.profiles[profile_id]
    cost = raw.get("cost")
    if isinstance(cost, bool) or not isinstance(cost, int) or cost < 0:
        raise SetupError(source, f"{where}.cost", "must be a whole number of Army Points >= 0")
    flags = {}
    for flag in ("lieutenant", "hidden"):
        value = raw.get(flag, False)
        if not isinstance(value, bool):
            raise SetupError(source, f"{where}.{flag}", "must be true or false")
        flags[flag] = value
    weapon_ids = raw.get("weapons", list(profile.weapons))
    if not isinstance(weapon_ids, list) or not weapon_ids:
        raise SetupError(source, f"{where}.weapons", "must be a non-empty list of weapon ids")
    weapons = []
    for index, weapon_id in enumerate(weapon_ids):
        if not isinstance(weapon_id, str) or weapon_id not in catalogue.weapons:
            raise SetupError(source, f"{where}.weapons[{index}]", f"no weapon {weapon_id!r}")
        weapons.append(catalogue.weapons[weapon_id])
    return TrooperSheet(trooper_id, owner, profile, tuple(weapons), cost, **flags)


def _army(source: str, where: str, raw: Any, catalogue: Catalogue, points: int
          ) -> tuple[str, list[TrooperSheet]]:
    if not isinstance(raw, dict):
        raise SetupError(source, where, "must be a table with player and troopers")
    _refuse_unknown(source, where, raw, ARMY_KEYS)
    player = raw.get("player")
    if not isinstance(player, str) or not PLAYER_NAME.match(player):
        raise SetupError(source, f"{where}.player", "must be a player name (letters, digits)")
    troopers = raw.get("troopers")
    if not isinstance(troopers, list) or not troopers:
        raise SetupError(source, f"{where}.troopers", "must list at least one trooper")
    sheets = [_trooper(source, f"{where}.troopers[{i}]", t, player, catalogue)
              for i, t in enumerate(troopers)]
    total = sum(sheet.cost for sheet in sheets)
    if total > points:
        raise SetupError(source, f"{where}.troopers",
                         f"{player}'s Army List costs {total} points, more than the {points} "
                         f"Army Points agreed")
    lieutenants = [sheet.id for sheet in sheets if sheet.lieutenant]
    if len(lieutenants) != 1:
        raise SetupError(source, f"{where}.troopers", f"{player}'s Army List needs exactly one "
                                                      f"Lieutenant, not {len(lieutenants)}")
    return player, sheets


def load_armies(source: str, text: str, catalogue: Catalogue) -> ArmySetup:
    """Read the game's setup (Army Points, rounds, who goes first, both Army Lists).

    Raises:
        SetupError: naming ``source``, the key path and what is wrong.
    """
    data = parse_toml(source, text)
    _refuse_unknown(source, "", data, TOP_KEYS)
    game = data.get("game")
    if not isinstance(game, dict):
        raise SetupError(source, "game", "is missing (points, rounds, first)")
    _refuse_unknown(source, "game", game, GAME_KEYS)
    points = game.get("points")
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        raise SetupError(source, "game.points", "must be a whole number of Army Points > 0")
    rounds = game.get("rounds", 3)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 10:
        raise SetupError(source, "game.rounds", "must be a number of Game Rounds from 1 to 10")
    armies = data.get("armies")
    if not isinstance(armies, list) or len(armies) != 2:
        raise SetupError(source, "armies", "must hold exactly two [[armies]] (two players)")
    lists = [_army(source, f"armies[{i}]", raw, catalogue, points)
             for i, raw in enumerate(armies)]
    players = (lists[0][0], lists[1][0])
    if players[0].lower() == players[1].lower():
        raise SetupError(source, "armies[1].player", "both armies have the same player")
    first = game.get("first", players[0])
    names = {p.lower(): p for p in players}
    if not isinstance(first, str) or first.lower() not in names:
        raise SetupError(source, "game.first", f"must be one of {', '.join(players)}")
    if names[first.lower()] != players[0]:
        players = (players[1], players[0])
    sheets = [sheet for _, army in lists for sheet in army]
    seen: set[str] = set()
    for sheet in sheets:
        if sheet.id.lower() in seen or sheet.id.lower() in names:
            raise SetupError(source, "armies", f"the name {sheet.id!r} is used twice")
        seen.add(sheet.id.lower())
    return ArmySetup(players, points, rounds, tuple(sheets))
