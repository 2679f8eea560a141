"""How the test players choose their Infinifield moves (a chase towards the nearest pawn).

This only picks which block a player taps; the app and the engine do the rest.
"""

from __future__ import annotations

from collections import deque

from companion.games.infinifield.state import State


def chase_target(state: State, player: str) -> str:
    """The next block on a shortest path to the nearest other pawn (or its block: a capture)."""
    origin = state.pawn_of(player)
    assert origin is not None
    others = {block for name, block in state.pawns if name != player}
    previous: dict[str, str | None] = {origin: None}
    queue = deque([origin])
    while queue:
        block = queue.popleft()
        if block in others:
            step = block
            while previous[step] != origin:
                parent = previous[step]
                assert parent is not None
                step = parent
            return step
        for neighbour in state.field.neighbours(block):
            if neighbour not in previous and neighbour not in state.removed:
                previous[neighbour] = block
                queue.append(neighbour)
    return next(b for b in state.field.neighbours(origin) if b not in state.removed)


def distances(state: State, origin: str) -> dict[str, int]:
    """Steps from ``origin`` to every block still on the field."""
    seen = {origin: 0}
    queue = deque([origin])
    while queue:
        block = queue.popleft()
        for neighbour in state.field.neighbours(block):
            if neighbour not in seen and neighbour not in state.removed:
                seen[neighbour] = seen[block] + 1
                queue.append(neighbour)
    return seen


def start_choice(state: State) -> str:
    """A free white block as far as possible from the pawns already placed."""
    taken = [block for _, block in state.pawns]
    free = [w for w in state.field.whites() if w not in taken]
    if not taken:
        return free[0]
    return max(free, key=lambda w: min(distances(state, t).get(w, 99) for t in taken))
