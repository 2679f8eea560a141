"""Two touching blocks of one colour read as two tops (issue 12, photoreal renders).

Same-coloured neighbours make one colour region in the first level's view when the groove
between them is washed out (a warm lamp, glare, a pawn's shadow over it, a high camera):
read as one top, the other block went missing, or the pair was taken for one larger top
(a bridge a level up on two invented blocks). A region longer along its row than one top
with its side faces can show there holds two tops, split at their groove. Tune families
only (``split.json``: families numbered ``% 4 == 3`` are held out). Rule: infinifield.md
"Build the field" (the field read from the camera at set-up).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.table3d_reading import (
    assert_read_whole,
    assert_tops_read,
    read_tune_scene,
    tune_scene_views,
)
from vision.readers.faces3d import TopFace, _tops_either_side

READ_WHOLE = ["f057_before", "f122_before"]
"""Flat fields with a pair of same-coloured neighbours merged into one region: f122's R3
and R5 (red, a warm lamp), f057's Y5 and Y6 (yellow, seen from 97 cm)."""


@pytest.mark.parametrize("scene_id", READ_WHOLE)
def test_a_flat_field_with_merged_same_coloured_neighbours_is_read_whole(scene_id: str
                                                                         ) -> None:
    """infinifield.md "Build the field": every block of the field is read with its colour
    and level, and exactly the touching pairs."""
    scene, reading = read_tune_scene(scene_id)
    assert_read_whole(scene, reading)


def test_two_white_tops_with_pawns_are_no_bridge() -> None:
    """infinifield.md "Build the field": f169's W1 and W2 (white, each with a pawn, seen
    from 95 cm) are two first-level tops, each where it stands (within 3 mm); the flat
    field has no block a level up and none more than it has."""
    scene, reading, _m = assert_tops_read("f169_before", ["W1", "W2"], 3.0)
    assert all(b.level == 1 for b in reading.blocks)
    assert len(reading.blocks) == len(scene.blocks)


def test_a_region_one_top_with_its_side_faces_could_show_stays_whole() -> None:
    """A run-on region no longer than one top (up to the highest level) with its column's
    side faces can show there is kept as one face: a tower's top is one block."""
    _scene, views = tune_scene_views("f169_before")
    face = TopFace("white", np.array([184.0, 216.0]), -5.4, 42.0, 0.9, (40.0, 44.0), True)
    assert _tops_either_side(views, views.layout.block_height_mm, face) == [face]


def test_a_region_wider_than_a_top_across_its_row_is_no_pair_of_tops() -> None:
    """A hand over the table makes a white region wider than any top across it: no row of
    two tops, kept as it was (f018's hand)."""
    _scene, views = tune_scene_views("f018_hand")
    face = TopFace("white", np.array([344.5, 184.0]), 0.0, 77.5, 0.83, (88.0, 67.0), True)
    assert _tops_either_side(views, views.layout.block_height_mm, face) == [face]
