"""The colour to assume for a block that nothing of shows: the one the box has most left of.

A block under a raised top whose side faces and top are all hidden by its neighbours
gives the camera no colour at all. The set is known, though (infinifield.md, Components:
24 blocks, 8 white, 8 yellow, 6 red and 2 blue), and the reading has seen most of the
others: the likeliest colour of a hidden block is the one with the most blocks left in the
box after those read. Assumed white every time (the first reader's guess), 27 of the 87
hidden supports of the tuning families f000-f099 were right (given every other block's
true colour); the colour most left in the set, 36 of 87. Each assumption is still noted
for the players to check (:mod:`vision.readers.notes`).

Example:
    >>> likeliest_colour(["white"] * 8 + ["yellow"] * 3 + ["red"] * 2)
    'yellow'
    >>> likeliest_colour([])
    'white'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from companion.games.infinifield import BLOCK_SET, COLOURS


def likeliest_colour(read: Iterable[str]) -> str:
    """The colour with the most blocks left in the set after the blocks ``read``.

    Ties go to the colour listed first in :data:`COLOURS` (white: the most blocks and
    the set's starting positions); a reading that has used up the whole set assumes white.
    """
    left = Counter(BLOCK_SET)
    left.subtract(Counter(read))
    best = max(COLOURS, key=lambda c: (left[c], -COLOURS.index(c)))
    return best if left[best] > 0 else COLOURS[0]
