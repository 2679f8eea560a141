"""Infinidungeon: the solo dungeon of 9 cards and 5 dice, refereed with an exact advisor.

Modules, in the layout every game follows (``docs/engine-contract.md``): ``game`` (the
engine contract, dispatch only: ``GAME``), ``state`` (the state and its ``Phase``),
``actions`` (typed actions and their notation), ``setup`` (reading a deck file),
``rulebook`` (the sections cited, refusal and end codes), ``info`` (players, files, shipped
deck); then one module per concern: ``deck`` (card data), ``deck_check`` (the deck against
the rulebook), ``turns`` (what each phase awaits, each action's step), ``movement``
(doorways, traps, drawing), ``combat`` (dice against monsters), ``rooms`` (facing the
room), ``advisor`` (exact reroll odds) and ``simulate`` (whole games on the advisor's
policy).

Example:
    >>> GAME.name, GAME.rulebook
    ('infinidungeon', 'infinidungeon')
"""

from companion.games.infinidungeon.advisor import Advice, ChoiceOdds, advise
from companion.games.infinidungeon.deck_check import DeckProblem, check_deck
from companion.games.infinidungeon.game import GAME, InfinidungeonGame
from companion.games.infinidungeon.setup import deck_from_toml
from companion.games.infinidungeon.state import DungeonState, Phase

__all__ = ["GAME", "Advice", "ChoiceOdds", "DeckProblem", "DungeonState", "InfinidungeonGame",
           "Phase", "advise", "check_deck", "deck_from_toml"]
