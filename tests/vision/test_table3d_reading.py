"""The camera model on the shipped photoreal renders (issue 12): pose, field, play checks.

``tests/data/table3d`` holds photoreal renders with exact ground truth (see
``vision/devtools/table3d_truth.py``). These tests keep floors under what
``bench/table3d_accuracy.py`` measures (the figures themselves are in ``docs/vision.md``);
they skip when the set is absent. Rules: infinifield.md "Chase-and-capture" step 7 (a
removal), "Build the field" (the field read from the camera).
"""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.devtools.table3d_truth import DEFAULT_DIR, iter_scenes, pairs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from table3d_accuracy import intrinsics_of, match, truth_field

from vision.palette import default_palette
from vision.pose import find_table_markers, solve_pose
from vision.readers.field3d import read_field
from vision.readers.table_views import TableViews, learn_palette
from vision.readers.verify import check_blocks

FAMILIES = 16
"""How many of the shipped scene families the tests read."""


@pytest.fixture(scope="module")
def scenes() -> list:
    if not (DEFAULT_DIR / "split.json").is_file():
        pytest.skip(f"photoreal table set not available at {DEFAULT_DIR}")
    found = list(iter_scenes(DEFAULT_DIR))
    if not found:
        pytest.skip("photoreal table set is empty")
    # the first families only, to keep the suite quick (the bench reads them all)
    families = sorted({s.family for s in found})[:FAMILIES]
    return [s for s in found if s.family in families]


def _pose(scene):
    frame = scene.image()
    return frame, solve_pose(find_table_markers(frame, scene.layout), scene.camera.size,
                             intrinsics_of(scene, "true"), scene.layout)


def test_four_markers_in_view_always_give_the_camera_within_a_centimetre(scenes) -> None:
    """Issue 12: calibration from every photo with the four markers in view."""
    for scene in scenes:
        if any(float(scene.raw["markers"][str(i)].get("visible", 1.0)) < 0.999
               for i in scene.layout.marker_ids):
            continue
        frame = scene.image()
        assert sorted(find_table_markers(frame, scene.layout)) == [0, 1, 2, 3], scene.id
        _frame, pose = _pose(scene)
        true = np.asarray(scene.camera.position_mm)
        where = pose.camera_position()
        assert math.dist((where[0], where[1], -where[2]), true) < 10.0, scene.id


def test_flat_fields_are_read_block_by_block_with_their_colours(scenes) -> None:
    """infinifield.md "Build the field": the field read from one photo at set-up."""
    right = total = 0
    errors: list[float] = []
    for scene in scenes:
        if scene.role != "before" or scene.stacked or scene.hand:
            continue
        frame, pose = _pose(scene)
        reading = read_field(frame, pose, learn_palette(TableViews(frame, pose,
                                                                    default_palette())))
        m = match(reading, scene)
        for bid, b in scene.blocks.items():
            total += 1
            if bid in m and reading.blocks[m[bid]].colour == b.colour:
                right += 1
                s = reading.blocks[m[bid]]
                errors.append(math.hypot(s.centre[0] - b.centre_mm[0],
                                         s.centre[1] - b.centre_mm[1]))
    if total == 0:
        pytest.skip("no flat set-up photo shipped")
    assert right / total >= 0.95
    assert statistics.median(errors) <= 2.0


def test_blocks_under_a_bridge_are_read_from_the_parts_of_their_tops_beside_it(scenes
                                                                            ) -> None:
    """infinifield.md "Build the field": a block resting on two hides the middle of their
    tops; the rest of each shows beside it and puts the block under (before issue 12's
    part tops: 1 of 22 such blocks in these families was read, now 9)."""
    right = total = 0
    for scene in scenes:
        if scene.role != "before" or not scene.stacked:
            continue
        frame, pose = _pose(scene)
        reading = read_field(frame, pose, learn_palette(TableViews(frame, pose,
                                                                    default_palette())))
        m = match(reading, scene)
        under = {s for b in scene.blocks.values() for s in b.rests_on}
        for bid in under:
            total += 1
            right += bid in m and reading.blocks[m[bid]].colour == scene.blocks[bid].colour
    if total == 0:
        pytest.skip("no stacked set-up photo shipped")
    assert right / total >= 0.3


def test_a_removal_is_read_as_exactly_that_block(scenes) -> None:
    """infinifield.md "Chase-and-capture" step 7: the block taken away, and only it."""
    right = total = 0
    for before, after in pairs(scenes):
        if (after.action or {}).get("kind") != "remove":
            continue
        bframe, bpose = _pose(before)
        palette = learn_palette(TableViews(bframe, bpose, default_palette()))
        frame, pose = _pose(after)
        total += 1
        right += check_blocks(frame, pose, truth_field(before), (), palette).removal == \
            after.action["block"]
        # nothing is read gone in the photo before
        assert check_blocks(bframe, bpose, truth_field(before), (), palette).removal is None
    if total == 0:
        pytest.skip("no removal pair shipped")
    assert right / total >= 0.8


def test_a_hand_over_the_table_holds_every_removal_back(scenes) -> None:
    for scene in scenes:
        if not scene.hand or scene.role != "hand":
            continue
        frame, pose = _pose(scene)
        palette = learn_palette(TableViews(frame, pose, default_palette()))
        check = check_blocks(frame, pose, truth_field(scene), (), palette)
        assert check.removal is None, scene.id


def test_every_hand_over_the_table_is_flagged_during_play(scenes) -> None:
    """Issue 12: a hand over the table flagged (goal 100 %); infinifield.md "Chase-and-capture"
    step 7: no removal is read while it is there.

    Pale hands washed to white by the light and dark hands in a sleeve of a block colour
    included (f003, f013: missed before the play check counted block and pawn colours
    outside the expected blocks' boxes). Clear set-up photos: measured 1 of 16 flagged.
    """
    flagged = hands = false_flags = clear = 0
    for scene in scenes:
        if scene.role not in ("hand", "before"):
            continue
        frame, pose = _pose(scene)
        palette = learn_palette(TableViews(frame, pose, default_palette()))
        seen = check_blocks(frame, pose, truth_field(scene), (), palette).hands_in_view
        if scene.hand:
            hands += 1
            flagged += seen
        else:
            clear += 1
            false_flags += seen
    if hands == 0:
        pytest.skip("no hand photo shipped")
    assert flagged == hands
    assert false_flags <= max(1, clear // 10)


@pytest.mark.parametrize(
    "scene_id", ["f013_hand", "f125_hand", "f038_hand", "f158_hand", "f181_hand"])
def test_a_hand_over_the_field_at_set_up_is_flagged(scene_id: str) -> None:
    """infinifield.md "Build the field": the field is read with no hand over it. A hand
    whose sleeve reads as yellow tops (f013) or whose skin in dim light lies over the blocks
    (f125) is explained by the blocks read there; its skin-coloured palm still says a hand
    is in view, and the players are asked to take it away. A pale arm read as a row of
    white tops (f038 from the table's left edge, f158 and f181 from its right) still crosses the
    table's edge, which no block does: not flagged before."""
    from tests.vision.table3d_reading import read_tune_scene

    scene, reading = read_tune_scene(scene_id)
    assert scene.hand
    assert reading.hands_in_view
