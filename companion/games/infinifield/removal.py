"""Which blocks may be removed: the four refusals of ``infinifield.md`` "Chase-and-capture" step 7.

A block cannot be removed when:

1. ``block_on_top``: one or more blocks stand fully or partially on top of it;
2. ``pawn_on_block``: a pawn stands on it;
3. ``would_split``: removing it would split the field into islands (it is a cut vertex of
   the touching graph, found with an iterative Hopcroft-Tarjan search in linear time);
4. ``enclosed``: every side of it is covered along most of its length (over half) by
   neighbours flush against it, so it cannot be taken out without shifting other blocks.

:func:`removable_blocks` is the public function the app and the vision pipeline use to show
which blocks may be removed; :func:`removal_refusals` says why the others may not.

Example:
    >>> from companion.games.infinifield.field import Block, build_field
    >>> row = build_field([Block.square(n, "red", (40 * i, 0)) for i, n in enumerate("ABC")])
    >>> removable_blocks(row, removed=(), occupied=("A",))
    ('C',)
    >>> removal_refusals(row, removed=(), occupied=("A",)) == {"A": ("pawn_on_block",),
    ...                                                          "B": ("would_split",)}
    True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from companion.games.core import refuse
from companion.games.infinifield.contacts import covered
from companion.games.infinifield.field import Field
from companion.games.infinifield.rulebook import Refusal, removal_rule

REFUSALS: dict[Refusal, str] = {
    Refusal.BLOCK_ON_TOP: "a block stands on top of {block}, so {block} cannot be removed",
    Refusal.PAWN_ON_BLOCK: "a pawn stands on {block}, so it cannot be removed",
    Refusal.WOULD_SPLIT: "removing {block} would split the field into disconnected islands",
    Refusal.ENCLOSED: "{block} is enclosed by other blocks on all sides (each side covered "
                      "along more than half its length) and cannot be removed without "
                      "shifting them",
}
"""Refusal code -> sentence template, in the rulebook's bullet order (the rule each cites:
:func:`~companion.games.infinifield.rulebook.removal_rule`)."""


def refusal_sentence(code: str, block: str) -> str:
    """The sentence a player reads for a refused removal of ``block``.

    Example:
        >>> refusal_sentence("pawn_on_block", "W2")
        'A pawn stands on W2, so it cannot be removed.'
    """
    text = REFUSALS[Refusal(code)].format(block=block)
    return text[0].upper() + text[1:] + "."


def check_removal(field: Field, removed: Collection[str], occupied: Collection[str],
                  block: str) -> None:
    """Refuse the removal of ``block`` when "Chase-and-capture" step 7 forbids it.

    The refusal cites the first bullet that applies and lists every one (``codes``).

    Raises:
        IllegalAction: ``block`` may not be removed now.

    Example:
        >>> from companion.games.core import IllegalAction
        >>> from companion.games.infinifield.field import Block, build_field
        >>> row = build_field([Block.square(n, "red", (40 * i, 0)) for i, n in enumerate("ABC")])
        >>> try:
        ...     check_removal(row, removed=(), occupied=(), block="B")
        ... except IllegalAction as refusal:
        ...     print(refusal.code, refusal.rule)
        would_split infinifield: "Chase-and-capture", step 7, bullet 3
    """
    codes = removal_refusals(field, removed, occupied).get(block)
    if codes:
        code = codes[0]
        refuse(code, refusal_sentence(code, block), removal_rule(code), block=block,
               codes=[str(c) for c in codes])


def cut_vertices(adjacency: Sequence[Sequence[int]],
                 present: Sequence[bool] | None = None) -> list[bool]:
    """Articulation points of an undirected simple graph (iterative Hopcroft-Tarjan, O(V+E)).

    Args:
        adjacency: for each vertex, its neighbours' indices.
        present: which vertices are still in the graph (all when ``None``).

    Returns:
        For each vertex, whether removing it would disconnect its component.

    Example:
        >>> cut_vertices([[1], [0, 2], [1]])
        [False, True, False]
    """
    n = len(adjacency)
    alive = present if present is not None else [True] * n
    disc = [0] * n
    low = [0] * n
    parent = [-1] * n
    position = [0] * n
    cut = [False] * n
    timer = 0
    for root in range(n):
        if disc[root] or not alive[root]:
            continue
        timer += 1
        disc[root] = low[root] = timer
        root_children = 0
        stack = [root]
        while stack:
            v = stack[-1]
            neighbours = adjacency[v]
            i = position[v]
            if i < len(neighbours):
                position[v] = i + 1
                w = neighbours[i]
                if not alive[w]:
                    continue
                if not disc[w]:
                    parent[w] = v
                    timer += 1
                    disc[w] = low[w] = timer
                    stack.append(w)
                elif w != parent[v] and disc[w] < low[v]:
                    low[v] = disc[w]
                continue
            stack.pop()
            p = parent[v]
            if p < 0:
                continue
            if low[v] < low[p]:
                low[p] = low[v]
            if p == root:
                root_children += 1
            elif low[v] >= disc[p]:
                cut[p] = True
        if root_children > 1:
            cut[root] = True
    return cut


def removal_refusals(field: Field, removed: Collection[str], occupied: Collection[str]
                     ) -> dict[str, tuple[Refusal, ...]]:
    """Why each block still on the field may not be removed (blocks that may are left out).

    Args:
        field: the field as built this round.
        removed: ids of the blocks already taken away.
        occupied: ids of the blocks with a pawn on them.

    Returns:
        Block id -> its refusal codes in rulebook order, for every block that cannot go.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> tower = build_field([Block("A", "red"), Block("B", "blue", rests_on=("A",))], [])
        >>> {block: [str(code) for code in codes]
        ...  for block, codes in removal_refusals(tower, removed=(), occupied=("B",)).items()}
        {'A': ['block_on_top'], 'B': ['pawn_on_block']}
    """
    graph = field.graph
    index = graph.index
    present = [True] * len(graph.ids)
    for block_id in removed:
        present[index[block_id]] = False
    codes: dict[int, list[Refusal]] = {}
    for i in graph.supports:  # bullet 1: blocks with something resting on them
        if present[i]:
            for j in graph.above[i]:
                if present[j]:
                    codes[i] = [Refusal.BLOCK_ON_TOP]
                    break
    for block_id in occupied:  # bullet 2
        i = index[block_id]
        if present[i]:
            codes.setdefault(i, []).append(Refusal.PAWN_ON_BLOCK)
    for i, cut in enumerate(cut_vertices(graph.adjacency, present)):  # bullet 3
        if cut:
            codes.setdefault(i, []).append(Refusal.WOULD_SPLIT)
    for i in graph.enclosable:  # bullet 4: every side covered along most of its length
        if present[i] and _enclosed(graph.sides[i], present):
            codes.setdefault(i, []).append(Refusal.ENCLOSED)
    return {graph.ids[i]: tuple(codes[i]) for i in sorted(codes)}


def _enclosed(sides: tuple[tuple[tuple[int, float, float], ...], ...],
              present: list[bool]) -> bool:
    """Bullet 4 ("surrounded by other ones on all sides"), as this referee reads it.

    Every side is covered along most of its length (over half) by neighbours still on the
    field; a side half open or more lets the block be pinched and lifted out
    (docs/infinifield.md).
    """
    for side in sides:
        for j, _, _ in side:
            if not present[j]:
                break
        else:
            continue  # every neighbour as built is there: covered (the block is enclosable)
        if not covered([(lo, hi) for j, lo, hi in side if present[j]]):
            return False
    return True


def removable_blocks(field: Field, removed: Collection[str], occupied: Collection[str]
                     ) -> tuple[str, ...]:
    """The blocks that may be removed now, in field order (what the app highlights).

    Args:
        field: the field as built this round.
        removed: ids of the blocks already taken away.
        occupied: ids of the blocks with a pawn on them.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> field = build_field([Block("A", "red"), Block("B", "red")], [("A", "B")])
        >>> removable_blocks(field, removed=(), occupied=())
        ('A', 'B')
    """
    refused = removal_refusals(field, removed, occupied)
    gone = set(removed)
    return tuple(block.id for block in field.blocks
                 if block.id not in gone and block.id not in refused)
