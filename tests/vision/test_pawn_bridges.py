"""A bridge over two blocks of its own colour, found by the pawn standing on it (issue 12).

infinifield.md "Build the field": a block may stand across two touching ones, of any
colour; "Preparing": a pawn is placed *on top of one of the blocks* and moves from block
to block, never astride two. On two of its own colour a bridge shows the camera one colour,
and a pawn on it hides the groove it covers; the pawn's head, over the bridge's place and
over neither block under it, says it is there (:mod:`vision.readers.pawn_bridges`).
Stacked photos from sets rendered for a run, read wrong once, tuning data since.
"""

from __future__ import annotations

from pathlib import Path

from tests.vision.table3d_reading import (
    assert_no_block_over,
    assert_read_whole,
    block_read_as,
    read_on_first_level,
)

MISREADS = Path(__file__).resolve().parents[1] / "data" / "table3d_misreads"


def test_a_bridge_of_one_colour_carrying_a_pawn_is_read_under_it() -> None:
    """f2206: the red R6 bridges the red R1 and R2, 45 mm from the camera's nadir, with the
    magenta pawn on it. The pawn's head and flank darken the bridge's top right over the
    groove R6 hides, so the groove seems to show; the head shows fully over R6's place and
    at most 0.6 as well over R1 or R2. R6 is read a level up on R1 and R2, the pawn on it,
    and the whole field right."""
    scene, reading = read_on_first_level("f2206", MISREADS)
    found = {bid: block_read_as(reading, scene, bid) for bid in ("R6", "R1", "R2")}
    assert None not in found.values(), found
    assert set(reading.blocks[found["R6"]].rests_on) == {found["R1"], found["R2"]}
    magenta = [p for p in reading.pawns if p.colour == "magenta"]
    assert [p.block for p in magenta] == [found["R6"]]
    assert_read_whole(scene, reading)


def test_a_raised_neighbour_s_side_face_is_no_pawn_on_a_bridge() -> None:
    """f1926: over the white W2 and W3, the shaded side face of the yellow bridge Y7 beside
    them shows an orange hue a pawn's head would (a window 0.92 full), and over neither
    block. Every sample of it lies where Y7 shows with nothing on the place: no white
    bridge is read over the two, and the whole field is read right."""
    scene, reading = read_on_first_level("f1926", MISREADS)
    assert_no_block_over(scene, reading, "W2", "W3")
    assert_read_whole(scene, reading)


def test_a_pawn_on_a_first_level_block_the_stacked_photo_did_not_read_makes_no_bridge(
) -> None:
    """f2536: the orange pawn stands on the yellow Y3, which the stacked photo did not
    read as a top (the first level's photo did); seen past the red R1 and R2 beside it,
    its head fills a window over their bridge's place. Y3, a first-level block nothing is
    read on, shows the head as well: no red bridge is read over R1 and R2, and the whole
    field is read right."""
    scene, reading = read_on_first_level("f2536", MISREADS)
    assert_no_block_over(scene, reading, "R1", "R2")
    assert_read_whole(scene, reading)
