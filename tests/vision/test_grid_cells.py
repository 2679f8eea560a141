"""First-level blocks missed in the rows of those read (:mod:`vision.readers.grid_cells`).

Shipped photoreal tune scenes at 640x480 (``tests/data/table3d``). infinifield.md, "Build
the field": blocks are arranged on a flat surface, touching or clearly apart; a block set
against another touches it along a side, so a missed one stands where its read neighbours'
rows put it.
"""

from __future__ import annotations

import math

import pytest

from tests.vision.table3d_reading import assert_tops_read, read_tune_scene


@pytest.mark.parametrize(("family", "block"), [("f181", "W8"), ("f193", "W2")])
def test_a_white_top_in_shade_between_read_neighbours_is_read(family: str, block: str
                                                               ) -> None:
    """f181's W8, half of it in a tower's shadow, and f193's W2 in a soft shadow are not
    the palette's white at all, but their places in the rows of their read neighbours show
    a white top (lighter than the table can be, or mostly the white class): each is read
    white on the first level, within 4 mm of where it stands, and touches its neighbours."""
    scene, reading, m = assert_tops_read(f"{family}_before", [block], 4.0)
    ids = {i: bid for bid, i in m.items()}
    touched = {ids.get(j) for i, j in reading.touching if i == m[block]} | {
        ids.get(i) for i, j in reading.touching if j == m[block]}
    truth = {b for pair in scene.touching if block in pair for b in pair} - {block}
    assert touched == truth


@pytest.mark.parametrize(("family", "places"), [("f017", [(351, 182), (437, 216)]),
                                                ("f066", [(292, 267), (282, 175)]),
                                                ("f250", [(292, 263)])])
def test_an_empty_place_among_read_blocks_stays_empty(
        family: str, places: list[tuple[int, int]]) -> None:
    """Places with read blocks on three or four sides and nothing there (the table shows,
    or the neighbours' yellow side faces, 40 % of f250's place): no block is read there."""
    scene, reading = read_tune_scene(f"{family}_before")
    assert not any(math.dist(b.centre_mm, p) < 20 for b in scene.blocks.values()
                   for p in places)
    assert [b for b in reading.blocks if any(math.dist(b.centre, p) < 20 for p in places)
            ] == []
