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

from tests.vision.table3d_reading import read_tune_scene

NEAR_MM = 10.0
"""A read block this close (mm) to the true block's centre is that block."""


def test_a_bridge_support_read_half_a_block_off_is_put_under_the_bridge() -> None:
    """infinifield.md "Build the field": f193's blue B1 bridges white W1 and yellow Y2 at
    640x480 from 47 cm; a strip of Y2's top shows beside the bridge, read as a whole top
    15 mm off. The bridge is read on its two blocks, Y2 in its colour under it."""
    scene, reading = read_tune_scene("f193_before")
    top, support = scene.blocks["B1"], scene.blocks["Y2"]
    assert top.level == 2 and set(top.rests_on) == {"W1", "Y2"}
    bridge = [b for b in reading.blocks if b.level == 2 and math.dist(
        b.centre, top.centre_mm) <= NEAR_MM]
    assert [b.colour for b in bridge] == ["blue"], bridge
    under = [reading.blocks[j] for j in bridge[0].rests_on]
    assert len(under) == 2, under
    near = [b for b in under if math.dist(b.centre, support.centre_mm) <= NEAR_MM]
    assert [(b.colour, b.level) for b in near] == [("yellow", 1)], under
