"""The field's first level, kept by the camera while the builder lays it out (issue 12).

A stacked field is read on its first level, photographed before anything was stacked on it
(:mod:`vision.readers.ground3d`): that photo shows every block the stacking will hide, and
where each top stands. "Keep level 1" on the set-up screen keeps it when the players think
of it; this watch keeps it by itself. The set-up screen reads the camera every few seconds
while it is open and offers each reading here:

- a reading with a hand over the table is passed over (the hand hides blocks);
- a reading whose blocks all stand on the table, the same as the reading before it (no
  block moved, none added or taken away: the builder has let go), is the first level now.
  A block seen before keeps the place first seen, so a block of its colour set squarely on
  it later does not move it; blocks taken away leave it;
- a reading with a block above the table, or a block of another colour where a kept one
  stood, means the stacking has begun: the first level kept stays as it is from then on.

Example:
    >>> from types import SimpleNamespace as B
    >>> def reading(*blocks, hands=False):
    ...     return B(present=lambda: list(blocks), hands_in_view=hands)
    >>> watch = FirstLevelWatch()
    >>> white = B(colour="white", centre=(100.0, 100.0), angle=0.0, level=1)
    >>> red = B(colour="red", centre=(141.0, 100.0), angle=0.0, level=1)
    >>> watch.offer(reading(white, red)), watch.offer(reading(white, red))
    ('unsteady', 'kept')
    >>> len(watch.ground), watch.stacking_seen
    (2, False)
    >>> on_top = B(colour="blue", centre=(120.0, 100.0), angle=0.0, level=2)
    >>> watch.offer(reading(white, red, on_top)), len(watch.ground), watch.stacking_seen
    ('stacked', 2, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

STEADY_MM = 3.0
"""Two readings agree on a block read within this of itself (mm): a top is placed to a
millimetre or two, and a block the builder is still moving shifts more."""

SAME_PLACE_MM = 6.0
"""A block read within this of a kept one stands where it stood (as
:data:`vision.readers.ground3d.SAME_BLOCK_MM`)."""


class FirstLevelWatch:
    """What the camera has seen of the first level so far.

    Attributes:
        ground: the first level kept (:func:`vision.readers.ground3d.ground_block` blocks;
            empty until the camera has seen it steady).
        stacking_seen: a block went up on the first level since it was kept: the stacked
            field is to be read on it, and it changes no more.
        photo: the first frame the first level, as kept now, was read on, with its pose
            (the reader compares the stacked frame with it; None until kept or when not
            given).
    """

    def __init__(self, block_mm: float = 40.0) -> None:
        self.block_mm = block_mm
        self.ground: list[Any] = []
        self.stacking_seen = False
        self.photo: Any = None
        self._last: list[Any] | None = None

    def offer(self, draft: Any, photo: Any = None) -> str:
        """Take the camera's latest reading of the table (a :class:`FieldDraft`).

        ``photo``: the frame it was read on (:meth:`Capture.photo`), kept with the first
        level.

        Returns:
            ``"hand"`` (passed over), ``"unsteady"`` (the table changed since the last
            reading: wait), ``"kept"`` (the first level is this reading's), ``"stacked"``
            (stacking began; the first level kept stays) or ``"empty"`` (no block yet).
        """
        if self.stacking_seen:
            return "stacked"
        if draft.hands_in_view:
            return "hand"
        blocks = [b for b in draft.present() if b.colour is not None]
        if any(b.level > 1 for b in blocks) or self._covered(blocks):
            self.stacking_seen = bool(self.ground)
            return "stacked" if self.stacking_seen else "unsteady"
        last, self._last = self._last, blocks
        if not blocks:
            return "empty"
        if last is None or not _agree(last, blocks):
            return "unsteady"
        merged = self._merged(blocks)
        if self.photo is None or {id(b) for b in merged} != {id(b) for b in self.ground}:
            self.photo = photo  # the first frame of this first level: a block of a
        self.ground = merged    # colour set on its like unseen later does not replace it
        return "kept"

    def _covered(self, blocks: Sequence[Any]) -> bool:
        """Whether a kept block's place now shows a top of another colour and none of its."""
        for kept in self.ground:
            near = [b for b in blocks if _apart(b.centre, kept.centre) < SAME_PLACE_MM]
            if near and all(b.colour != kept.colour for b in near):
                return True
        return False

    def _merged(self, blocks: Sequence[Any]) -> list[Any]:
        from vision.readers.ground3d import ground_block

        out = []
        for b in blocks:
            kept = next((g for g in self.ground if g.colour == b.colour
                         and _apart(g.centre, b.centre) < SAME_PLACE_MM), None)
            out.append(kept if kept is not None
                       else ground_block(b.colour, b.centre, b.angle, self.block_mm,
                                         getattr(b, "size_mm", None)))
        return out


def _apart(a: Sequence[float], b: Sequence[float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _agree(before: Sequence[Any], now: Sequence[Any]) -> bool:
    """Whether two readings show the same blocks, each where it was (:data:`STEADY_MM`)."""
    if len(before) != len(now):
        return False
    return all(any(o.colour == b.colour and _apart(o.centre, b.centre) < STEADY_MM
                   for o in before) for b in now)
