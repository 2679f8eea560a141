"""Block tops a hard shadow's edge crosses, read as one top each (issue 12).

Under a lamp or a window a tower's (or a frame's) hard shadow can fall across part of a
top: its lit part and its shaded part differ in shade and tint, so the region of one shade
grown from its core is no square and gives no face, though the shadow's palette gives
nearly all its pixels the top's colour. The square of a block's size, at the angle of the
tops round it, mostly of that colour where no top was found, is the top. Photos:
``tests/data/table3d`` (skipped when absent). Rules: ../shared/rules/infinifield.md "Build
the field" (every block of the field is read at set-up, with its colour).
"""

from __future__ import annotations

from tests.vision.table3d_reading import assert_read_whole, assert_tops_read, read_tune_scene


def test_a_tower_s_shadow_across_a_free_yellow_top_leaves_it_read() -> None:
    """f116: the lamp throws a tower's shadow across half of the free yellow Y3; the whole
    stacked field is read right with it (every block, colour, support and touching pair)."""
    assert_tops_read("f116_before", ["Y3"], within_mm=4.0)
    scene, reading = read_tune_scene("f116_before")
    assert_read_whole(scene, reading)


def test_half_shaded_tops_in_a_flat_field_under_a_lamp_are_read() -> None:
    """f182: a red, a white and a blue top in part of a lamp-lit tower's hard shadow are
    read, each with its colour, where it stands (the white one, whose shaded side shows no
    edge, within a quarter of a block)."""
    assert_tops_read("f182_before", ["R1", "B1"], within_mm=4.0)
    assert_tops_read("f182_before", ["W3"], within_mm=10.0)
