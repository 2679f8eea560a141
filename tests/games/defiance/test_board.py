"""The hex board: walls on edges, clear paths and reach (rulebook 2.5 "Walls", 6, 9)."""

from __future__ import annotations

import random

import networkx as nx

from companion.games.defiance.board import (
    DIRECTIONS,
    Board,
    Placement,
    direction_to,
    neighbour,
    world_walls,
)


def _board(*tiles: tuple[str, int, int, int], walls=None) -> Board:
    walls = walls or {}
    placements = [Placement(t, q, r, rot, False) for t, q, r, rot in tiles]
    return Board.build(placements, {t: walls.get(t, ()) for t, *_ in tiles})


def test_rotation_turns_the_printed_walls():
    """infinities-defiance-of-fate.md "2.5 - Setting Tiles", Walls: the bars on the edges of
    tiles; a tile can be oriented in any of six ways ("6. Movement", Discover)."""
    assert world_walls((0,), 0) == {0}
    assert world_walls((0, 5), 2) == {2, 1}
    assert all(direction_to((0, 0), neighbour((0, 0), d)) == d for d in range(6))


def test_a_wall_on_either_side_of_an_edge_blocks_the_path():
    """infinities-defiance-of-fate.md "2.5 - Setting Tiles", Walls: directions in which you
    may not move or use standard Power actions."""
    board = _board(("a", 0, 0, 0), ("b", 1, 0, 0), ("c", 0, 1, 0), walls={"b": (3,)})
    assert not board.joined((0, 0), 0)
    assert board.joined((0, 0), 5)
    assert board.reach((0, 0), 3) == {(0, 0): 0, (0, 1): 1, (1, 0): 2}


def test_reach_counts_tiles_of_a_clear_path_and_pawns_block_it():
    """infinities-defiance-of-fate.md "9. Glossary", Reach and Clear Path: a series of tiles
    without walls or pawns, as long as the Power level."""
    line = [(f"t{i}", i, 0, 0) for i in range(5)]
    board = _board(*line)
    assert board.reach((0, 0), 2) == {(0, 0): 0, (1, 0): 1, (2, 0): 2}
    blocked = board.reach((0, 0), 4, occupied=[(2, 0)])
    assert (2, 0) in blocked and (3, 0) not in blocked
    assert board.path_length((0, 0), (4, 0)) == 4
    assert board.path_length((0, 0), (4, 0), occupied=[(2, 0)]) is None


def test_flipped_tiles_count_as_empty():
    """infinities-defiance-of-fate.md "6. Movement", Flipping Tiles: the flipped tile's space
    counts as empty until rediscovered."""
    placements = [Placement("a", 0, 0, 0, False), Placement("b", 1, 0, 0, True),
                  Placement("c", 2, 0, 0, False)]
    board = Board.build(placements, {"a": (), "b": (), "c": ()})
    assert not board.active((1, 0)) and board.flipped == {(1, 0): "b"}
    assert board.path_length((0, 0), (2, 0)) is None


def _random_board(rng: random.Random, count: int):
    spaces = [(0, 0)]
    while len(spaces) < count:
        pos = neighbour(rng.choice(spaces), rng.randrange(6))
        if pos not in spaces:
            spaces.append(pos)
    walls = {f"t{i}": tuple(sorted(rng.sample(range(6), rng.randrange(3))))
             for i in range(count)}
    placements = [Placement(f"t{i}", q, r, rng.randrange(6), False)
                  for i, (q, r) in enumerate(spaces)]
    return Board.build(placements, walls), spaces


def test_reach_agrees_with_networkx_shortest_paths_on_random_walled_boards():
    """infinities-defiance-of-fate.md "9. Glossary", Reach: the distance of a clear path;
    cross-checked against networkx's breadth-first shortest paths on the same graph."""
    rng = random.Random(11)
    for _ in range(20):
        board, spaces = _random_board(rng, 40)
        pawns = set(rng.sample(spaces[1:], 5))
        graph = nx.Graph()
        graph.add_nodes_from(spaces)
        for pos in spaces:
            for d in range(len(DIRECTIONS)):
                if board.joined(pos, d):
                    graph.add_edge(pos, neighbour(pos, d))
        assert board.reach((0, 0), 4, pawns) == _reach_with_pawns(graph, (0, 0), pawns, 4)
        assert board.reach((0, 0), 99) == nx.single_source_shortest_path_length(graph, (0, 0))


def _reach_with_pawns(graph, start, pawns, limit):
    """Reference: BFS on a directed copy where pawn tiles (other than the start) have no
    outgoing edges, via networkx."""
    directed = nx.DiGraph()
    directed.add_nodes_from(graph.nodes)
    for a, b in graph.edges:
        if a == start or a not in pawns:
            directed.add_edge(a, b)
        if b == start or b not in pawns:
            directed.add_edge(b, a)
    return dict(nx.single_source_shortest_path_length(directed, start, cutoff=limit))
