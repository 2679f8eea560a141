"""A top's column does not put it further from the level its clean size gives than a level.

``levels3d.column_level`` reads a top's level from where its column meets the table; at
640x480 a level adds 1.5-2.5 px to a top's size, so a clean size is off by one level at
most, and a column two levels from it is misread (the table's edge found at the wrong
base). Believing it invents blocks under the top (issue 12; infinifield.md, "Build the
field": blocks stand on the table or on blocks). Shipped photoreal render (a tuning
family), without a calibrated camera: its focal length estimated from the four markers.
"""

from __future__ import annotations

from tests.vision.table3d_reading import assert_read_whole, read_tune_scene


def test_a_first_level_top_with_a_pawn_is_not_put_three_levels_up_by_its_column() -> None:
    # f245: R2, the cyan pawn on it, 38.4 mm across where first-level red tops show
    # 37.5 mm; its column read three levels up, with two white blocks invented under it
    from table3d_accuracy import match

    scene, reading = read_tune_scene("f245_before", intrinsics="none")
    m = match(reading, scene)
    assert reading.blocks[m["R2"]].level == 1
    assert max(b.level for b in reading.blocks) == 1
    assert_read_whole(scene, reading)
    assert {p.colour: p.block for p in reading.pawns}["cyan"] == m["R2"]
