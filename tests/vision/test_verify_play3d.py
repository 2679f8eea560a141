"""Issue 12, section 2 "Play": what the play check must get right on a real, 3D table.

``vision.readers.verify.check_blocks`` judges each expected block's top where the camera
model puts it. These tests cover what a player would notice: a removal proposed as exactly
the block taken away (infinifield.md "Chase-and-capture" step 7: every 5 turns one block
is removed), never while an arm is over the table, and no false alarm from the light.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.camera_model import Intrinsics
from vision.devtools.render_boxes import BoxBlock, BoxScene, render_boxes
from vision.devtools.table3d_truth import DEFAULT_DIR, load_scene
from vision.layout import TableLayout
from vision.palette import default_palette
from vision.pose import TablePose, find_table_markers, solve_pose, table_pose
from vision.readers.table_views import TableViews, learn_palette
from vision.readers.verify import check_blocks

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from table3d_accuracy import intrinsics_of, truth_field


def _overhead(over: tuple[float, float]) -> TablePose:
    f = 320 / math.tan(math.radians(65 / 2))
    k = np.array([[f, 0, 320], [0, f, 240], [0, 0, 1]])
    cam = Intrinsics(k, np.array([-0.08, 0.0, 0.0, 0.0, 0.0]), (640, 480), "test", "calibrated")
    return TablePose.looking_down(cam, TableLayout(), 600.0, (1.0, -0.5, 0.5), over)


def _bridge_scene(pose: TablePose) -> BoxScene:
    """A red block raised on a red and a white one, under the camera, among others."""
    blocks = (
        BoxBlock("R1", "red", (280.0, 220.0)),
        BoxBlock("W1", "white", (321.0, 220.0)),
        BoxBlock("R2", "red", (300.5, 220.0), level=2, rests_on=("R1", "W1")),
        BoxBlock("Y1", "yellow", (280.0, 261.0)),
        BoxBlock("Y2", "yellow", (321.0, 261.0)),
        BoxBlock("B1", "blue", (362.0, 220.0)),
    )
    return BoxScene(blocks, pose=pose, seed=3)


def _assert_removal_read(scene: BoxScene, removed: str) -> None:
    """No removal is read on the whole field; with ``removed`` taken away, exactly it."""
    intrinsics = scene.pose.intrinsics
    full = render_boxes(scene).image
    fld = scene.field()
    assert check_blocks(full, table_pose(full, intrinsics), fld).removal is None
    taken = render_boxes(scene.without(removed)).image
    check = check_blocks(taken, table_pose(taken, intrinsics), fld)
    assert check.blocks[removed].status == "gone"
    assert check.removal == removed


def test_a_raised_top_taken_off_a_block_of_its_colour_is_read_removed() -> None:
    """infinifield.md step 7: the red block raised half over a red one is taken away. Over
    that half the camera now sees the lower red top where the raised one was: only the
    other half (now the white block's top) can tell, and it says gone. (The check used to
    count the red half as the raised top still there and read no removal.)"""
    _assert_removal_read(_bridge_scene(_overhead((305.0, 225.0))), "R2")


def test_a_raised_top_taken_off_a_block_of_its_colour_seen_from_the_side_is_read_removed(
        ) -> None:
    """infinifield.md step 7: a yellow block raised on a yellow and a white one, the camera
    off to the side, is taken away. Nearly every ray through where its top was now lands on
    the yellow block (its top or its side), so the top's colour cannot tell; its sides can:
    the face turned to the camera showed yellow, and the rays through it now land on the
    white top. (The check used to read it still there and no removal.)"""
    pose = _overhead((300.0, 225.0))
    blocks = (
        BoxBlock("W1", "white", (470.0, 290.0)),
        BoxBlock("Y1", "yellow", (511.0, 290.0)),
        BoxBlock("Y2", "yellow", (490.5, 290.0), level=2, rests_on=("W1", "Y1")),
        BoxBlock("R1", "red", (470.0, 249.0)),
        BoxBlock("B1", "blue", (511.0, 249.0)),
    )
    _assert_removal_read(BoxScene(blocks, pose=pose, seed=4), "Y2")


def _shipped(image_id: str):
    path = DEFAULT_DIR / f"{image_id}.json"
    if not path.is_file():
        pytest.skip(f"photoreal scene {image_id} not shipped at {DEFAULT_DIR}")
    return load_scene(path)


def _pose_of(scene, which: str = "true"):
    frame = scene.image()
    return frame, solve_pose(find_table_markers(frame, scene.layout), scene.camera.size,
                             intrinsics_of(scene, which), scene.layout)


def _hand_and_clear_checks(family: str, which: str = "true"):
    """The play check of a family's hand photo and of its set-up photo (no hand), against
    the set-up field, with the colours learnt on the set-up photo; ``which``: the camera's
    own intrinsics (``true``) or none given (``none``: estimated from the markers)."""
    before = _shipped(f"{family}_before")
    bframe, bpose = _pose_of(before, which)
    palette = learn_palette(TableViews(bframe, bpose, default_palette()))
    fld = truth_field(before)
    frame, pose = _pose_of(_shipped(f"{family}_hand"), which)
    return (check_blocks(frame, pose, fld, (), palette),
            check_blocks(bframe, bpose, fld, (), palette))


def test_a_dark_arm_the_colour_of_the_wooden_table_is_a_hand_over_the_table() -> None:
    """Issue 12 (hand over the table flagged, goal 100 %); infinifield.md step 7: no removal
    is read while it is there. Tuning family f073, window light: a dark brown arm in a
    green sleeve the colour of the mat reaches in over the table; the palette learnt at
    set-up calls its brown the table (the wooden table round the mat has it). It was not
    flagged before; the set-up photo of the same table still is not."""
    check, clear = _hand_and_clear_checks("f073")
    assert check.hands_in_view
    assert check.removal is None
    assert not clear.hands_in_view


def test_a_dark_hand_over_a_brown_mat_is_a_hand_over_the_table() -> None:
    """Issue 12 (hand over the table flagged, goal 100 %); infinifield.md step 7: no removal
    is read while it is there. Tuning family f210, ceiling light: a dark brown hand reaches
    over the field's far row from a green sleeve off the mat; most of it is near the
    mat's brown, the rest a 12,000 mm² patch of skin, partly over the expected blocks.
    That patch alone is a hand (a palm is 5,000 mm²). It was not flagged before."""
    check, clear = _hand_and_clear_checks("f210")
    assert check.hands_in_view
    assert check.removal is None
    assert not clear.hands_in_view


@pytest.mark.parametrize("which", ["true", "none"])
def test_a_dark_arm_broken_at_the_wrist_is_one_arm_over_the_table(which: str) -> None:
    """Issue 12 (hand over the table flagged, goal 100 %); infinifield.md step 7: no removal
    is read while it is there. Tuning family f245, dim light: a dark brown arm comes in over
    the green mat's far edge to a hand over the field's first blocks. In the coarse view its
    wrist is near the mat's colour, so the part at the edge (2,200 mm²) and the hand
    (3,400 mm²) are apart, each under a hand's size, and it was not flagged. Joined across
    that gap they are one arm. With the lens estimated from the markers (``none``) the
    wrist's gap is wider and the hand a speckle of skin and dark pixels that the opening
    broke up: closed first, the arm is whole again."""
    check, clear = _hand_and_clear_checks("f245", which)
    assert check.hands_in_view
    assert check.removal is None
    assert not clear.hands_in_view


@pytest.mark.parametrize("family", ["f010", "f028", "f034"])
def test_a_lamp_s_warm_pool_on_the_mat_is_no_hand(family: str) -> None:
    """Tuning set-up photos under window and lamp light: the lamp's warm pool shifts the
    mat's chroma as far as a dark arm does, from the table's edge in, but brightens it; no
    hand is read (a hand read there would hold every removal back)."""
    before = _shipped(f"{family}_before")
    frame, pose = _pose_of(before)
    palette = learn_palette(TableViews(frame, pose, default_palette()))
    check = check_blocks(frame, pose, truth_field(before), (), palette)
    assert not check.hands_in_view
    assert check.gone == []


PLAY_DIR = Path(__file__).resolve().parents[1] / "data" / "table3d_play"
"""Renders made after the play check was tuned (see its README)."""


def _play_scene(image_id: str):
    path = PLAY_DIR / f"{image_id}.json"
    if not path.is_file():
        pytest.skip(f"photoreal scene {image_id} not found at {PLAY_DIR}")
    return load_scene(path)


@pytest.mark.parametrize("family", ["f201", "f428", "f601"])
def test_a_raised_top_taken_off_its_colour_is_read_removed_on_photoreal_renders(family: str
                                                                               ) -> None:
    """infinifield.md step 7, on renders made after tuning: f201 (a red top raised half over
    a red block, camera almost overhead) and f428 (a yellow top on a yellow block, camera
    off to the side) taken away are read as exactly that block, against the set-up photo as
    the reference view, as the watcher does; f601 (a white top on a white block near the
    nadir, its sides seen edge-on: the few samples that can tell decide)."""
    before, after = _play_scene(f"{family}_before"), _play_scene(f"{family}_after")
    bframe, bpose = _pose_of(before)
    palette = learn_palette(TableViews(bframe, bpose, default_palette()))
    fld = truth_field(before)
    reference = TableViews(bframe, bpose, palette)
    assert check_blocks(bframe, bpose, fld, (), palette, reference=reference).removal is None
    frame, pose = _pose_of(after)
    check = check_blocks(frame, pose, fld, (), palette, reference=reference)
    assert check.removal == after.action["block"]


def test_a_dark_arm_over_a_dark_mat_is_a_hand_over_the_table() -> None:
    """Issue 12 (hand flagged, goal 100 %); infinifield.md step 7: no removal while it is
    there. f450, ceiling light: a dark brown arm only a little darker than the dark green
    mat (0.8 of its lightness) reaches in from the table's edge."""
    before, hand = _play_scene("f450_before"), _play_scene("f450_hand")
    bframe, bpose = _pose_of(before)
    palette = learn_palette(TableViews(bframe, bpose, default_palette()))
    fld = truth_field(before)
    assert not check_blocks(bframe, bpose, fld, (), palette).hands_in_view
    frame, pose = _pose_of(hand)
    check = check_blocks(frame, pose, fld, (), palette)
    assert check.hands_in_view
    assert check.removal is None



def _play_check(before, image, pawns=None):
    bframe, bpose = _pose_of(before)
    palette = learn_palette(TableViews(bframe, bpose, default_palette()))
    reference = TableViews(bframe, bpose, palette)
    frame, pose = _pose_of(image)
    return check_blocks(frame, pose, truth_field(before), (), palette, reference=reference,
                        pawns=pawns)


def test_a_removed_top_beside_a_pawn_is_not_kept_by_another_pawn_s_colour_in_its_hole() -> None:
    """infinifield.md step 7, family f100 (rendered after the play check was tuned): R5 is
    taken away beside the magenta pawn's block. Through its hole the shaded red sides of its
    neighbours fill a head-sized window with orange, and the rule that a pawn's head shows
    a top is there kept R5 'seen'. The orange pawn stands two blocks away, so its head
    cannot be over R5: only the pawns the engine has on R5 or one move from it count."""
    before, after = _shipped("f100_before"), _shipped("f100_after")
    pawns = {p.colour: p.block for p in before.pawns}
    assert "R5" not in pawns.values()
    assert _play_check(before, after, pawns).removal == after.action["block"] == "R5"
    assert _play_check(before, before, pawns).removal is None


def test_a_bare_arm_in_dim_light_is_a_hand_over_the_table() -> None:
    """Issue 12 (hand flagged, goal 100 %); infinifield.md step 7: no removal while it is
    there. f125 (rendered after the play check was tuned), dim ceiling light: a bare arm
    reaches in from the table's edge over the blocks; its skin reads half as no colour,
    half as white, each half too speckled to be a region alone."""
    before, hand = _shipped("f125_before"), _shipped("f125_hand")
    pawns = {p.colour: p.block for p in before.pawns}
    check = _play_check(before, hand, pawns)
    assert check.hands_in_view
    assert check.removal is None
    assert not _play_check(before, before, pawns).hands_in_view


HANDS_DIR = Path(__file__).resolve().parents[1] / "data" / "table3d_hands"
"""Hand renders made after the hand check was tuned (see its README)."""


def test_an_arm_in_a_dark_sleeve_in_dim_light_is_a_hand_at_set_up_and_in_play() -> None:
    """Issue 12 (hand flagged, goal 100 %); infinifield.md step 7: no removal while it is
    there. f601 of a set rendered after tuning, window light: an arm in a dark maroon
    sleeve reaches in over the table's far edge to the blocks. Sleeve and shaded arm read
    as the table's class (as dark as the wooden table) and only 9 from the mat's chroma,
    but at L* 8 against the mat's 27: a shadow keeps the mat's chromaticity, so that much
    colour in so dark a pixel is no shadow. The set-up photo alone stays clear."""
    from vision.readers.field3d import read_field

    paths = [HANDS_DIR / f"f601_{role}.json" for role in ("before", "hand")]
    if not all(p.is_file() for p in paths):
        pytest.skip(f"photoreal hand scenes not found at {HANDS_DIR}")
    before, hand = (load_scene(p) for p in paths)
    bframe, bpose = _pose_of(before)
    palette = learn_palette(TableViews(bframe, bpose, default_palette()))
    reference = TableViews(bframe, bpose, palette)
    fld = truth_field(before)
    pawns = {p.colour: p.block for p in before.pawns}
    clear = check_blocks(bframe, bpose, fld, (), palette, reference=reference, pawns=pawns)
    assert not clear.hands_in_view
    assert not read_field(bframe, bpose, palette).hands_in_view
    frame, pose = _pose_of(hand)
    check = check_blocks(frame, pose, fld, (), palette, reference=reference, pawns=pawns)
    assert check.hands_in_view
    assert check.removal is None
    assert read_field(frame, pose, palette).hands_in_view
