"""Infinity (third edition, introductory rules).

Rolls, Face to Face, ARM, Wounds, Orders, AROs, Private Information, and the exact odds of
a declared exchange (:mod:`.odds`).

Example:
    >>> GAME.name
    'infinity'
"""

from .engine import GAME, InfinityGame

__all__ = ["GAME", "InfinityGame"]
