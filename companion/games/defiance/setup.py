"""A game's setup: the setup file, the data files and the options in, :class:`Rules` out.

Sources (role -> ``(name, TOML text)``): ``setup`` (required: mode, players, teams, the two
settings), and the data files ``leaders``, ``tiles``, ``cards``, ``roles`` (Skirmish and
Quickplay) and ``chapters`` (Adventure), read by :mod:`~companion.games.defiance.catalog`.
Every file goes through :class:`~companion.games.datafile.Table`, so a misspelt key is an
error naming it and the closest valid key; the options (``mode``, ``players``, ``teams``) are
checked by :meth:`~companion.games.info.GameInfo.check_options` first.

Example:
    >>> MODE_LIMITS["quickplay"]
    (4, 6, ((1, 3), (2, 3), (3, 3)))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml
from companion.games.defiance.catalog import (
    NAME,
    choice,
    read_cards,
    read_chapters,
    read_leaders,
    read_roles,
    read_tiles,
    word,
)
from companion.games.defiance.data import MODES, Card, Chapter, Leader, Role, Tile
from companion.games.defiance.info import INFO


@dataclass(frozen=True)
class Rules:
    """The checked setup of one game (what :meth:`DefianceGame.load_setup` returns).

    Attributes:
        mode: ``skirmish``, ``quickplay`` or ``adventure``.
        teams_mode: whether leaders play in teams (rulebook 1.1).
        players: the players in seating (clockwise) order.
        teams: (player, team) pairs; in free-for-all each player is a team of one.
        settings: (setting, faction) pairs of the two settings in play.
        leaders: the leader playmats to choose from.
        tiles: every setting tile, the Rift first.
        cards: the cards of the faction decks in play.
        roles: the Roles deck (empty in Adventure).
        reveal: how many Roles are revealed (6 Skirmish, 4 Quickplay, 0 Adventure).
        round_limit: the game ends at the end of this round (10 Skirmish, 6 Quickplay).
        targets: (team size, points) that end the game at the end of the round.
        chapter: the Adventure chapter played, if any.
    """

    mode: str
    teams_mode: bool
    players: tuple[str, ...]
    teams: tuple[tuple[str, str], ...]
    settings: tuple[tuple[str, str], ...]
    leaders: tuple[Leader, ...]
    tiles: tuple[Tile, ...]
    cards: tuple[Card, ...]
    roles: tuple[Role, ...]
    reveal: int
    round_limit: int
    targets: tuple[tuple[int, int], ...]
    chapter: Chapter | None

    # Lookups are cached on the instance (not fields: equality, hashing and JSON ignore them).
    @cached_property
    def _leaders(self) -> dict[str, Leader]:
        return {leader.id: leader for leader in self.leaders}

    @cached_property
    def _tiles(self) -> dict[str, Tile]:
        return {tile.id: tile for tile in self.tiles}

    @cached_property
    def _cards(self) -> dict[str, Card]:
        return {card.id: card for card in self.cards}

    @cached_property
    def _teams(self) -> dict[str, str]:
        return dict(self.teams)

    @cached_property
    def printed_walls(self) -> dict[str, tuple[int, ...]]:
        """Tile id -> its printed walls (for :meth:`Board.build`)."""
        return {tile.id: tile.walls for tile in self.tiles}

    def leader(self, leader_id: str) -> Leader:
        """The leader called ``leader_id`` (exact id)."""
        return self._leaders[leader_id]

    def tile(self, tile_id: str) -> Tile:
        """The tile called ``tile_id`` (exact id)."""
        return self._tiles[tile_id]

    def card(self, card_id: str) -> Card:
        """The card called ``card_id`` (exact id)."""
        return self._cards[card_id]

    def has_card(self, card_id: str) -> bool:
        """Whether ``card_id`` is a card of the decks in play."""
        return card_id in self._cards

    def team_of(self, player: str) -> str:
        """The team (side) of ``player``."""
        return self._teams[player]

    def team_members(self, team: str) -> tuple[str, ...]:
        """The players of ``team`` in seating order."""
        return tuple(p for p, t in self.teams if t == team)

    def target_for(self, team: str) -> int:
        """The points at which ``team`` ends the game (rulebook 1.1.1 / 1.1.2)."""
        size = len(self.team_members(team))
        table = dict(self.targets)
        return table.get(size, max(table.values()))

    def factions(self) -> tuple[str, ...]:
        """The factions in play, sorted."""
        return tuple(sorted({faction for _, faction in self.settings}))

    def faction_of_setting(self, setting: str) -> str:
        """The faction matching ``setting``."""
        return dict(self.settings)[setting]


MODE_LIMITS: dict[str, tuple[int, int, tuple[tuple[int, int], ...]]] = {
    "skirmish": (6, 10, ((1, 5), (2, 8), (3, 10))),
    "quickplay": (4, 6, ((1, 3), (2, 3), (3, 3))),
    "adventure": (0, 0, ((1, 0),)),
}
"""Mode -> (Roles revealed, last round, (team size, points that end the game)).

Rulebook 1.1.1 (Skirmish: 5 / 8 / 10 points, round 10) and 1.1.2 (Quickplay: 4 Roles,
3 points, round 6; the rulebook gives one figure, used for teams of any size)."""


def load_setup(sources: Mapping[str, tuple[str, str]], options: Mapping[str, Any]) -> Rules:
    """Read and cross-check a whole game setup: the setup file, the data files, the options.

    Raises:
        SetupError: naming the file (or ``options``), the key and what is wrong.

    Example:
        >>> load_setup({}, {})
        Traceback (most recent call last):
        companion.games.errors.SetupError: setup: a game setup file is required
        >>> load_setup({}, {"tems": True})
        Traceback (most recent call last):
        companion.games.errors.SetupError: options: tems: unknown option; did you mean \
'teams'? (expected one of: mode, players, teams)
    """
    options = INFO.check_options(options)
    if "setup" not in sources:
        raise SetupError("setup", "", "a game setup file is required")
    name, text = sources["setup"]
    with Table(name, load_toml(name, text)) as root:
        game = root.table("game", {})
    file_mode = choice(game, "mode", MODES)
    mode = str(options.get("mode", file_mode))
    players = _players(game, options)
    file_teams = game.flag("teams", False)
    teams_mode = bool(options.get("teams", file_teams))
    teams = _teams(game, players, teams_mode)
    settings = _settings(game)
    factions = {faction for _, faction in settings}
    for known in ("team", "chapter"):
        game.has(known)  # read below, or unused in this mode: never unknown
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
        wanted = word(game, "chapter")
        chapters = {c.id.lower(): c for c in read_chapters(need("chapters"))}
        if wanted.lower() not in chapters:
            raise game.error("chapter", f"{wanted!r} is not a chapter of {need('chapters')[0]}")
        chapter = chapters[wanted.lower()]
        round_limit = chapter.round_limit
        for cond in chapter.conditions:
            if cond.scope == "faction" and cond.faction not in factions:
                raise SetupError(need("chapters")[0], f"chapter {chapter.id}",
                                 f"condition {cond.id} names faction {cond.faction!r} "
                                 "which is not in play")
    return Rules(mode, teams_mode, players, teams, settings, leaders, tiles, cards, roles,
                 reveal, round_limit, targets, chapter)


def _players(game: Table, options: Mapping[str, Any]) -> tuple[str, ...]:
    written = game.texts("players")
    players = [str(p) for p in options.get("players") or written]
    if not INFO.players.accepts(len(players)):
        raise game.error("players", f"{INFO.players.minimum}-{INFO.players.maximum} players "
                                    f"play, not {len(players)}")
    for player in players:
        if not NAME.match(player):
            raise game.error("players", f"{player!r} must be one word")
    if len({p.lower() for p in players}) != len(players):
        raise game.error("players", "names a player twice")
    return tuple(players)


def _teams(game: Table, players: tuple[str, ...],
           teams_mode: bool) -> tuple[tuple[str, str], ...]:
    if not teams_mode:
        return tuple((p, p) for p in players)
    table = game.table("team", {})
    found: dict[str, str] = {}
    names = table.keys()
    for team in names:
        members = table.texts(team)
        for member in members:
            if member not in players:
                raise table.error(team, f"{member!r} is not one of the players")
            if member in found:
                raise table.error(team, f"{member!r} is already in team {found[member]}")
            found[member] = team
        if not 1 <= len(members) <= 3:
            raise table.error(team, "a team has 1 to 3 leaders")
    missing = [p for p in players if p not in found]
    if missing or len(set(found.values())) < 2:
        raise SetupError(table.source, table.where,
                         f"every player needs a team, and two teams at least "
                         f"(missing: {', '.join(missing) or 'none'})")
    return tuple((p, found[p]) for p in players)


def _settings(game: Table) -> tuple[tuple[str, str], ...]:
    table = game.table("settings", {})
    names = table.keys()
    pairs = tuple(sorted((str(s), word(table, s)) for s in names))
    if len(pairs) != 2:
        raise game.error("settings", "choose exactly two settings (setting = \"faction\")")
    if pairs[0][1] == pairs[1][1]:
        raise game.error("settings", "the two settings need different factions")
    return pairs
