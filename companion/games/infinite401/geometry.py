"""Movement and lines on the grid: orthogonal steps, straight lines between space centres.

Movement (``docs/401-infinite.md`` "Counting movement"): a unit steps from a space to one of
its four orthogonal neighbours; each step is one space. A straight line between two spaces is
the segment joining their centres; it *hits* a space when it passes through that space's
interior (grazing a corner does not count).

Example:
    >>> line_cells((0, 0), (2, 0))
    ((1, 0),)
    >>> sorted(reachable((0, 0), 1, lambda s: True, 3, 3))
    [(0, 1), (1, 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache

Space = tuple[int, int]

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""The four orthogonal steps."""

HALF = Fraction(1, 2)


def crosses_interior(a: Space, b: Space, cell: Space) -> bool:
    """Whether the segment between the centres of ``a`` and ``b`` enters ``cell``'s interior.

    Exact (rational) clipping of the segment against the open unit square of ``cell``.

    Example:
        >>> crosses_interior((0, 0), (2, 2), (1, 1)), crosses_interior((0, 0), (2, 2), (1, 0))
        (True, False)
    """
    low, high = Fraction(0), Fraction(1)
    for axis in (0, 1):
        start, delta, centre = a[axis], b[axis] - a[axis], cell[axis]
        if delta == 0:
            if start != centre:
                return False
            continue
        t1 = (centre - HALF - start) / delta
        t2 = (centre + HALF - start) / delta
        low, high = max(low, min(t1, t2)), min(high, max(t1, t2))
    return low < high


@cache
def line_cells(a: Space, b: Space) -> tuple[Space, ...]:
    """The spaces strictly between ``a`` and ``b`` whose interior the straight line crosses.

    Only the bounding box is searched; the result is cached (it does not depend on the board).

    Example:
        >>> line_cells((0, 0), (3, 1))
        ((1, 0), (2, 1))
    """
    columns = range(min(a[0], b[0]), max(a[0], b[0]) + 1)
    rows = range(min(a[1], b[1]), max(a[1], b[1]) + 1)
    return tuple(sorted(((c, r) for c in columns for r in rows
                         if (c, r) not in (a, b) and crosses_interior(a, b, (c, r))),
                        key=lambda s: abs(s[0] - a[0]) + abs(s[1] - a[1])))


def neighbours(space: Space, width: int, height: int) -> Iterable[Space]:
    """The orthogonal neighbours of ``space`` on a ``width`` x ``height`` grid.

    Example:
        >>> sorted(neighbours((0, 0), 3, 3))
        [(0, 1), (1, 0)]
    """
    c, r = space
    for dc, dr in STEPS:
        step = (c + dc, r + dr)
        if 0 <= step[0] < width and 0 <= step[1] < height:
            yield step


def reachable(start: Space, steps: int, passable: Callable[[Space], bool], width: int,
              height: int) -> dict[Space, tuple[Space, ...]]:
    """Every space reachable in 1..``steps`` orthogonal steps through ``passable`` spaces.

    Args:
        start: where the unit stands.
        steps: the most spaces it may move.
        passable: whether a unit may step into a space (it may still not end there).
        width: columns of the grid.
        height: rows of the grid.

    Returns:
        space -> one shortest path to it (the spaces entered, in order), ``start`` excluded.

    Example:
        >>> reachable((0, 0), 2, lambda s: s != (1, 0), 2, 2)[(1, 1)]
        ((0, 1), (1, 1))
    """
    paths: dict[Space, tuple[Space, ...]] = {start: ()}
    frontier = [start]
    for _ in range(steps):
        next_frontier = []
        for space in frontier:
            for step in neighbours(space, width, height):
                if step not in paths and passable(step):
                    paths[step] = (*paths[space], step)
                    next_frontier.append(step)
        frontier = next_frontier
    del paths[start]
    return paths


def is_step(a: Space, b: Space) -> bool:
    """Whether ``b`` is one orthogonal step from ``a``.

    Example:
        >>> is_step((0, 0), (0, 1)), is_step((0, 0), (1, 1))
        (True, False)
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def direction(a: Space, b: Space) -> Space:
    """The step from ``a`` toward ``b``: along the longer axis, diagonal when equal.

    Example:
        >>> direction((0, 0), (3, 1)), direction((0, 0), (2, 2)), direction((2, 0), (0, 0))
        ((1, 0), (1, 1), (-1, 0))
    """
    dc, dr = b[0] - a[0], b[1] - a[1]
    sc = (dc > 0) - (dc < 0)
    sr = (dr > 0) - (dr < 0)
    if abs(dc) > abs(dr):
        return sc, 0
    if abs(dr) > abs(dc):
        return 0, sr
    return sc, sr
