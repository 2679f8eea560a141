"""Benchmark: removal legality for every block of a field, against networkx.

For the shipped 24-block official field and generated flat fields of 1,000 and 10,000
blocks, this times, side by side in one run on the same touching graph:

- ``ours (all rules)``: :func:`companion.games.infinifield.removal.removal_refusals`, the
  engine's full legality (block on top, pawn on it, would split, enclosed) for every block;
- ``ours (cut only)``: the iterative Hopcroft-Tarjan :func:`cut_vertices` alone;
- ``networkx``: ``networkx.articulation_points`` on the same graph (built before timing).

It checks that both find the same cut blocks, then prints the best-of-N times, the time per
block (flat per-block time = linear growth), and the ratio ours / networkx (< 1: faster).

Usage: .venv/bin/python bench/removal_legality.py [--repeat N]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable

import networkx as nx

from companion.games.infinifield.field import COLOURS, Block, Field, build_field
from companion.games.infinifield.fieldfile import load_field_text
from companion.games.infinifield.removal import cut_vertices, removal_refusals
from companion.resources import shipped_text

PITCH = 40.0


def brick_neighbours(r: int, c: int) -> list[tuple[int, int]]:
    """Cells touching (r, c) in a brick pattern (odd rows shifted half a block)."""
    shift = 0 if r % 2 == 0 else 1
    return [(r, c - 1), (r, c + 1), (r - 1, c - 1 + shift), (r - 1, c + shift),
            (r + 1, c - 1 + shift), (r + 1, c + shift)]


def generated_field(size: int, seed: int) -> Field:
    """A flat connected field of ``size`` 40 mm blocks grown at random in a brick pattern."""
    rng = random.Random(seed)
    cells = {(0, 0)}
    frontier = [(0, 0)]
    while len(cells) < size:
        r, c = rng.choice(frontier)
        options = [n for n in brick_neighbours(r, c) if n not in cells]
        if not options:
            frontier.remove((r, c))
            continue
        cell = rng.choice(options)
        cells.add(cell)
        frontier.append(cell)
    blocks = [Block.square(f"B{i}", rng.choice(COLOURS),
                           (c * PITCH + (PITCH / 2) * (r % 2), r * PITCH))
              for i, (r, c) in enumerate(sorted(cells))]
    return build_field(blocks)


def best_times(functions: list[Callable[[], object]], repeat: int) -> list[float]:
    """Best wall time in seconds of each function over ``repeat`` rounds.

    The functions run in turn within each round (after one warm-up round), so a busy machine
    slows all of them alike and the ratio stays fair. The garbage collector is paused while
    timing, as ``timeit`` does.
    """
    for function in functions:
        function()
    best = [float("inf")] * len(functions)
    gc.disable()
    try:
        for _ in range(repeat):
            for k, function in enumerate(functions):
                start = time.perf_counter()
                function()
                best[k] = min(best[k], time.perf_counter() - start)
    finally:
        gc.enable()
    return best


def measure(name: str, field: Field, repeat: int) -> dict[str, float | str | int]:
    """Time the three legality computations on one field; check they agree."""
    graph = field.graph
    nx_graph = nx.Graph()
    nx_graph.add_nodes_from(range(len(graph.ids)))
    nx_graph.add_edges_from((i, j) for i, near in enumerate(graph.adjacency) for j in near
                            if i < j)
    ours_cut = {i for i, cut in enumerate(cut_vertices(graph.adjacency)) if cut}
    theirs = set(nx.articulation_points(nx_graph))
    refusals = removal_refusals(field, (), ())
    ours_split = {graph.index[b] for b, codes in refusals.items() if "would_split" in codes}
    assert ours_cut == theirs == ours_split, f"{name}: the cut blocks disagree"
    full, cut, reference = best_times([lambda: removal_refusals(field, (), ()),
                                       lambda: cut_vertices(graph.adjacency),
                                       lambda: list(nx.articulation_points(nx_graph))], repeat)
    blocks = len(graph.ids)
    return {"field": name, "blocks": blocks, "edges": nx_graph.number_of_edges(),
            "cut": len(theirs), "full": full, "cut_time": cut, "networkx": reference,
            "per_block": full / blocks * 1e6, "ratio": full / reference,
            "cut_ratio": cut / reference}


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9,
                        help="timed rounds (x100 for 24 blocks, x5 for 1,000)")
    args = parser.parse_args()
    official = load_field_text("official.toml", shipped_text("companion.games.infinifield",
                                                             "fields/official.toml")).field
    fields = [("official 24", official, args.repeat * 100),
              ("generated 1,000", generated_field(1_000, seed=1), args.repeat * 5),
              ("generated 10,000", generated_field(10_000, seed=2), args.repeat)]
    rows = [measure(name, field, repeat) for name, field, repeat in fields]
    print("Removal legality for every block (best of N runs, same graph for all three)")
    print(f"{'field':<17}{'blocks':>7}{'edges':>7}{'cut':>6}{'ours all rules':>16}"
          f"{'ours cut only':>15}{'networkx':>12}{'us/block':>10}{'ratio all':>11}"
          f"{'ratio cut':>11}")
    for row in rows:
        print(f"{row['field']:<17}{row['blocks']:>7}{row['edges']:>7}{row['cut']:>6}"
              f"{float(row['full']) * 1e3:>13.3f} ms{float(row['cut_time']) * 1e3:>12.3f} ms"
              f"{float(row['networkx']) * 1e3:>9.3f} ms{row['per_block']:>10.2f}"
              f"{row['ratio']:>11.2f}{row['cut_ratio']:>11.2f}")
    per_block = [float(row["per_block"]) for row in rows[1:]]
    print(f"growth: per-block time 10,000 vs 1,000 blocks = {per_block[1] / per_block[0]:.2f}x "
          f"(1.00 = linear)")
    print(f"ratio = ours / networkx.articulation_points; below 1 is faster "
          f"(median all-rules ratio {statistics.median(float(r['ratio']) for r in rows):.2f})")


if __name__ == "__main__":
    main()
