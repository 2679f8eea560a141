"""Reading a game setup: the ``[game]`` table plus the data files, checked together.

Sources (role -> ``(name, TOML text)``): ``setup`` (required: mode, players, teams, the two
settings), and the data files ``leaders``, ``tiles``, ``cards``, ``roles`` (Skirmish and
Quickplay) and ``chapters`` (Adventure). Options may override ``players`` and ``mode``.

Example:
    >>> MODE_LIMITS["quickplay"]
    (4, 6, ((1, 3), (2, 3), (3, 3)))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.core import SetupError
from companion.games.defiance.catalog import (
    read_cards,
    read_chapters,
    read_leaders,
    read_roles,
    read_tiles,
)
from companion.games.defiance.checks import NAME, TableReader, parse_toml
from companion.games.defiance.data import MODES
from companion.games.defiance.rules import Rules

MODE_LIMITS: dict[str, tuple[int, int, tuple[tuple[int, int], ...]]] = {
    "skirmish": (6, 10, ((1, 5), (2, 8), (3, 10))),
    "quickplay": (4, 6, ((1, 3), (2, 3), (3, 3))),
    "adventure": (0, 0, ((1, 0),)),
}
"""Mode -> (Roles revealed, last round, (team size, points that end the game)).

Rulebook 1.1.1 (Skirmish: 5 / 8 / 10 points, round 10) and 1.1.2 (Quickplay: 4 Roles,
3 points, round 6; the rulebook gives one figure, used for teams of any size)."""


def load_rules(sources: Mapping[str, tuple[str, str]], options: Mapping[str, Any]) -> Rules:
    """Read and cross-check a whole game setup.

    Example:
        >>> load_rules({}, {})
        Traceback (most recent call last):
        companion.games.errors.SetupError: setup: a game setup file is required
    """
    if "setup" not in sources:
        raise SetupError("setup", "", "a game setup file is required")
    name, text = sources["setup"]
    root = TableReader(name, "", parse_toml(name, text))
    game = root.sub("game")
    root.done()
    mode = str(options.get("mode") or game.choice("mode", MODES)).lower()
    if mode not in MODES:
        raise SetupError("options", "mode", f"{mode!r} is not one of {', '.join(MODES)}")
    players = _players(game, options)
    teams_mode = game.flag("teams")
    teams = _teams(game, players, teams_mode)
    settings = _settings(game)
    factions = {faction for _, faction in settings}
    for known in ("mode", "players", "team", "chapter"):
        game.has(known)  # read above, below or overridden by options: never unknown
    game.done()

    def need(role: str) -> tuple[str, str]:
        if role not in sources:
            raise SetupError(name, role, f"the {role} data file is missing")
        return sources[role]

    leaders = tuple(lead for lead in read_leaders(need("leaders")) if lead.faction in factions)
    if len(leaders) < len(players):
        raise SetupError(need("leaders")[0], "leader",
                         f"{len(players)} players need {len(players)} leaders of the factions "
                         f"in play, found {len(leaders)}")
    tiles = tuple(t for t in read_tiles(need("tiles")) if t.kind == "rift"
                  or t.setting in dict(settings))
    for setting, _ in settings:
        if not any(t.setting == setting for t in tiles):
            raise SetupError(need("tiles")[0], "tile", f"no tile of setting {setting!r}")
    cards = tuple(c for c in read_cards(need("cards")) if c.faction in factions)
    for faction in sorted(factions):
        if sum(c.copies for c in cards if c.faction == faction) < 10:
            raise SetupError(need("cards")[0], "card",
                             f"the {faction} deck needs at least 10 cards to deal and mulligan")
    reveal, round_limit, targets = MODE_LIMITS[mode]
    roles = read_roles(need("roles")) if mode != "adventure" else ()
    chapter = None
    if mode == "adventure":
        wanted = game.text("chapter", word=True)
        chapters = {c.id.lower(): c for c in read_chapters(need("chapters"))}
        if wanted.lower() not in chapters:
            raise game.fail("chapter", f"{wanted!r} is not a chapter of {need('chapters')[0]}")
        chapter = chapters[wanted.lower()]
        round_limit = chapter.round_limit
        for cond in chapter.conditions:
            if cond.scope == "faction" and cond.faction not in factions:
                raise SetupError(need("chapters")[0], f"chapter {chapter.id}",
                                 f"condition {cond.id} names faction {cond.faction!r} "
                                 "which is not in play")
    return Rules(mode, teams_mode, players, teams, settings, leaders, tiles, cards, roles,
                 reveal, round_limit, targets, chapter)


def _players(game: TableReader, options: Mapping[str, Any]) -> tuple[str, ...]:
    raw = options.get("players") or game.texts("players")
    players = [str(p) for p in raw]
    if not 2 <= len(players) <= 6:
        raise game.fail("players", f"2-6 players play, not {len(players)}")
    for player in players:
        if not NAME.match(player):
            raise game.fail("players", f"{player!r} must be one word")
    if len({p.lower() for p in players}) != len(players):
        raise game.fail("players", "names a player twice")
    return tuple(players)


def _teams(game: TableReader, players: tuple[str, ...],
           teams_mode: bool) -> tuple[tuple[str, str], ...]:
    if not teams_mode:
        return tuple((p, p) for p in players)
    table = game.sub("team")
    found: dict[str, str] = {}
    table.names()
    for team, members in table.table.items():
        for member in table.texts(team):
            if member not in players:
                raise table.fail(team, f"{member!r} is not one of the players")
            if member in found:
                raise table.fail(team, f"{member!r} is already in team {found[member]}")
            found[member] = team
        if not 1 <= len(members) <= 3:
            raise table.fail(team, "a team has 1 to 3 leaders")
    missing = [p for p in players if p not in found]
    if missing or len(set(found.values())) < 2:
        raise table.fail("", f"every player needs a team, and two teams at least "
                             f"(missing: {', '.join(missing) or 'none'})")
    return tuple((p, found[p]) for p in players)


def _settings(game: TableReader) -> tuple[tuple[str, str], ...]:
    table = game.sub("settings")
    pairs = tuple(sorted((str(s), table.text(s, word=True)) for s in table.names()))
    if len(pairs) != 2:
        raise game.fail("settings", "choose exactly two settings (setting = \"faction\")")
    if pairs[0][1] == pairs[1][1]:
        raise game.fail("settings", "the two settings need different factions")
    return pairs
