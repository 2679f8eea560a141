"""The colour of a block under one side of a bridge, read from what the camera sees of it.

When a top bridging two blocks shows only one of them, the set-up reading adds the other
(it would tip over otherwise) and reads its colour from what of it shows: the strip of its
own top beside the bridge counts with its side faces, each by the area in pixels it covers,
so a side face seen nearly edge-on (under a pixel high, its pixels the neighbours' colours)
does not outvote it. On the shipped photoreal renders (``tests/data/table3d``, tuning
families only). Rules: infinifield.md, "Build the field" (a block rests on the blocks under
it; a block may bridge two).
"""

from __future__ import annotations

import math

import pytest

from tests.vision.table3d_reading import read_tune_scene

NEAR_MM = 8.0
"""A read block this close (mm) to the true block's centre is that block."""


@pytest.mark.parametrize(("family", "block", "bridge"), [("f048", "Y1", "R4"),
                                                         ("f066", "W7", "R4")])
def test_a_bridge_support_shows_its_colour_by_the_strip_of_its_top(
        family: str, block: str, bridge: str) -> None:
    """infinifield.md "Build the field": f048's red R4 bridges yellow Y1 and Y3 at 640x480,
    f066's red R4 bridges white W7 and yellow Y3; only a strip of Y1's (W7's) top shows
    beside the bridge, and its side faces are nearly edge-on, their few pixels the
    neighbours' colours. The support is read in its own colour on the first level,
    carrying the bridge."""
    scene, reading = read_tune_scene(f"{family}_before")
    truth = scene.blocks[block]
    top = scene.blocks[bridge]
    assert truth.level == 1 and top.level == 2 and block in top.rests_on
    near = [i for i, b in enumerate(reading.blocks) if b.level == 1 and math.hypot(
        b.centre[0] - truth.centre_mm[0], b.centre[1] - truth.centre_mm[1]) <= NEAR_MM]
    assert [reading.blocks[i].colour for i in near] == [truth.colour], \
        [reading.blocks[i] for i in near]
    carried = [b for b in reading.blocks if b.level == 2 and math.hypot(
        b.centre[0] - top.centre_mm[0], b.centre[1] - top.centre_mm[1]) <= NEAR_MM]
    assert [b.colour for b in carried] == [top.colour] and near[0] in carried[0].rests_on
