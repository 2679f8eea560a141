"""Top faces the set-up reader finds by their outline (issue 12, photoreal renders).

A first-level top whose colour region ran on into a same-coloured neighbour's, or into a
stack's side faces, is no square region of its colour; its outline still shows in the
lightness (its four sides on edges, its inside flat). Tune families only (``split.json``:
families numbered ``% 4 == 3`` are held out). Rule: infinifield.md "Build the field" (the
field read from the camera at set-up).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.vision.table3d_reading import assert_tops_read

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))


OUTLINED = {"f016_before": ["B1"], "f028_before": ["R3"], "f037_before": ["Y2"],
            "f046_before": ["R4"], "f068_before": ["W1"], "f076_before": ["W4"]}
"""Tops (tune families) whose colour region merged with a same-coloured neighbour's or a
side face, so that no square region of their colour shows (f016's B1: the region runs on,
the part the strong edges cut out of it is the top's square; f037's Y2 and f046's R4: a
pawn stands on the top, its outline's edges inside it)."""




@pytest.mark.parametrize("scene_id", sorted(OUTLINED))
def test_a_top_merged_with_a_same_coloured_neighbour_is_found_by_its_outline(scene_id
                                                                           ) -> None:
    """infinifield.md "Build the field": every block of the field is read with its colour,
    where it stands (within 3 mm) and how it is turned (within 3 degrees)."""
    scene, reading, m = assert_tops_read(scene_id, OUTLINED[scene_id], 3.0)
    for bid in OUTLINED[scene_id]:
        seen, truth = reading.blocks[m[bid]], scene.blocks[bid]
        turn = (seen.angle - truth.angle_deg + 45.0) % 90.0 - 45.0
        assert abs(turn) <= 3.0, (scene_id, bid, seen.angle, truth.angle_deg)


SHADOW_SPLIT = {"f013_before": ["R3"], "f058_before": ["W2"], "f061_before": ["R1", "Y3"]}
"""Tops (tune families) crossed by a hard shadow's edge (window light): lit on one side,
shaded on the other, no region of one shade is a top's square."""


@pytest.mark.parametrize("scene_id", sorted(SHADOW_SPLIT))
def test_a_top_crossed_by_a_hard_shadow_is_found_whole(scene_id: str) -> None:
    """infinifield.md "Build the field": every block of the field is read with its colour,
    on the table, about where it stands (within 6 mm: the shaded side's edges are faint),
    though a shadow's edge cuts its top into two shades."""
    assert_tops_read(scene_id, SHADOW_SPLIT[scene_id], 6.0, seen_as="top")
