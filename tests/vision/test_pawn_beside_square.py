"""Same-coloured tops that touch, with a pawn about, are read as the tops they are.

Where a colour region is larger than any top, ``faces3d._top_inside`` looks for the square
of a top in it; a square that moved away from a pawn standing in the region was taken as
pushed off by the pawn's pixels and refused. A pawn standing beside the square (on the
other top of the region) does not refuse it, and thin strips of a pawn's colour along a
top's bevel are no pawn (issue 12; infinifield.md, "Build the field": the builder may put
blocks "in almost any way", same colours side by side included; "Pawns": a pawn stands on
a block). On the shipped photoreal renders (tuning families only), with the camera not
calibrated: its focal length estimated from the four markers, as the app does then.
"""

from __future__ import annotations

from tests.vision.table3d_reading import assert_read_whole, read_tune_scene


def test_touching_yellows_near_a_pawn_are_read_whole_without_calibration() -> None:
    # f192: Y5 and Y6 touch in a row, Y3 and Y4 in a column with the orange pawn on Y4;
    # Y6 was lost in one region with Y5
    from table3d_accuracy import match

    scene, reading = read_tune_scene("f192_before", intrinsics="none")
    assert_read_whole(scene, reading)
    m = match(reading, scene)
    assert {p.colour: p.block for p in reading.pawns} == {"orange": m["Y4"], "green": m["W1"]}
