"""The mat in a warm lamp's light within the sun's shadow is no white top (issue 12).

A window's sun casts the blocks' shadow on the mat and a warm lamp lights it there: the mat
comes out a dull warm grey, which the palette (where lightness counts little) puts within
reach of a lamp-warmed white, and whose yellowish hue then made it "yellow". A white top is
lighter than the lit mat, or in a shadow, where the light round it tells it. Photos:
``tests/data/table3d`` (skipped when absent). Rules: ../shared/rules/infinifield.md "Build
the field" (the field read at set-up holds the blocks on the table, and nothing else).
"""

from __future__ import annotations

import math

import numpy as np

from tests.vision.table3d_reading import read_tune_scene, tune_scene_views


def test_the_lamp_lit_mat_in_the_suns_shadow_is_table() -> None:
    """f166 (window and lamp): the mat in the cluster's shadow on its right, a warm grey
    (45, 61, 76), was read as two blocks (a white and a yellow) 45-55 mm from any block;
    it is the table, and the white tops of the field stay white."""
    scene, views = tune_scene_views("f166_before")
    block = scene.blocks["W4"]
    at = views.pose.to_plane(views.pose.project(
        np.array([[block.centre_mm[0] + 50.0, block.centre_mm[1], 40.0]])), 40.0)[0]
    x, y = np.round(at * views.px_per_mm).astype(int)
    classes = views.classes(40.0)
    names = [c.name for c in views.palette.classes]
    patch = classes[y - 10:y + 11, x - 10:x + 11]
    assert float(np.mean(patch == names.index("table"))) > 0.8
    _scene, reading = read_tune_scene("f166_before")
    for seen in reading.blocks:
        assert min(math.dist(seen.centre, b.centre_mm) for b in scene.blocks.values()) < 30, (
            seen.colour, seen.centre)
    whites = [b for b in reading.blocks if b.colour == "white"]
    assert len(whites) >= sum(1 for b in scene.blocks.values() if b.colour == "white") - 1


def test_the_mat_in_the_scenes_shadow_light_has_no_block_colour() -> None:
    """f058 (window and lamp): beside the field the mat in the sun's shadow, lit by the warm
    lamp, is (25, 38, 49), the mat's colour in the scene's shadow light; its yellowish hue
    made two yellow blocks on the bare mat. No block is read away from the field's."""
    scene, reading = read_tune_scene("f058_before")
    for seen in reading.blocks:
        assert min(math.dist(seen.centre, b.centre_mm) for b in scene.blocks.values()) < 30, (
            seen.colour, seen.centre)
    assert len(reading.blocks) == len(scene.blocks)
