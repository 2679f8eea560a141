"""Infinidungeon: the solo dungeon of 9 cards and 5 dice, refereed with an exact advisor.

Modules: ``deck`` (card data), ``deck_toml`` (reading a deck), ``deck_check`` (the deck
against the rulebook), ``state``, ``notation``, ``movement`` (doorways, traps, drawing),
``combat`` (dice against monsters), ``rooms`` (facing the room), ``engine`` (the contract),
``advisor`` (exact reroll odds) and ``simulate`` (whole games on the advisor's policy).

Example:
    >>> GAME.name
    'infinidungeon'
"""

from companion.games.infinidungeon.advisor import Advice, ChoiceOdds, advise
from companion.games.infinidungeon.deck_check import DeckProblem, check_deck
from companion.games.infinidungeon.deck_toml import deck_from_toml
from companion.games.infinidungeon.engine import GAME, Infinidungeon
from companion.games.infinidungeon.state import DungeonState

__all__ = ["GAME", "Advice", "ChoiceOdds", "DeckProblem", "DungeonState", "Infinidungeon",
           "advise", "check_deck", "deck_from_toml"]
