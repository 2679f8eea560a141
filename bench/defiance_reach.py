"""Infinities: Defiance of Fate benchmark: reach and path queries, legal actions, playouts.

1. Reach and path queries on a 60-tile board with random walls and six pawns: the engine's
   :meth:`Board.reach` / :meth:`Board.path_length` (breadth-first search over the hex grid)
   against the named baseline, networkx ``single_source_shortest_path_length`` (with
   ``cutoff``) and ``shortest_path_length`` on the same graph, built once beforehand and
   given to networkx for free. Both answers are compared. The engine's figure "reach from a
   state" also includes building the board view from the state, as a Power action does.
2. A full turn's legal-action listing on that board (four leaders, groups, timelines, five
   locked dice of every face) against a generate-and-test baseline that asks the engine
   about every candidate, including each discovery move.
3. Random playouts per second: uniform random Quickplay, and fighting Skirmish to round 10.

Target: any reach query under 1 ms.

Usage:
    .venv/bin/python bench/defiance_reach.py [--queries 3000] [--games 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from dataclasses import replace

import networkx as nx

from companion.games.core import IllegalAction
from companion.games.defiance import GAME
from companion.games.defiance import legal as legal_module
from companion.games.defiance.board import Board, Placement, neighbour
from companion.games.defiance.card_actions import in_reach
from companion.games.defiance.shipped import PACKAGE, shipped_roles
from companion.games.defiance.state import (
    _BOARD_VIEWS,
    Die,
    Prepared,
    State,
    Turn,
    Unit,
    seat,
    with_seat,
)
from companion.resources import shipped_sources

TILES = 60
REPEATS = 5


def hex_spaces(count: int) -> list[tuple[int, int]]:
    """The first ``count`` spaces of a hexagonal spiral around 0,0."""
    spaces = [(0, 0)]
    radius = 1
    while len(spaces) < count:
        pos = (-radius, radius)
        for direction in range(6):
            for _ in range(radius):
                spaces.append(pos)
                pos = neighbour(pos, direction)
        radius += 1
    return spaces[:count]


def tiles_toml(rng: random.Random) -> str:
    """A tiles file of 60 tiles (the Rift + 59 in two settings) with random walls."""
    parts = ['[[tile]]\nid = "rift"\nname = "The Rift"\ntype = "rift"\ninfluence = 1\n']
    for index in range(1, TILES):
        walls = sorted(rng.sample(range(6), rng.choice((0, 1, 1, 2, 2, 3))))
        parts.append(f'[[tile]]\nid = "t{index:02d}"\nname = "Tile {index:02d}"\n'
                     f'setting = "{"obdija" if index % 2 else "xilsen"}"\ntype = "city"\n'
                     f'influence = {1 + index % 5}\nwalls = {walls}\n')
    return "\n".join(parts)


def big_game(rng: random.Random) -> State:
    """A four-player game in turn 1 with every tile on the board, groups and timelines."""
    sources = shipped_sources(PACKAGE, shipped_roles("data/games/skirmish-teams.toml"))
    sources["tiles"] = ("bench-tiles.toml", tiles_toml(rng))
    rules = GAME.load_setup(sources, {})
    state = GAME.initial_state(rules)
    while state.phase == "setup":
        if GAME.is_chance(state):
            action = GAME.sample_chance(state, rng)
        else:
            options = GAME.legal_actions(state)
            readies = [a for a in options if a.verb == "ready"]
            action = readies[0] if readies else rng.choice(options)
        state = GAME.apply(state, action).state
    spaces = hex_spaces(TILES)
    placements = tuple(Placement(t.id, q, r, rng.randrange(6), False)
                       for t, (q, r) in zip(rules.tiles, spaces, strict=True))
    state = replace(state, board=placements)
    pawn_spaces = rng.sample(spaces[1:], len(state.seats))
    for player, pos in zip(state.seats, pawn_spaces, strict=True):
        hand = tuple(sorted(rng.choice([c.id for c in rules.cards]) for _ in range(7)))
        units = tuple(Unit(c) for c in ("drone-swarm", "flame-warden", "runner")
                      if rng.random() < 0.8)
        timeline = (Prepared("firewall", 0), Prepared("sunlance", 0))
        state = with_seat(state, replace(seat(state, player.name), pos=pos, hand=hand,
                                         group=units, timeline=timeline))
    leader = state.turn.leader
    dice = (*(Die("power", face) for face in ("P", "T", "F", "0")), Die("tide", "T"))
    return replace(state, turn=Turn(leader, check="power", dice=dice, locked=True))


def frontier_game(state: State) -> State:
    """The same game with only the first 45 tiles placed (15 left in the stacks) and the
    current leader on the edge, so discovery moves are part of the turn."""
    kept = state.board[:45]
    spaces = {p.pos for p in kept}
    edge = next(p.pos for p in reversed(kept)
                if any(neighbour(p.pos, d) not in spaces for d in range(6)))
    others = [s for s in state.seats if s.pos == edge and s.name != state.turn.leader]
    for other in others:
        state = with_seat(state, replace(other, pos=kept[1].pos))
    state = with_seat(state, replace(seat(state, state.turn.leader), pos=edge))
    for player in state.seats:
        if player.pos not in spaces:
            state = with_seat(state, replace(player, pos=kept[2 + len(player.name)].pos))
    return replace(state, board=kept)


def graph_of(board: Board, pawns: set[tuple[int, int]]) -> nx.DiGraph:
    """The same clear-path graph for networkx: pawn tiles are entered but never left."""
    graph = nx.DiGraph()
    graph.add_nodes_from(board.tiles)
    for pos in board.tiles:
        for direction in range(6):
            if board.joined(pos, direction):
                graph.add_edge(pos, neighbour(pos, direction))
    return graph


def bench_reach(state: State, queries: int, rng: random.Random) -> None:
    from companion.games.defiance.state import board_view, occupied

    board = board_view(state)
    pawns = set(occupied(state))
    full = graph_of(board, pawns)
    spaces = list(board.tiles)
    jobs = [(rng.choice(spaces), rng.randint(1, 6)) for _ in range(queries)]
    engine_times, nx_times, mismatches = [], [], 0
    graphs: dict[tuple[int, int], nx.DiGraph] = {}
    for start, limit in jobs:
        if start not in graphs:
            cut = nx.DiGraph(full)
            cut.remove_edges_from([e for e in full.edges if e[0] in pawns and e[0] != start])
            graphs[start] = cut
        mine: dict = {}
        best_mine = best_theirs = float("inf")
        for _ in range(REPEATS):  # best of a few runs per query: the machine is shared
            t0 = time.perf_counter()
            mine = board.reach(start, limit, pawns)
            t1 = time.perf_counter()
            theirs = nx.single_source_shortest_path_length(graphs[start], start, cutoff=limit)
            t2 = time.perf_counter()
            best_mine, best_theirs = min(best_mine, t1 - t0), min(best_theirs, t2 - t1)
        engine_times.append(best_mine)
        nx_times.append(best_theirs)
        mismatches += mine != dict(theirs)
    reach_worst = max(engine_times)
    _report("reach query (Board.reach)", engine_times, "networkx cutoff BFS", nx_times)
    print(f"  answers differing from networkx: {mismatches} of {queries}")
    pairs = [(rng.choice(spaces), rng.choice(spaces)) for _ in range(queries)]
    plain = graph_of(board, set())
    engine_times, nx_times, mismatches = [], [], 0
    for a, b in pairs:
        best_mine = best_theirs = float("inf")
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            mine_length = board.path_length(a, b)
            t1 = time.perf_counter()
            try:
                their_length: int | None = nx.shortest_path_length(plain, a, b)
            except nx.NetworkXNoPath:
                their_length = None
            t2 = time.perf_counter()
            best_mine, best_theirs = min(best_mine, t1 - t0), min(best_theirs, t2 - t1)
        engine_times.append(best_mine)
        nx_times.append(best_theirs)
        mismatches += mine_length != their_length
    _report("path query (Board.path_length)", engine_times, "networkx shortest_path_length",
            nx_times)
    print(f"  answers differing from networkx: {mismatches} of {queries}")
    cold = []
    for name in [s.name for s in state.seats] * (queries // 20 + 1):
        best = float("inf")
        for _ in range(REPEATS):
            _BOARD_VIEWS.clear()  # cold: the board view is rebuilt as after a move or flip
            t0 = time.perf_counter()
            in_reach(state, name)
            best = min(best, time.perf_counter() - t0)
        cold.append(best)
    print(f"reach from a state, cold (board view built + reach): mean "
          f"{_ms(statistics.mean(cold))}, worst {_ms(max(cold))}")
    worst = max(reach_worst, max(cold))
    print(f"target: any reach query under 1 ms -> worst {_ms(worst)}: "
          f"{'met' if worst < 0.001 else 'NOT met'}")


def bench_legal(state: State, repeat: int, label: str) -> None:
    times, naive_times = [], []
    listed: list[str] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        listed = [str(a) for a in GAME.legal_actions(state)]
        times.append(time.perf_counter() - t0)
    for _ in range(repeat):
        t0 = time.perf_counter()
        naive = _generate_and_test(state)
        naive_times.append(time.perf_counter() - t0)
    assert naive == listed, "the baseline and the engine list different actions"
    print(f"legal actions of a full turn, {label}: {len(listed)} actions")
    _report("legal_actions", times, "generate-and-test (apply every candidate)", naive_times)


def _generate_and_test(state: State) -> list[str]:
    actor = GAME.current_actor(state)
    assert actor is not None
    found = set()
    candidates = [*legal_module._candidates(state, actor),
                  *legal_module._discoveries(state, actor)]
    for action in candidates:
        try:
            GAME.apply(state, action)
        except IllegalAction:
            continue
        found.add(str(action))
    return sorted(found)


def playouts(setup: str, games: int, seed: int, fighting: bool) -> tuple[float, int]:
    rules = GAME.load_setup(shipped_sources(PACKAGE, shipped_roles(setup)), {})
    actions = 0
    t0 = time.perf_counter()
    for game in range(games):
        rng = random.Random(seed + game)
        state = GAME.initial_state(rules)
        while GAME.outcome(state) is None:
            if GAME.is_chance(state):
                action = GAME.sample_chance(state, rng)
            else:
                options = GAME.legal_actions(state)
                action = _fight(options, rng) if fighting else rng.choice(options)
            state = GAME.apply(state, action).state
            actions += 1
    return time.perf_counter() - t0, actions


def _fight(options, rng):
    quiet = ("concede", "score", "progress", "claim", "gambit")
    useful = [a for a in options if a.verb not in quiet]
    for verbs in (("damage", "destroy"), ("check",), ("lock",), ("deploy",),
                  ("play", "move", "flip", "prepare", "cycle")):
        picks = [a for a in useful if a.verb in verbs]
        if picks:
            return rng.choice(picks)
    return rng.choice(useful or options)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def _report(name: str, mine: list[float], baseline: str, theirs: list[float]) -> None:
    a, b = statistics.mean(mine), statistics.mean(theirs)
    print(f"{name}: mean {_ms(a)}, worst {_ms(max(mine))}\n"
          f"  baseline {baseline}: mean {_ms(b)}, worst {_ms(max(theirs))}\n"
          f"  ratio baseline/engine (mean) {b / a:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=3000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    state = big_game(rng)
    gc.collect()
    gc.disable()  # time the queries, not the collector (same for engine and baseline)
    walls = sum(len(tile.walls) for tile in state.rules.tiles)
    print(f"board: {len(state.board)} tiles, {len(state.seats)} pawns, {walls} printed walls")
    bench_reach(state, args.queries, rng)
    bench_legal(state, 30, "all 60 tiles placed")
    bench_legal(frontier_game(state), 30, "45 tiles placed, leader on the edge")
    for setup, fighting, label in (("data/games/quickplay.toml", False, "random Quickplay"),
                                   ("data/games/skirmish.toml", True,
                                    "fighting Skirmish (3 players, to round 10)")):
        seconds, actions = playouts(setup, args.games, args.seed, fighting)
        print(f"playouts, {label}: {args.games / seconds:.1f} games/s, "
              f"{actions / seconds:.0f} actions/s ({actions / args.games:.0f} actions/game)")


if __name__ == "__main__":
    main()
