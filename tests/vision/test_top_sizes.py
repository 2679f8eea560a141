"""A top's size beside same-coloured neighbours (issue 12): the level it is read at.

At 640x480 only a top's size tells its level (a level adds 1.5-2.5 px). Two same-coloured
tops side by side make one colour region, cut at the groove's middle: each one's region
takes in its bevel and half the groove there, a few pixels too large, as a top a level up
would show. The set-up reading measures such a top between its own edges. On the shipped
photoreal renders (``tests/data/table3d``, tuning families only). Rules: infinifield.md,
"Build the field" (blocks on the table or on blocks; a block under another is part of the
field, so inventing one changes the field read).
"""

from __future__ import annotations

import math

from tests.vision.table3d_reading import read_tune_scene
from vision.readers.field3d import FieldReading, SeenBlock3D

NEAR_MM = 8.0
"""A read top this close (mm) to the true top's centre is that top."""


def _at(reading: FieldReading, xy: tuple[float, float]) -> list[SeenBlock3D]:
    return [b for b in reading.blocks
            if math.hypot(b.centre[0] - xy[0], b.centre[1] - xy[1]) <= NEAR_MM]


def test_a_top_between_two_of_its_colour_is_read_on_the_table() -> None:
    """infinifield.md "Build the field": f062's yellow Y2 stands on the table between the
    yellow Y1 and Y3, touching both. Its colour region runs on to the middle of both
    grooves (40.8 mm where a first-level yellow top shows 36-37): it must still be read as
    one yellow top on the first level at its place, with no block invented under it, so
    that the field read has exactly the blocks that stand there."""
    scene, reading = read_tune_scene("f062_before")
    y2 = scene.blocks["Y2"]
    assert (y2.colour, y2.level) == ("yellow", 1)
    assert all(scene.blocks[n].colour == "yellow" for n in ("Y1", "Y3"))
    here = _at(reading, y2.centre_mm)
    assert [(b.colour, b.level, b.seen) for b in here] == [("yellow", 1, "top")], here
    assert len(reading.blocks) == len(scene.blocks)
    assert all(b.level == 1 for b in reading.blocks)
