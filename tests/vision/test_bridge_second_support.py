"""The second block under a bridge, read as a whole top from the strip of it in view.

A bridge seen on one block only would tip over: the set-up reading puts its second block
a block's size beyond the first. Where a top read there overlaps that place, blocks being
solid, it is that block, read as a whole top from the strip of its top the bridge leaves in
view (half a block off): it is moved under the bridge, keeping the colour its strip shows.
On the shipped photoreal renders (``tests/data/table3d``, tuning families only). Rules:
infinifield.md, "Build the field" (a block rests on the blocks under it; a block may
bridge two).
"""

from __future__ import annotations

import math

from tests.vision.table3d_reading import assert_bridge_on_its_blocks, read_tune_scene

NEAR_MM = 10.0
"""A read block this close (mm) to the true block's centre is that block."""


def test_a_bridge_support_read_half_a_block_off_is_put_under_the_bridge() -> None:
    """infinifield.md "Build the field": f193's blue B1 bridges white W1 and yellow Y2 at
    640x480 from 47 cm; a strip of Y2's top shows beside the bridge, read as a whole top
    15 mm off. The bridge is read on its two blocks, Y2 in its colour under it."""
    scene, reading = read_tune_scene("f193_before")
    assert set(scene.blocks["B1"].rests_on) == {"W1", "Y2"}
    assert_bridge_on_its_blocks(scene, reading, "B1", NEAR_MM)


def test_a_whole_top_in_view_beside_a_bridge_is_not_taken_for_its_strip() -> None:
    """infinifield.md "Build the field": in f078 (640x480, 86 cm) red R2 stands whole and in
    view beside the yellow read a level up over Y4, where that top's second block would
    stand. Its read square is red all over, so it is no strip of a support: it stays where
    it is (it was moved 21 mm, under the yellow, before)."""
    scene, reading = read_tune_scene("f078_before")
    r2 = scene.blocks["R2"]
    near = [b for b in reading.blocks if b.level == 1 and b.colour == "red"
            and math.dist(b.centre, r2.centre_mm) <= 4.0]
    assert len(near) == 1, [(b.colour, b.centre) for b in reading.blocks]
