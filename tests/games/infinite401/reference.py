"""A slow, obviously correct listing of legal actions: try every conceivable action.

Test-only (moved out of the shipped package, issue 16): it is the baseline of
``bench/infinite401_legal.py`` and the oracle the tests compare
:func:`companion.games.infinite401.legal.legal_actions` with: every action text that could
be written for the position (every unit to every space, every card from every source or none
onto every set of up to 3 units, every cycle, end and score) is applied, and the accepted ones
are kept. The straight-line table is emptied first, so every line is worked out again by
exact clipping against the spaces of its bounding box.

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> from companion.games.infinite401.legal import legal_actions
    >>> state = example_state()
    >>> [str(a) for a in reference_legal_actions(state)] == [str(a) for a in legal_actions(state)]
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from companion.games.core import IllegalAction
from companion.games.infinite401.actions import Action, Cycle, End, Move, Play, Score
from companion.games.infinite401.board import SIDES
from companion.games.infinite401.geometry import line_cells
from companion.games.infinite401.state import State

MAX_TARGETS = 3


def conceivable_actions(state: State) -> Iterator[Action]:
    """Every turn action that can be written for ``state``'s board, units and cards."""
    board = state.setup.board
    names = [u.name for u in state.units]
    spaces = [(c, r) for c in range(board.width) for r in range(board.height)]
    cards = [card.name for card in state.setup.cards.abilities]
    groups = [g for n in range(1, MAX_TARGETS + 1) for g in combinations(names, n)]
    for side in SIDES:
        yield End(side)
        for unit in names:
            for space in spaces:
                yield Move(side, unit, space)
                for target in names:
                    yield Score(side, unit, space, target)
        for card in cards:
            yield Cycle(side, card)
            for source in ["", *names]:
                for group in groups:
                    yield Play(side, card, source, group)


def reference_legal_actions(state: State) -> list[Action]:
    """The accepted actions among :func:`conceivable_actions`, sorted by notation text.

    Only for positions in a turn (not the starting steps).
    """
    from companion.games.infinite401 import GAME

    line_cells.cache_clear()
    if GAME.outcome(state) is not None:
        return []
    legal = []
    for action in conceivable_actions(state):
        try:
            GAME.apply(state, action)
        except IllegalAction:
            continue
        legal.append(action)
    return sorted(legal, key=str)
