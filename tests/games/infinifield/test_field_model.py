"""The field model: which blocks touch, from footprints with the documented tolerance.

Rulebook: infinifield.md "Official field-building rules", bullet 8 (blocks that do not touch are
placed half an inch or more apart) and "Chase-and-capture" step 6 (a pawn moves to a block that
touches its own; stacked blocks touch the block they rest on).
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.infinifield.contacts import (
    CLEAR_GAP_MM,
    TOUCH_TOLERANCE_MM,
    near_pairs,
    touching_pairs,
)
from companion.games.infinifield.field import Block, Field, FieldError, build_field
from companion.games.infinifield.geometry import gap, rectangle
from tests.games.infinifield.helpers import row


@pytest.mark.parametrize(("pitch", "touching"), [
    (40.0, True),                       # flush
    (40.0 + TOUCH_TOLERANCE_MM, True),  # within the touching tolerance
    (39.0, True),                       # 1 mm overlap: a measurement wobble, still touching
    (45.0, False),                      # a visible 5 mm gap
    (40.0 + CLEAR_GAP_MM, False),       # half an inch apart: never touch
])
def test_touching_follows_the_gap_between_footprints(pitch: float, touching: bool) -> None:
    """infinifield.md "Official field-building rules" bullet 8: blocks meant not to touch stand
    half an inch apart; flush blocks (within 2 mm) touch."""
    field = build_field(row("W1:white", "Y1:yellow", pitch=pitch))
    assert field.touches("W1", "Y1") is touching
    assert field.neighbours("W1") == (("Y1",) if touching else ())


def test_blocks_half_an_inch_apart_diagonally_never_touch() -> None:
    """infinifield.md "Official field-building rules" bullet 8: half an inch apart, measured
    as the shortest distance between footprints, also corner to corner."""
    offset = 40 + CLEAR_GAP_MM / 2 ** 0.5 + 0.01
    field = build_field([Block.square("A", "red", (0, 0)),
                         Block.square("B", "red", (offset, offset))])
    assert gap(field.block("A").footprint, field.block("B").footprint) >= CLEAR_GAP_MM
    assert not field.touches("A", "B")


def test_rotated_blocks_touch_by_their_true_outline() -> None:
    """infinifield.md "Chase-and-capture" step 6: touching is physical contact; a block turned
    45 degrees whose corner meets a neighbour's face touches it."""
    half_diagonal = 20 * 2 ** 0.5
    field = build_field([Block.square("A", "red", (0, 0)),
                         Block.square("B", "blue", (20 + half_diagonal, 0), angle=45),
                         Block.square("C", "blue", (20 + half_diagonal + 5, 60), angle=45)])
    assert field.touches("A", "B")
    assert not field.touches("A", "C")


def test_a_stacked_block_touches_what_it_rests_on_and_an_edge_it_meets() -> None:
    """infinifield.md "Chase-and-capture" step 6 ("any block that touches the one where the
    pawn is standing"), with the one contact rule of docs/infinifield.md "Touching": a block
    on top whose bottom edge meets the top edge of the table block beside its support touches
    it, as a corner meeting in plan does; set back half an inch, it does not."""
    blocks = [*row("A:red", "B:red"), Block.square("T", "white", (0, 0), rests_on=("A",))]
    field = build_field(blocks)
    assert field.neighbours("T") == ("A", "B")
    assert field.resting_on("A") == ("T",)
    assert field.elevation["T"] == 40.0
    set_back = [*row("A:red", "B:red"),
                Block.square("T", "white", (-10, 0), size=(20, 40), rests_on=("A",))]
    assert build_field(set_back).neighbours("T") == ("A",)


def test_two_stacked_blocks_side_by_side_touch_each_other() -> None:
    """infinifield.md "Chase-and-capture" step 6: blocks on the same level touch by contact."""
    blocks = [*row("A:red", "B:red"), Block.square("S", "white", (0, 0), rests_on=("A",)),
              Block.square("T", "white", (40, 0), rests_on=("B",))]
    assert build_field(blocks).touches("S", "T")


def test_touching_can_be_given_explicitly_without_footprints() -> None:
    """infinifield.md "Build the field" step 1: the builder may say which blocks touch; the
    explicit list is used as given, plus stacked blocks touching their supports."""
    field = build_field([Block("A", "white"), Block("B", "red"), Block("C", "red",
                                                                       rests_on=("B",))],
                        [("B", "A")])
    assert field.touching == (("A", "B"), ("B", "C"))
    assert field.explicit


def test_missing_footprints_without_explicit_touching_are_refused() -> None:
    """infinifield.md "Official field-building rules" bullet 8: touching comes from where the
    blocks stand, so a block without a footprint needs explicit touching."""
    with pytest.raises(FieldError, match="block B: has no footprint"):
        build_field([Block.square("A", "red", (0, 0)), Block("B", "red")])


@pytest.mark.parametrize(("blocks", "message"), [
    ([Block("A", "red"), Block("a", "red")], "the id is used twice"),
    ([Block("A", "red", rests_on=("Z",))], "rests on 'Z', which is not a block"),
    ([Block("A", "red", rests_on=("B",)), Block("B", "red", rests_on=("A",))],
     "which \\(indirectly\\) rests on it"),
])
def test_impossible_fields_are_refused_naming_the_block(blocks: list[Block],
                                                        message: str) -> None:
    """infinifield.md "Build the field" step 1: each block is one physical piece, standing on
    the table or on other blocks."""
    with pytest.raises(FieldError, match=message):
        build_field(blocks, [])


def test_bad_colours_and_shapes_are_refused() -> None:
    """infinifield.md "Contents": the blocks are white, yellow, red and blue."""
    with pytest.raises(FieldError, match="colour 'green' is not one of"):
        Block("G1", "green")
    with pytest.raises(FieldError, match="not convex"):
        Block("Y1", "yellow", ((0, 0), (40, 0), (10, 10), (40, 40), (0, 40)))


def test_spatial_grid_finds_exactly_the_pairs_a_brute_force_search_finds() -> None:
    """infinifield.md "Official field-building rules" bullet 8: the near pairs (touching or
    closer than half an inch) found with the grid equal those of an all-pairs search."""
    rng = random.Random(7)
    blocks = [Block.square(f"B{i}", "red", (rng.uniform(0, 400), rng.uniform(0, 400)),
                           size=(rng.uniform(20, 50), rng.uniform(20, 50)),
                           angle=rng.uniform(0, 90)) for i in range(60)]
    expected = {(a.id, b.id) for a, b in itertools.combinations(blocks, 2)
                if gap(a.footprint, b.footprint) < CLEAR_GAP_MM}
    assert {(p.first, p.second) for p in near_pairs(blocks)} == expected
    assert len(touching_pairs(blocks)) == sum(
        gap(a.footprint, b.footprint) <= TOUCH_TOLERANCE_MM
        for a, b in itertools.combinations(blocks, 2))


def test_a_field_round_trips_through_json() -> None:
    """infinifield.md "Build the field" step 1: the field as built is kept with the game record
    (the journal stores it), so it must come back unchanged."""
    field = build_field([*row("W1:white", "Y1:yellow"),
                         Block.square("R1", "red", (20, 0), rests_on=("W1", "Y1"))],
                        name="tiny")
    assert Field.from_json(field.to_json()) == field


@settings(max_examples=80, deadline=None)
@given(st.tuples(st.floats(-200, 200), st.floats(-200, 200), st.floats(5, 60), st.floats(5, 60)),
       st.tuples(st.floats(-200, 200), st.floats(-200, 200), st.floats(5, 60), st.floats(5, 60)))
def test_gap_between_upright_blocks_is_the_distance_a_ruler_measures(
        a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> None:
    """infinifield.md "Official field-building rules" bullet 8: "half-inch or more away from
    each other" is the shortest distance between the blocks (corner to corner included), so
    the touching decision rests on a true distance."""
    first = rectangle((a[0], a[1]), (a[2], a[3]))
    second = rectangle((b[0], b[1]), (b[2], b[3]))
    dx = max(0.0, abs(a[0] - b[0]) - (a[2] + b[2]) / 2)
    dy = max(0.0, abs(a[1] - b[1]) - (a[3] + b[3]) / 2)
    measured = gap(first, second)
    assert measured == pytest.approx(gap(second, first), abs=1e-6)
    if dx > 0 or dy > 0:
        # corners are stored rounded to 1e-6 mm (geometry._clean): two of them, 2e-6 at most
        assert measured == pytest.approx((dx * dx + dy * dy) ** 0.5, abs=2e-6)
    else:
        assert measured <= 1e-6
