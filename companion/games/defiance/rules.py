"""Everything fixed for one game: mode, seats, teams and the printed data in play.

Example:
    >>> Rules.__name__
    'Rules'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from companion.games.defiance.data import Card, Chapter, Leader, Role, Tile


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
