"""A bridge beside one of its supports of its own colour, read a level up on its two blocks.

A bridge over a block of its own colour shows with the strip of that block's top as one
region of one colour, so the set-up reading finds the support's top alone there; the
frame, rendered both ways, prefers the bridge a level up over the joint of that top and its
neighbour (:meth:`vision.readers.refine3d._Search.bridges_beside`). On the shipped
photoreal renders (``tests/data/table3d``, tuning families only). Rules: infinifield.md,
"Build the field" (a block rests on the blocks under it; a block may bridge two).
"""

from __future__ import annotations

import math

import pytest

from tests.vision.table3d_reading import read_tune_scene
from vision.devtools.table3d_truth import BlockTruth
from vision.readers.field3d import FieldReading

NEAR_MM = 10.0
"""A read block this close (mm) to the true block's centre is that block."""


def _read_near(reading: FieldReading, truth: BlockTruth) -> list[int]:
    """Indexes of the read blocks at ``truth``'s level within :data:`NEAR_MM` of it."""
    return [i for i, b in enumerate(reading.blocks) if b.level == truth.level and math.hypot(
        b.centre[0] - truth.centre_mm[0], b.centre[1] - truth.centre_mm[1]) <= NEAR_MM]


@pytest.mark.parametrize(("family", "bridge"), [("f176", "R4"), ("f213", "W6")])
def test_a_bridge_over_a_support_of_its_colour_is_read_on_its_two_blocks(
        family: str, bridge: str) -> None:
    """infinifield.md "Build the field": f176's red R4 bridges red R2 and yellow Y4 at
    640x480 under a warm lamp, f213's white W6 bridges white W4 and yellow Y3; each bridge
    and the support of its colour show as one region. The bridge is read on the second
    level in its colour, resting on its two supports, each read in its own colour."""
    scene, reading = read_tune_scene(f"{family}_before")
    top = scene.blocks[bridge]
    assert top.level == 2 and len(top.rests_on) == 2
    found = _read_near(reading, top)
    assert [reading.blocks[i].colour for i in found] == [top.colour], \
        [reading.blocks[i] for i in found]
    under = reading.blocks[found[0]].rests_on
    assert len(under) == 2, reading.blocks[found[0]]
    for bid in top.rests_on:
        support = scene.blocks[bid]
        near = [i for i in _read_near(reading, support) if i in under]
        assert [reading.blocks[i].colour for i in near] == [support.colour], (bid, near)
