"""Infinities: Defiance of Fate: the rules engine (``GAME``).

Modules by concern: ``data`` / ``catalog`` / ``loading`` (printed data and setup files),
``board`` (hex map), ``state``, ``actions`` (notation), ``flow`` (setup steps, turns,
rounds), ``dice`` (action checks, gambits), ``card_actions`` (Tide and Power actions),
``movement`` (Fortitude actions), ``damage`` (damage, defeat, respawn), ``queue_actions``
(card texts, protection, the queue, scoring actions), ``scoring`` (end and tie-breakers),
``legal`` (legal action listing), ``engine`` (the :class:`~companion.games.core.Game`).

Example:
    >>> GAME.name, GAME.rulebook
    ('defiance', 'infinities-defiance-of-fate')
"""

from __future__ import annotations

from companion.games.defiance.engine import DefianceGame

GAME = DefianceGame()

__all__ = ["GAME", "DefianceGame"]
