"""Fortitude actions: move (with discovery and regroup) and flip a tile (rulebook 4 and 6).

Example:
    >>> str(Move("Ann", (1, 0), discover="forge", rotation=2, regroup=True))
    'move Ann 1,0 discover forge 2 regroup'
"""

from __future__ import annotations

from companion.games.core import Event, refuse
from companion.games.defiance.actions import Flip, Move
from companion.games.defiance.board import Pos, direction_to, world_walls
from companion.games.defiance.cardops import draw
from companion.games.defiance.damage import heal_leader
from companion.games.defiance.dice import spend
from companion.games.defiance.rulebook import (
    BASIC_RULES,
    DEFEAT,
    DISCOVER,
    FLIPPING_TILES,
    FORTITUDE_ACTIONS,
    Refusal,
)
from companion.games.defiance.state import (
    Placement,
    State,
    board_view,
    evolve,
    occupied,
    placed_ids,
    placement_at,
    seat,
    with_seat,
)


def discoverable(state: State, origin: Pos) -> list[str]:
    """Tiles that may be discovered from ``origin``.

    The same setting's stack, or either setting's from the Rift (rulebook 6 "Discover", "Rift
    Tiles").
    """
    placement = placement_at(state, origin)
    setting = state.rules.tile(placement.tile).setting if placement else "rift"
    taken = placed_ids(state)
    return sorted(t.id for t in state.rules.tiles[1:]
                  if t.id not in taken and (setting == "rift" or t.setting == setting))


def move(state: State, action: Move, events: list[Event]) -> State:
    """Move one space for 1 Fortitude (rulebook 4 "Fortitude Actions", 6).

    Move one space along a clear path; into an empty space, discover a tile; ``regroup`` draws 1
    (and heals 1 on a discovery).
    """
    player = seat(state, action.actor)
    dest = action.space
    tile_id, rotation, regroup = action.discover or None, action.rotation, action.regroup
    if player.pos is None:
        refuse(Refusal.OFF_BOARD, "Your pawn is not on the board.", DEFEAT)
    direction = direction_to(player.pos, dest)
    if direction is None:
        refuse(Refusal.NOT_ADJACENT,
               "Move one space at a time, to an adjacent space.", FORTITUDE_ACTIONS)
    board = board_view(state)
    if dest in occupied(state):
        refuse(Refusal.OCCUPIED, "Only one pawn may occupy a space.", BASIC_RULES)
    if board.walled(player.pos, direction):
        refuse(Refusal.WALL, "A wall on your tile blocks that direction.", BASIC_RULES)
    flipped = board.flipped.get(dest)
    if board.active(dest):
        if tile_id is not None:
            refuse(Refusal.NOT_EMPTY, "That space holds a tile already; there is nothing to "
                   "discover.", DISCOVER)
        if board.walled(dest, (direction + 3) % 6):
            refuse(Refusal.WALL, "A wall on that tile blocks your path.", BASIC_RULES)
    else:
        if tile_id is None:
            refuse(Refusal.MUST_DISCOVER, "That space is empty: name the tile you discover and its "
                   "rotation (discover TILE ROT).", DISCOVER)
        if flipped is not None and tile_id != flipped:
            refuse(Refusal.REDISCOVER, f"The flipped tile {flipped} is rediscovered there.",
                   FLIPPING_TILES)
        if flipped is None and tile_id not in discoverable(state, player.pos):
            refuse(Refusal.NOT_IN_STACK, f"{tile_id} is not in the stack you may discover from.",
                   DISCOVER, tile=tile_id)
        if rotation > 5:
            refuse(Refusal.BAD_ROTATION, "A rotation is 0 to 5 sixth-turns.", DISCOVER)
        walls = world_walls(state.rules.tile(tile_id).walls, rotation)
        if (direction + 3) % 6 in walls:
            refuse(Refusal.NO_CLEAR_PATH, "Connect the tile without a wall in your path.",
                   DISCOVER, tile=tile_id)
    state = spend(state, "F", 1, FORTITUDE_ACTIONS)
    if tile_id is not None:
        board_tiles = tuple(p for p in state.board if p.pos != dest)
        state = evolve(state, board=(*board_tiles,
                                      Placement(tile_id, dest[0], dest[1], rotation, False)))
    state = with_seat(state, evolve(seat(state, action.actor), pos=dest))
    if regroup:
        state = draw(state, action.actor, 1)
        if tile_id is not None:
            state = heal_leader(state, action.actor, 1, events)
    return state


def flip(state: State, action: Flip, events: list[Event]) -> State:
    """Flip an adjacent tile for 1 Fortitude (rulebook 6 "Flipping Tiles").

    Flip an adjacent tile; a leader in it is first force-moved to an adjacent space of your choice
    (``push q,r``), ignoring walls (rulebook 6 "Flipping Tiles").
    """
    player = seat(state, action.actor)
    dest = action.space
    if player.pos is None:
        refuse(Refusal.OFF_BOARD, "Your pawn is not on the board.", DEFEAT)
    if direction_to(player.pos, dest) is None:
        refuse(Refusal.NOT_ADJACENT, "Flip a tile adjacent to yours.", FORTITUDE_ACTIONS)
    board = board_view(state)
    if not board.active(dest):
        refuse(Refusal.NO_TILE, "There is no face-up tile there to flip.", FLIPPING_TILES)
    pawns = occupied(state)
    push = action.push
    if dest in pawns:
        spaces = push_spaces(state, dest)
        if not spaces:
            refuse(Refusal.NO_SPACE_TO_PUSH, "You cannot flip a tile when the leader in it has no "
                   "legal adjacent space to move to.", FLIPPING_TILES)
        if push is None or push not in spaces:
            refuse(Refusal.PUSH_WHERE, f"Force-move {pawns[dest]} first: push to one of "
                   f"{', '.join(f'{q},{r}' for q, r in spaces)}.", FLIPPING_TILES,
                   spaces=[list(s) for s in spaces])
    elif push is not None:
        refuse(Refusal.NOBODY_TO_PUSH, "No leader is in that tile.", FLIPPING_TILES)
    state = spend(state, "F", 1, FORTITUDE_ACTIONS)
    if push is not None:
        state = with_seat(state, evolve(seat(state, pawns[dest]), pos=push))
    board_tiles = tuple(evolve(p, flipped=True) if p.pos == dest else p for p in state.board)
    return evolve(state, board=board_tiles)


def push_spaces(state: State, dest: Pos) -> list[Pos]:
    """Where a leader in a tile being flipped may be force-moved.

    An adjacent face-up, unoccupied tile (walls ignored).
    """
    from companion.games.defiance.board import neighbour

    board = board_view(state)
    pawns = occupied(state)
    return sorted(p for p in (neighbour(dest, d) for d in range(6))
                  if board.active(p) and p not in pawns)
