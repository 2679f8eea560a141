"""A top with a pawn on it beside a same-coloured top (issue 12, blocks with the right colour).

Rules: infinifield.md "Build the field" (the field read at set-up holds every block; pawns
stand on blocks). Two white tops side by side whose groove does not show run together into
one white region; the pawn on one of them makes its own core's region run on, so it is a
top of unsure size. When the two cores' region together makes no top either, the core's
own top is kept where its region spans a whole top across: it was lost before. (A region
narrower than a top is a part of one, left to the squares looked for later: f122's R3 in
tests/vision/test_same_colour_neighbours.py.)
"""

from __future__ import annotations

import math

from tests.vision.table3d_reading import read_tune_scene


def test_a_white_top_with_a_pawn_beside_a_white_one_is_read() -> None:
    """f202 (window and lamp, 93 cm up): W2, with the cyan pawn, under W1 with no groove
    seen between them, is read as a white block on the table, and W1 still is."""
    scene, reading = read_tune_scene("f202_before")
    for bid in ("W1", "W2"):
        truth = scene.blocks[bid]
        near = [b for b in reading.blocks
                if math.hypot(b.centre[0] - truth.centre_mm[0],
                              b.centre[1] - truth.centre_mm[1]) < 8]
        assert [(b.colour, b.level) for b in near] == [("white", 1)], bid
