"""Infinity (third edition, introductory rules).

Rolls, Face to Face, ARM, Wounds, Orders, AROs, Private Information, and the exact odds of
a declared exchange (:mod:`.odds`). The modules, in the layout every game follows
(docs/engine-contract.md):

- :mod:`.game`: ``InfinityGame`` (dispatch only) and ``GAME``;
- :mod:`.state`: the state, its :class:`~.state.Phase`, what an opponent may see;
- :mod:`.actions`: the typed actions and ``parse_action``;
- :mod:`.setup`: files and options in, an :class:`~.army.ArmySetup` out, through
  :mod:`.profile_loading` (profile data) and :mod:`.army` (Army Lists);
- :mod:`.rulebook`: the rulebook's sections, :class:`~.rulebook.Refusal` and
  :class:`~.rulebook.Termination`;
- :mod:`.info`: players, setup files and the shipped setup;
- then one module per concern: :mod:`.orders` (the flow of an Order), :mod:`.attacks`
  (declarations and their rolls), :mod:`.resolution` (dice, Wounds, turns, the end),
  :mod:`.choices` (the listed declarations), :mod:`.rolls`, :mod:`.armour`,
  :mod:`.profiles`, :mod:`.odds` and :mod:`.odds_report` (exact odds), :mod:`.describe`
  (event lines).

Example:
    >>> GAME.name, GAME.rulebook
    ('infinity', 'infinity-n3-intro')
"""

from .game import GAME, InfinityGame

__all__ = ["GAME", "InfinityGame"]
