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
    >>> removal_refusals(row, removed=(), occupied=("A",))
    {'A': ('pawn_on_block',), 'B': ('would_split',)}
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from companion.games.core import RuleRef
from companion.games.infinifield.contacts import covered
from companion.games.infinifield.field import Field

REMOVAL_RULE_SECTION = "Chase-and-capture"

REFUSALS: dict[str, tuple[str, str]] = {
    "block_on_top": ("step 7, bullet 1",
                     "a block stands on top of {block}, so {block} cannot be removed"),
    "pawn_on_block": ("step 7, bullet 2", "a pawn stands on {block}, so it cannot be removed"),
    "would_split": ("step 7, bullet 3",
                    "removing {block} would split the field into disconnected islands"),
    "enclosed": ("step 7, bullet 4",
                 "{block} is enclosed by other blocks on all sides (each side covered along "
                 "more than half its length) and cannot be removed without shifting them"),
}
"""Refusal code -> (rulebook detail, sentence template), in the rulebook's bullet order."""


def refusal_rule(code: str) -> RuleRef:
    """The rulebook reference of a removal refusal code.

    Example:
        >>> str(refusal_rule("would_split"))
        'infinifield: "Chase-and-capture", step 7, bullet 3'
    """
    return RuleRef("infinifield", REMOVAL_RULE_SECTION, REFUSALS[code][0])


def refusal_sentence(code: str, block: str) -> str:
    """The sentence a player reads for a refused removal of ``block``.

    Example:
        >>> refusal_sentence("pawn_on_block", "W2")
        'A pawn stands on W2, so it cannot be removed.'
    """
    text = REFUSALS[code][1].format(block=block)
    return text[0].upper() + text[1:] + "."


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
                     ) -> dict[str, tuple[str, ...]]:
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
        >>> removal_refusals(tower, removed=(), occupied=("B",))
        {'A': ('block_on_top',), 'B': ('pawn_on_block',)}
    """
    graph = field.graph
    index = graph.index
    present = [True] * len(graph.ids)
    for block_id in removed:
        present[index[block_id]] = False
    codes: dict[int, list[str]] = {}
    for i in graph.supports:  # bullet 1: blocks with something resting on them
        if present[i]:
            for j in graph.above[i]:
                if present[j]:
                    codes[i] = ["block_on_top"]
                    break
    for block_id in occupied:  # bullet 2
        i = index[block_id]
        if present[i]:
            codes.setdefault(i, []).append("pawn_on_block")
    for i, cut in enumerate(cut_vertices(graph.adjacency, present)):  # bullet 3
        if cut:
            codes.setdefault(i, []).append("would_split")
    for i in graph.enclosable:  # bullet 4: every side covered along most of its length
        if present[i] and _enclosed(graph.sides[i], present):
            codes.setdefault(i, []).append("enclosed")
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
