"""401 Infinite: the two-player tactics game, refereed (``shared/rules/401-infinite.md``).

Modules (the layout of ``docs/engine-contract.md``): ``game`` (:class:`Infinite401Game`, the
engine contract, dispatch only), ``state`` (units, cards, the Field; :class:`~.state.Phase`),
``actions`` (the typed actions and their notation), ``setup`` (board and card files and
options in, a setup out), ``rulebook`` (the sections refusals cite, refusal and end codes),
``info`` (players, files, options, shipped setups); then one module per concern: ``board``
(grid data, ASCII-map loading, checker), ``cardset`` (ability cards and passives as data),
``geometry`` (steps and straight lines), ``starting`` (the steps before the first turn),
``turns`` (a turn's actions and card flow), ``movement``, ``targeting``, ``effects`` (HP,
status, positionals), ``hp`` (indicators, HP token, landing), ``runners`` (Runner's Rule),
``victory`` (how a game ends), ``legal`` (legal-action listing), ``render`` (a plain-text
picture) and ``examples`` (the docstrings' example position). Shipped data:
``boards/default.toml``, ``cards/default.toml``.

Example:
    >>> GAME.name, GAME.rulebook
    ('401', '401-infinite')
"""

from companion.games.infinite401.game import GAME, Infinite401Game

__all__ = ["GAME", "Infinite401Game"]
