"""401 Infinite: the two-player tactics game, refereed (``shared/rules/401-infinite.md``).

Modules by concern: ``board`` (grid data, ASCII-map loading, checker), ``cardset`` (ability
cards and passives as data), ``geometry`` (steps and straight lines), ``movement``,
``targeting``, ``effects`` (HP, status, positionals), ``hp`` (indicators, HP token, landing),
``turns`` (starts and card flow), ``legal`` (legal-action listing), ``notation``, ``state``
and ``engine`` (the contract). Shipped data: ``boards/default.toml``, ``cards/default.toml``.

Example:
    >>> GAME.name, GAME.rulebook
    ('401', '401-infinite')
"""

from companion.games.infinite401.engine import GAME, Infinite401

__all__ = ["GAME", "Infinite401"]
