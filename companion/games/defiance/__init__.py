"""Infinities: Defiance of Fate: the rules engine (``GAME``).

The layout every game follows: ``game`` (:class:`DefianceGame`, dispatch only, and
``GAME``), ``state`` (the state, ``Phase``), ``actions`` (one typed action per verb and
``parse_action``), ``setup`` (files and options in, :class:`~.setup.Rules` out),
``rulebook`` (``RULEBOOK``, the sections cited, ``Refusal``, ``Termination``), ``info``
(``INFO``: players, files, options, shipped setups). Then one module per concern: ``data`` /
``catalog`` / ``shipped`` (printed data, its readers, the shipped files), ``board`` (hex
map), ``flow`` (setup steps, turns, rounds), ``dice`` (action checks, gambits),
``card_actions`` (Tide and Power actions), ``movement`` (Fortitude actions), ``damage``
(damage, defeat, respawn), ``cardops`` (decks, hands, discards), ``card_effects`` and
``queue_actions`` (card texts, protection, the queue, scoring actions), ``scoring`` (end and
tie-breakers), ``legal`` (legal action listing), ``describe`` (event wording).

Example:
    >>> GAME.name, GAME.rulebook
    ('defiance', 'infinities-defiance-of-fate')
"""

from __future__ import annotations

from companion.games.defiance.game import GAME, DefianceGame

__all__ = ["GAME", "DefianceGame"]
